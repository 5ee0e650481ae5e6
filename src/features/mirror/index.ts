/**
 * The mirror wing (extension E9): everything a key sees on a running service of the original
 * interface, imported as one all-or-nothing bundle (mirror.ts), read with retries (client.ts,
 * crawl.ts). Its command is cli.ts.
 */
export { MirrorError, SourceStatusError } from './mirror-errors.js';
export { DEFAULT_RETRY, SourceClient, sourceBase, shownBase, backoffMs, retryAfterMs } from './client.js';
export type { ClientOptions, RetryNotice, RetryPolicy } from './client.js';
export { LARGEST_PAGE_SIZE } from './crawl.js';
export type { ReadProgress } from './crawl.js';
export { derivedWebsiteId } from './records.js';
export { mirrorSource } from './mirror.js';
export type { MirrorOptions, MirrorResult } from './mirror.js';
