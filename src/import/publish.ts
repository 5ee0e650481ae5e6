/**
 * How a content change reaches the websites, inside the transaction that made it: each website of
 * the organizations it touched gets its change-feed entries, its webhook endpoints a message, and
 * every running instance a new content version. `websites scope` ends with it; the import runs the
 * same steps with its purge of old tombstones between them (importer.ts).
 */
import type { Kysely } from 'kysely';
import type { Database, WebsiteScope } from '../db/database.js';
import { setWebsiteScope as writeWebsiteScope } from '../features/access/index.js';
import { recordWebsiteChanges } from '../features/change-feed/index.js';
import type { WebsiteChangeSummary } from '../features/change-feed/index.js';
import { bumpContentVersion } from '../features/content-version/index.js';
import { enqueueContentChanged } from '../features/webhooks/index.js';

export async function publishContentChange(trx: Kysely<Database>, organizationIds: readonly string[]): Promise<WebsiteChangeSummary[]> {
  const feed = await recordWebsiteChanges(trx, organizationIds);
  if (feed.length > 0) await enqueueContentChanged(trx, feed);
  await bumpContentVersion(trx);
  return feed;
}

/** Sets a website's scope (null: none) and publishes what changes for its keys. */
export function setWebsiteScope(db: Kysely<Database>, websiteId: string, scope: WebsiteScope | null) {
  return writeWebsiteScope(db, websiteId, scope, publishContentChange);
}
