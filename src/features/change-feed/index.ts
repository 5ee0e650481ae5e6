/** The change-feed wing's public surface: what other wings and the shared plumbing may use. */
export { CHANGE_KINDS } from './model.js';
export type { WebsiteChangeSummary } from './model.js';
export { ChangeFeedSchema, ChangeSchema } from './schemas.js';
export { DEFAULT_FEED_RETENTION_DAYS, purgeTombstones, recordWebsiteChanges } from './write.js';
