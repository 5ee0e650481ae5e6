/**
 * The content-version wing (extension E8, fresh after import): the number every content write
 * bumps in its transaction, the content writers' lock, and each instance's watcher of it (polled,
 * and notified on PostgreSQL), which empties the response caches the moment content changes.
 */
export { listenForChanges } from './notifications.js';
export { readContentVersion } from './read.js';
export { ContentVersion } from './watcher.js';
export { bumpContentVersion, currentContentVersion, IMPORT_LOCK_KEY, notifyKeysChanged, tryImportLock } from './write.js';
