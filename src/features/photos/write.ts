/**
 * Photo writes: the import queues the sources of the offers whose photo URL lists it writes anew
 * (new offers, offers made active, changed lists; in its transaction, so only a committed import's
 * photos are fetched), and a read that meets a source never queued (an offer stored some other
 * way) queues it too. A known source is left alone unless it was `unavailable`: then it is pending
 * again, so each import retries what failed, the sources of the offers whose lists it leaves as
 * they were (unchanged offers, price-only changes) included.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { sourceIdOf } from './model.js';

/** What retrying an unavailable source sets: due at once, no reason, no lease. */
const PENDING_AGAIN = sql`status = 'pending', reason = null, next_attempt_at = now(), locked_until = null`;

/** Queues these source URLs (duplicates and known ones cost nothing more). Returns how many became pending. */
export async function enqueuePhotoSources(db: Kysely<Database>, urls: Iterable<string>): Promise<number> {
  const unique = [...new Set(urls)];
  if (unique.length === 0) return 0;
  const ids = unique.map(sourceIdOf);
  const result = await sql`
    insert into photo_sources (source_id, url)
    select * from unnest(${ids}::text[], ${unique}::text[])
    on conflict (source_id) do update set ${PENDING_AGAIN}
      where photo_sources.status = 'unavailable'`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Sets pending again those of these sources that are unavailable (the sources of offers an import
 * leaves unchanged: queued when the offer was written, so only a failed one has anything to do).
 * One lookup per URL in the small index of unavailable sources. Returns how many became pending.
 */
export async function retryUnavailableSources(db: Kysely<Database>, urls: Iterable<string>): Promise<number> {
  const ids = [...new Set(urls)].map(sourceIdOf);
  if (ids.length === 0) return 0;
  const result = await sql`
    update photo_sources set ${PENDING_AGAIN}
    where status = 'unavailable' and source_id = any(${ids}::text[])`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Whether any source is unavailable now (through the small index of those): when none is, an
 * import has nothing to retry among the sources of its unchanged offers, and skips looking.
 */
export async function anyUnavailableSources(db: Kysely<Database>): Promise<boolean> {
  const result = await sql<{ any: boolean }>`select exists (select 1 from photo_sources where status = 'unavailable') as any`.execute(db);
  return result.rows[0]!.any;
}
