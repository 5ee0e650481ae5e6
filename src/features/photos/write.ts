/**
 * Photo writes. An import notes the offers whose photo URL lists it writes anew (new offers,
 * offers made active, changed lists) in photo_offers_unqueued, in its transaction (so only a
 * committed import's notes exist); the photo fetcher of a running instance expands the notes into
 * photo_sources before it claims due sources (expandNotedPhotoOffers, from each offer's data as
 * stored then), so the import neither hashes nor inserts 200,000 sources for a new catalogue. A
 * read that meets a source never queued (a noted offer not yet expanded, an offer stored some
 * other way) queues it too. A known source is left alone unless it was `unavailable`: then it is
 * pending again, so each import retries what failed, the sources of the offers whose lists it
 * leaves as they were (unchanged offers, price-only changes) included.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { sourceIdOf } from './model.js';

/** What retrying an unavailable source sets: due at once, no reason, no lease. */
const PENDING_AGAIN = sql`status = 'pending', reason = null, next_attempt_at = now(), locked_until = null`;

/**
 * Queues these source URLs (duplicates and known ones cost nothing more). Returns how many became
 * pending. Inserted in the order of their ids, as the fetcher's expansion inserts its own, so two
 * writers of the same new sources wait for each other in one order, never in a cycle.
 */
export async function enqueuePhotoSources(db: Kysely<Database>, urls: Iterable<string>): Promise<number> {
  const unique = [...new Set(urls)];
  if (unique.length === 0) return 0;
  const ids = unique.map(sourceIdOf);
  const result = await sql`
    insert into photo_sources (source_id, url)
    select * from unnest(${ids}::text[], ${unique}::text[]) as u (source_id, url) order by u.source_id collate "C"
    on conflict (source_id) do update set ${PENDING_AGAIN}
      where photo_sources.status = 'unavailable'`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Notes offers whose photo sources are to be queued by the fetcher (the offers an import writes
 * with URL lists new to the store). Plain inserts: no unique check, so the import never waits for
 * a fetcher expanding an earlier note of the same offer (migration 2026_11_30_0120).
 */
export async function notePhotoOffers(db: Kysely<Database>, offerIds: readonly string[]): Promise<void> {
  if (offerIds.length === 0) return;
  await sql`insert into photo_offers_unqueued (offer_id) select unnest(${offerIds}::uuid[])`.execute(db);
}

/**
 * The sources (id and URL) of these offers as stored now, a URL as often as the offers name it:
 * the strings of their photos_urls and floor_plan_urls (photoUrlsOf's), of the active ones only
 * (an inactive offer's photos are never shown; making it active notes it again). The id is
 * sourceIdOf's (the hex SHA-256 of the URL's UTF-8), computed by the database as migration
 * 2026_11_27_0030 does. jsonb_to_record takes both lists out of the offer's data at once, so the
 * stored offer (about 6.5 KB, out of line) is read and decompressed once, not once per `->`; it
 * needs an object, which offer_data always is (the import's schema requires one, and only the
 * import writes offers).
 */
function sourcesOfOffers(offerIds: readonly string[]) {
  return sql`
    select encode(sha256(convert_to(u.url, 'UTF8')), 'hex') as source_id, u.url
    from offers o
    cross join lateral jsonb_to_record(o.offer_data) as d (photos_urls jsonb, floor_plan_urls jsonb)
    cross join lateral (
      select e #>> '{}' from jsonb_array_elements(case when jsonb_typeof(d.photos_urls) = 'array' then d.photos_urls else '[]'::jsonb end) as p (e)
      where jsonb_typeof(e) = 'string'
      union all
      select e #>> '{}' from jsonb_array_elements(case when jsonb_typeof(d.floor_plan_urls) = 'array' then d.floor_plan_urls else '[]'::jsonb end) as f (e)
      where jsonb_typeof(e) = 'string'
    ) as u (url)
    where o.offer_id = any(${offerIds}::uuid[]) and o.is_active`;
}

/** What one expansion did: notes taken (and deleted), offers among them, sources that became pending. */
export interface Expansion {
  notes: number;
  offers: number;
  queued: number;
}

/**
 * Expands up to `limit` noted offers into photo sources, in one transaction: takes the oldest
 * notes no other instance holds (`FOR UPDATE SKIP LOCKED`) and deletes them, inserts their offers'
 * sources (as enqueuePhotoSources would: a known one left alone, an unavailable one pending
 * again), and commits; a failure leaves the notes for the next pass.
 *
 * It never waits for an import's transaction (which may hold, for its whole run, the unavailable
 * sources of its unchanged offers it set pending again): a source known to its snapshot is not
 * inserted (a look-up per URL, not an anti-join the planner could make a scan of the table), and
 * an unavailable one is set pending only if no one holds it (`SKIP LOCKED`: whoever does is
 * setting it pending, or fetching it). New sources are inserted in the order of their ids, so two
 * expansions (or a read queueing an offer's sources) sharing a new source wait in one order.
 * The offers' data is read once: the statement that inserts the new sources returns the known
 * unavailable ones (usually none) for the update behind it.
 */
export async function expandNotedPhotoOffers(db: Kysely<Database>, limit: number): Promise<Expansion> {
  // Each pass of every fetcher asks: one statement, no transaction, when nothing is noted.
  const any = await sql<{ any: boolean }>`select exists (select 1 from photo_offers_unqueued) as any`.execute(db);
  if (!any.rows[0]!.any) return { notes: 0, offers: 0, queued: 0 };
  return db.transaction().execute(async (trx) => {
    const notes = await sql<{ offer_id: string }>`
      delete from photo_offers_unqueued where note_id in (
        select note_id from photo_offers_unqueued order by note_id limit ${limit} for update skip locked)
      returning offer_id`.execute(trx);
    if (notes.rows.length === 0) return { notes: 0, offers: 0, queued: 0 };
    const offers = [...new Set(notes.rows.map((r) => r.offer_id))];
    // A URL named twice passes the look-up twice (one snapshot); the second insert finds the first.
    const known = await sql<{ source_id: string | null; inserted: number }>`
      with wanted as materialized (${sourcesOfOffers(offers)}),
      fresh as (
        insert into photo_sources (source_id, url)
        select w.source_id, w.url from wanted w
        where (select true from photo_sources s where s.source_id = w.source_id limit 1) is null
        order by w.source_id collate "C"
        on conflict (source_id) do nothing
        returning 1)
      select s.source_id, 0 as inserted from wanted w join photo_sources s on s.source_id = w.source_id where s.status = 'unavailable'
      union all
      select null, (select count(*)::int from fresh)`.execute(trx);
    const inserted = known.rows.reduce((n, r) => n + Number(r.inserted), 0);
    const unavailable = known.rows.flatMap((r) => (r.source_id === null ? [] : [r.source_id]));
    let retried = 0;
    if (unavailable.length > 0) {
      const result = await sql`
        update photo_sources set ${PENDING_AGAIN}
        where source_id in (
          select source_id from photo_sources
          where status = 'unavailable' and source_id = any(${unavailable}::text[])
          for update skip locked)`.execute(trx);
      retried = Number(result.numAffectedRows ?? 0);
    }
    return { notes: notes.rows.length, offers: offers.length, queued: inserted + retried };
  });
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
