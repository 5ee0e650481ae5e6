/**
 * The fetcher's SQL (photo-fetcher.ts): claim due sources, then record how each fetch went. As the
 * webhook sender's: short statements, no transaction held while a source is on the wire;
 * `FOR UPDATE SKIP LOCKED` lets instances claim at once without taking each other's rows, and the
 * claim's lease (`locked_until`) hands a source whose fetcher died to another one once it ends.
 * The attempt count taken at the claim is its token: a result is recorded only if nobody claimed
 * the source since.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';

export interface ClaimedSource {
  source_id: string;
  url: string;
  attempts: number;
}

export async function claimDueSources(db: Kysely<Database>, limit: number, leaseMs: number): Promise<ClaimedSource[]> {
  if (limit <= 0) return [];
  const result = await sql<ClaimedSource>`
    update photo_sources s
    set locked_until = now() + ${leaseMs} * interval '1 millisecond', attempts = s.attempts + 1
    where s.source_id in (
      select c.source_id from photo_sources c
      where c.status = 'pending' and c.next_attempt_at <= now() and (c.locked_until is null or c.locked_until <= now())
      order by c.next_attempt_at, c.source_id
      limit ${limit}
      for update of c skip locked)
    returning s.source_id, s.url, s.attempts`.execute(db);
  return result.rows;
}

export async function markSourceReady(
  db: Kysely<Database>,
  claim: ClaimedSource,
  found: { contentHash: string; width: number; height: number; placeholder: string },
): Promise<void> {
  await sql`
    update photo_sources
    set status = 'ready', reason = null, content_hash = ${found.contentHash}, width = ${found.width}, height = ${found.height},
      placeholder = ${found.placeholder}, locked_until = null, fetched_at = now()
    where source_id = ${claim.source_id} and attempts = ${claim.attempts} and status = 'pending'`.execute(db);
}

export async function markSourceUnavailable(db: Kysely<Database>, claim: ClaimedSource, reason: string): Promise<void> {
  await sql`
    update photo_sources
    set status = 'unavailable', reason = ${reason.slice(0, 500)}, content_hash = null, width = null, height = null,
      placeholder = null, locked_until = null, fetched_at = now()
    where source_id = ${claim.source_id} and attempts = ${claim.attempts} and status = 'pending'`.execute(db);
}

/** The service stopped while fetching: the source is due again at once. */
export async function releaseSourceClaim(db: Kysely<Database>, claim: ClaimedSource): Promise<void> {
  await sql`
    update photo_sources set locked_until = null, next_attempt_at = now()
    where source_id = ${claim.source_id} and attempts = ${claim.attempts} and status = 'pending'`.execute(db);
}

/** A ready source's bytes changed (seen when it was fetched again for a missing file): fetch it anew, which gives new URLs. */
export async function requeueSource(db: Kysely<Database>, sourceId: string): Promise<void> {
  await sql`
    update photo_sources set status = 'pending', next_attempt_at = now(), locked_until = null
    where source_id = ${sourceId} and status = 'ready'`.execute(db);
}
