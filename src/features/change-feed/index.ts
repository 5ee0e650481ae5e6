/**
 * The change-feed wing (extension E5): what changed for a website, in commit order, with opaque
 * cursors and tombstones. The import records it in its transaction (write.ts); GET /api/v1/changes
 * reads it (http.ts); `feed purge` is its command (cli.ts).
 */
export { CHANGE_KINDS } from './model.js';
export type { WebsiteChangeSummary } from './model.js';
export { ChangeFeedSchema, ChangeSchema } from './schemas.js';
export { DEFAULT_FEED_RETENTION_DAYS, purgeTombstones, recordWebsiteChanges } from './write.js';
