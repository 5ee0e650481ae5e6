/**
 * Photo writes: the import queues the sources of the offers it writes (in its transaction, so
 * only a committed import's photos are fetched), and a read that meets a source never queued
 * (an offer stored some other way) queues it too. A known source is left alone unless it was
 * `unavailable`: then it is pending again, so each import retries what failed.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { sourceIdOf } from './model.js';

/** Queues these source URLs (duplicates and known ones cost nothing more). Returns how many became pending. */
export async function enqueuePhotoSources(db: Kysely<Database>, urls: Iterable<string>): Promise<number> {
  const unique = [...new Set(urls)];
  if (unique.length === 0) return 0;
  const ids = unique.map(sourceIdOf);
  const result = await sql`
    insert into photo_sources (source_id, url)
    select * from unnest(${ids}::text[], ${unique}::text[])
    on conflict (source_id) do update
      set status = 'pending', reason = null, next_attempt_at = now(), locked_until = null
      where photo_sources.status = 'unavailable'`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
