/**
 * Webhook endpoints for the command line (the operator's side, with the listings that go with
 * it): add (the signing secret is shown once), list (never the secret), remove, send a test
 * message, and the delivery log.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database, WebhookDeliveryStatus } from '../../db/database.js';
import { toApiTimestamp } from '../../contract/timestamps.js';
import { checkEndpointUrl, generateSecret, newMessageId, testPayload } from './model.js';

/** A mistake in what was asked (unknown id, refused URL); the command line prints its message. */
export class WebhookManagementError extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function uuidArgument(value: string, what: string): string {
  if (!UUID.test(value)) throw new WebhookManagementError(`${what} must be a UUID, got "${value}"`);
  return value.toLowerCase();
}

export interface EndpointSummary {
  endpoint_id: string;
  website_id: string;
  url: string;
  created_at: string;
  /** Deliveries waiting to be sent (or retried). */
  pending: number;
  /** Deliveries given up after the retry period. */
  failed: number;
}

export interface CreatedEndpoint extends EndpointSummary {
  /** The signing secret (whsec_…): shown once by the command line. */
  secret: string;
}

interface EndpointRow {
  endpoint_id: string;
  website_id: string;
  url: string;
  created_at: string;
  pending: number;
  failed: number;
}

const toEndpoint = (row: EndpointRow): EndpointSummary => ({
  endpoint_id: row.endpoint_id,
  website_id: row.website_id,
  url: row.url,
  created_at: toApiTimestamp(row.created_at),
  pending: Number(row.pending),
  failed: Number(row.failed),
});

export async function addEndpoint(db: Kysely<Database>, options: { websiteId: string; url: string }): Promise<CreatedEndpoint> {
  const websiteId = uuidArgument(options.websiteId, 'website id');
  const checked = checkEndpointUrl(options.url);
  if (!checked.ok) throw new WebhookManagementError(checked.reason);
  const website = await db.selectFrom('websites').select('website_id').where('website_id', '=', websiteId).executeTakeFirst();
  if (!website) throw new WebhookManagementError(`unknown website ${websiteId}`);
  const secret = generateSecret();
  const row = await db
    .insertInto('webhook_endpoints')
    .values({ endpoint_id: randomUUID(), website_id: websiteId, url: checked.url, secret })
    .returning([sql<string>`endpoint_id::text`.as('endpoint_id'), sql<string>`website_id::text`.as('website_id'), 'url', 'created_at'])
    .executeTakeFirstOrThrow();
  return { ...toEndpoint({ ...row, pending: 0, failed: 0 }), secret };
}

/** Endpoints of one website, or of every website; oldest first. Never the secret. */
export async function listEndpoints(db: Kysely<Database>, options: { websiteId?: string | undefined } = {}): Promise<EndpointSummary[]> {
  const websiteId = options.websiteId === undefined ? undefined : uuidArgument(options.websiteId, 'website id');
  const result = await sql<EndpointRow>`
    select e.endpoint_id::text as endpoint_id, e.website_id::text as website_id, e.url, e.created_at,
      (select count(*) from webhook_deliveries d where d.endpoint_id = e.endpoint_id and d.status = 'pending')::int as pending,
      (select count(*) from webhook_deliveries d where d.endpoint_id = e.endpoint_id and d.status = 'failed')::int as failed
    from webhook_endpoints e
    ${websiteId === undefined ? sql`` : sql`where e.website_id = ${websiteId}`}
    order by e.website_id, e.created_at, e.endpoint_id`.execute(db);
  return result.rows.map(toEndpoint);
}

/** Removes an endpoint with its delivery log; messages not yet sent to it are dropped. */
export async function removeEndpoint(db: Kysely<Database>, endpointId: string): Promise<{ endpoint_id: string; dropped: number }> {
  const id = uuidArgument(endpointId, 'endpoint id');
  return db.transaction().execute(async (trx) => {
    const pending = await sql<{ n: number }>`
      select count(*)::int as n from webhook_deliveries where endpoint_id = ${id} and status = 'pending'`.execute(trx);
    const removed = await trx.deleteFrom('webhook_endpoints').where('endpoint_id', '=', id).executeTakeFirst();
    if (Number(removed.numDeletedRows) === 0) throw new WebhookManagementError(`unknown webhook endpoint ${id}`);
    return { endpoint_id: id, dropped: Number(pending.rows[0]?.n ?? 0) };
  });
}

/** Queues a `webhook.test` message for one endpoint; the running service sends it. */
export async function enqueueTestMessage(db: Kysely<Database>, endpointId: string): Promise<{ delivery_id: string; endpoint_id: string; url: string }> {
  const id = uuidArgument(endpointId, 'endpoint id');
  const endpoint = await db
    .selectFrom('webhook_endpoints')
    .select([sql<string>`website_id::text`.as('website_id'), 'url'])
    .where('endpoint_id', '=', id)
    .executeTakeFirst();
  if (!endpoint) throw new WebhookManagementError(`unknown webhook endpoint ${id}`);
  const deliveryId = newMessageId();
  await db
    .insertInto('webhook_deliveries')
    .values({
      delivery_id: deliveryId,
      endpoint_id: id,
      event_type: 'webhook.test',
      payload: testPayload({ endpointId: id, websiteId: endpoint.website_id }, new Date()),
    })
    .execute();
  return { delivery_id: deliveryId, endpoint_id: id, url: endpoint.url };
}

export interface DeliverySummary {
  delivery_id: string;
  endpoint_id: string;
  website_id: string;
  event_type: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** When the next attempt is due (pending only). */
  next_attempt_at: string | null;
  /** HTTP status of the last attempt; null when it got no answer (timeout, connection refused). */
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  created_at: string;
  delivered_at: string | null;
}

interface DeliveryRow extends Omit<DeliverySummary, 'next_attempt_at'> {
  next_attempt_at: string;
}

const stamp = (raw: string | null) => (raw === null ? null : toApiTimestamp(raw));

/** The delivery log, newest first: every delivery, or the failed ones, of every endpoint or one. */
export async function listDeliveries(
  db: Kysely<Database>,
  options: { failed?: boolean; endpointId?: string | undefined; limit?: number } = {},
): Promise<DeliverySummary[]> {
  const endpointId = options.endpointId === undefined ? undefined : uuidArgument(options.endpointId, 'endpoint id');
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 10_000);
  const where = [
    ...(options.failed ? [sql`d.status = 'failed'`] : []),
    ...(endpointId === undefined ? [] : [sql`d.endpoint_id = ${endpointId}`]),
  ];
  const result = await sql<DeliveryRow>`
    select d.delivery_id, d.endpoint_id::text as endpoint_id, e.website_id::text as website_id, d.event_type, d.status,
      d.attempts, d.next_attempt_at, d.last_status, d.last_error, d.last_attempt_at, d.created_at, d.delivered_at
    from webhook_deliveries d join webhook_endpoints e on e.endpoint_id = d.endpoint_id
    ${where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``}
    order by d.seq desc
    limit ${limit}`.execute(db);
  return result.rows.map((row) => ({
    delivery_id: row.delivery_id,
    endpoint_id: row.endpoint_id,
    website_id: row.website_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? stamp(row.next_attempt_at) : null,
    last_status: row.last_status,
    last_error: row.last_error,
    last_attempt_at: stamp(row.last_attempt_at),
    created_at: toApiTimestamp(row.created_at),
    delivered_at: stamp(row.delivered_at),
  }));
}
