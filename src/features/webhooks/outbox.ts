/**
 * The webhook outbox: messages are written in the import's own transaction, so a website is told
 * about exactly the changes that committed (none for a rolled-back import, none lost to a crash
 * between the commit and the sending). The running service sends them (sender.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { WebsiteChangeSummary } from '../change-feed/index.js';
import { contentChangedPayload, hasChanges, newMessageId } from './model.js';

/**
 * Writes one `content.changed` message for every endpoint of every website whose summary reports
 * a change. Call it with the import's transaction. Returns how many messages it wrote. Costs one
 * query when no website of the summaries has an endpoint.
 */
export async function enqueueContentChanged(trx: Kysely<Database>, summaries: readonly WebsiteChangeSummary[]): Promise<number> {
  const changed = summaries.filter(hasChanges);
  if (changed.length === 0) return 0;
  const endpoints = await trx
    .selectFrom('webhook_endpoints')
    .select(['endpoint_id', 'website_id'])
    .where('website_id', 'in', [...new Set(changed.map((s) => s.websiteId))])
    .orderBy('created_at')
    .orderBy('endpoint_id')
    .execute();
  if (endpoints.length === 0) return 0;
  const timestamp = new Date();
  const rows = changed.flatMap((summary) => {
    const payload = contentChangedPayload(summary, timestamp);
    return endpoints
      .filter((e) => e.website_id === summary.websiteId)
      .map((e) => ({ delivery_id: newMessageId(), endpoint_id: e.endpoint_id, event_type: 'content.changed', payload }));
  });
  // Inserted in one statement, in order: seq (the per-endpoint order) follows the summaries.
  await trx.insertInto('webhook_deliveries').values(rows).execute();
  return rows.length;
}
