/** The content-version wing's public surface: what other wings and the shared plumbing may use. */
export { listenForChanges } from './notifications.js';
export { readContentVersion } from './read.js';
export { ContentVersion } from './watcher.js';
export { bumpContentVersion, currentContentVersion, IMPORT_LOCK_KEY, notifyKeysChanged, tryImportLock } from './write.js';
