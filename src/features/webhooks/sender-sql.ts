/**
 * The sender's SQL (src/features/webhooks/sender.ts): claim due deliveries, then record how each attempt
 * went. Every statement is short and runs on its own; no transaction is held while a message is
 * on the wire.
 *
 * Claiming: a delivery is due when it is pending, its next attempt time has come, nobody holds a
 * lease on it, and no earlier delivery to the same endpoint is pending (so an endpoint receives
 * its messages in order, one at a time). `FOR UPDATE SKIP LOCKED` lets several instances claim at
 * once without waiting for or taking each other's rows; the claim sets a lease (`locked_until`)
 * and counts the attempt. An instance that dies mid-send leaves the lease to expire, and the
 * delivery is sent again: at least once, never lost. The attempt count taken at the claim is the
 * claim's token: a result is recorded only if nobody has claimed the delivery since.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';

export interface ClaimedDelivery {
  delivery_id: string;
  endpoint_id: string;
  payload: string;
  /** Attempts so far, this one included (the claim's token). */
  attempts: number;
  url: string;
  secret: string;
}

/** Claims up to `limit` due deliveries for `leaseMs`. */
export async function claimDueDeliveries(db: Kysely<Database>, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const result = await sql<ClaimedDelivery>`
    update webhook_deliveries d
    set locked_until = now() + ${leaseMs} * interval '1 millisecond', attempts = d.attempts + 1, last_attempt_at = now()
    from webhook_endpoints e
    where e.endpoint_id = d.endpoint_id and d.delivery_id in (
      select c.delivery_id from webhook_deliveries c
      where c.status = 'pending' and c.next_attempt_at <= now() and (c.locked_until is null or c.locked_until <= now())
        and not exists (
          select 1 from webhook_deliveries p where p.endpoint_id = c.endpoint_id and p.status = 'pending' and p.seq < c.seq)
      order by c.next_attempt_at, c.seq
      limit ${limit}
      for update of c skip locked)
    returning d.delivery_id, d.endpoint_id::text as endpoint_id, d.payload, d.attempts, e.url, e.secret`.execute(db);
  return result.rows;
}

/** The receiver answered 2xx. */
export async function markDelivered(db: Kysely<Database>, claim: ClaimedDelivery, httpStatus: number): Promise<void> {
  await sql`
    update webhook_deliveries
    set status = 'delivered', delivered_at = now(), locked_until = null, last_status = ${httpStatus}, last_error = null
    where delivery_id = ${claim.delivery_id} and attempts = ${claim.attempts} and status = 'pending'`.execute(db);
}

/**
 * The attempt failed (an answer other than 2xx, a timeout, a refused or broken connection): the
 * next attempt waits `retryInMs`, unless it would come later than `giveUpAfterMs` after the
 * delivery was written, in which case the delivery has failed for good. Returns the new status.
 */
export async function markAttemptFailed(
  db: Kysely<Database>,
  claim: ClaimedDelivery,
  outcome: { httpStatus: number | null; error: string; retryInMs: number; giveUpAfterMs: number },
): Promise<'pending' | 'failed' | undefined> {
  const result = await sql<{ status: 'pending' | 'failed' }>`
    update webhook_deliveries
    set locked_until = null, last_status = ${outcome.httpStatus}, last_error = ${outcome.error.slice(0, 500)},
      next_attempt_at = now() + ${outcome.retryInMs} * interval '1 millisecond',
      status = case
        when now() + ${outcome.retryInMs} * interval '1 millisecond' > created_at + ${outcome.giveUpAfterMs} * interval '1 millisecond'
        then 'failed' else 'pending' end
    where delivery_id = ${claim.delivery_id} and attempts = ${claim.attempts} and status = 'pending'
    returning status`.execute(db);
  return result.rows[0]?.status;
}

/** The service stopped while sending: the delivery is due again at once (the attempt stays counted). */
export async function releaseClaim(db: Kysely<Database>, claim: ClaimedDelivery, reason: string): Promise<void> {
  await sql`
    update webhook_deliveries set locked_until = null, next_attempt_at = now(), last_error = ${reason}
    where delivery_id = ${claim.delivery_id} and attempts = ${claim.attempts} and status = 'pending'`.execute(db);
}
