/**
 * What an import does to the photo sources of its offers (extension E11): an offer whose URL lists
 * it writes anew (created, made active, lists changed) is noted in photo_offers_unqueued, in the
 * import's transaction, and the photo fetcher's expansion queues its sources from the stored data
 * (a known one left alone, an unavailable one pending again); of any other offer (unchanged, or
 * changed otherwise), only the unavailable sources are set pending again, and when none is
 * unavailable, no source row is written at all (not even locked).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueuePhotoSources, expandNotedPhotoOffers } from '../../../src/features/photos/write.js';
import { photoUrlsOf, SOURCE_LIMITS } from '../../../src/features/photos/model.js';
import { EXPANSION_CHUNK, PhotoFetcher } from '../../../src/features/photos/photo-fetcher.js';
import { ImageStore } from '../../../src/features/photos/image-store.js';
import { RenderGate } from '../../../src/features/photos/render-gate.js';
import { createTestDb, onPostgres, type TestDb } from '../../helpers/db.js';
import { importObject, resetDatabase, smallBundle, type Bundle } from '../../import/helpers.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.destroy());
beforeEach(async () => {
  await resetDatabase(t.db);
  await sql`delete from photo_sources`.execute(t.db);
  await sql`delete from photo_offers_unqueued`.execute(t.db);
});

/** Two photos per offer, distinct across offers. */
function bundleWithPhotos(): Bundle {
  const { bundle } = smallBundle();
  bundle.offers!.forEach((offer, n) => {
    (offer.offer_data as Record<string, unknown>).photos_urls = [`https://example.com/${n}-a.jpg`, `https://example.com/${n}-b.jpg`];
  });
  return bundle;
}

async function sources(): Promise<Map<string, string>> {
  const rows = await sql<{ url: string; status: string }>`select url, status from photo_sources`.execute(t.db);
  return new Map(rows.rows.map((r) => [r.url.replace('https://example.com/', ''), r.status]));
}

/** Every source row as the fetcher and the API see it (not its times). */
async function sourceRows(): Promise<{ source_id: string; url: string; status: string; reason: string | null; attempts: number; locked: boolean }[]> {
  const rows = await sql<{ source_id: string; url: string; status: string; reason: string | null; attempts: number; locked: boolean }>`
    select source_id, url, status, reason, attempts, locked_until is not null as locked from photo_sources order by source_id`.execute(t.db);
  return rows.rows;
}

/** The offers noted, in the order noted. */
async function notes(): Promise<string[]> {
  return (await sql<{ offer_id: string }>`select offer_id::text from photo_offers_unqueued order by note_id`.execute(t.db)).rows.map((r) => r.offer_id);
}

/** The fetcher's step: expands every note, a chunk at a time. */
async function expandAll(chunk = 500): Promise<number> {
  let offers = 0;
  for (;;) {
    const done = await expandNotedPhotoOffers(t.db, chunk);
    offers += done.offers;
    if (done.notes < chunk) return offers;
  }
}

/** Each source row's version (xmin) and lock (xmax): a row the import neither wrote nor locked keeps both. */
async function rowVersions(): Promise<{ url: string; xmin: string; xmax: string }[]> {
  return (await sql<{ url: string; xmin: string; xmax: string }>`select url, xmin::text, xmax::text from photo_sources order by url`.execute(t.db)).rows;
}

const setStatus = (name: string, status: string) =>
  sql`update photo_sources set status = ${status}, reason = ${status === 'unavailable' ? 'gone' : null} where url = ${`https://example.com/${name}`}`.execute(t.db);

const offerIds = (bundle: Bundle) => bundle.offers!.map((o) => o.offer_id as string);

describe('an import notes the offers whose photo lists are new; the fetcher queues their sources', () => {
  it('notes, in the import, and no source; the expansion writes the rows the import used to queue', async () => {
    const bundle = bundleWithPhotos();
    const data = (n: number) => bundle.offers![n]!.offer_data as Record<string, unknown>;
    // Floor plans, a URL shared by two offers (and by a photo and a plan), a non-ASCII URL, an inactive offer.
    data(0).floor_plan_urls = ['https://example.com/plan-ż.png', 'https://example.com/shared.jpg'];
    data(1).photos_urls = ['https://example.com/shared.jpg', 'https://example.com/1-b.jpg', 'https://example.com/1-b.jpg'];
    bundle.offers![2]!.is_active = false;
    await importObject(t.db, bundle);
    expect(await sourceRows()).toEqual([]);
    expect((await notes()).sort()).toEqual(offerIds(bundle).slice(0, 2).sort());

    expect(await expandAll()).toBe(2);
    expect(await notes()).toEqual([]);
    const expanded = await sourceRows();
    expect(expanded.map((r) => r.url.replace('https://example.com/', '')).sort()).toEqual(['0-a.jpg', '0-b.jpg', '1-b.jpg', 'plan-ż.png', 'shared.jpg']);

    // What the import wrote before (enqueuePhotoSources of the active offers' URLs): the same rows.
    await sql`delete from photo_sources`.execute(t.db);
    await enqueuePhotoSources(t.db, bundle.offers!.filter((o) => o.is_active !== false).flatMap((o) => photoUrlsOf(o.offer_data as Record<string, unknown>).map((p) => p.url)));
    expect(await sourceRows()).toEqual(expanded);
  });

  it('of offers it creates; of an unchanged offer only the unavailable ones are pending again, of a changed one every unavailable one', async () => {
    const bundle = bundleWithPhotos();
    await importObject(t.db, bundle);
    await expandAll();
    expect([...(await sources()).values()]).toEqual(Array(6).fill('pending'));

    await setStatus('0-a.jpg', 'ready');
    await setStatus('0-b.jpg', 'unavailable');
    await setStatus('1-a.jpg', 'unavailable');
    await setStatus('1-b.jpg', 'ready');
    // Offer 0 stays as it is, offer 1 changes.
    (bundle.offers![1]!.offer_data as Record<string, unknown>).title = 'Changed';
    const report = await importObject(t.db, bundle);
    expect(report.counts.offers).toMatchObject({ created: 0, changed: 1, unchanged: 2 });
    // Neither offer's lists are new: nothing noted, and the import retried the unavailable ones itself.
    expect(await notes()).toEqual([]);
    const after = await sources();
    expect(after.get('0-a.jpg')).toBe('ready');
    expect(after.get('0-b.jpg')).toBe('pending');
    expect(after.get('1-a.jpg')).toBe('pending');
    expect(after.get('1-b.jpg')).toBe('ready');
  });

  it('a noted offer\'s unavailable source is pending again after the expansion (as enqueuePhotoSources did), a ready one left alone', async () => {
    const bundle = bundleWithPhotos();
    await importObject(t.db, bundle);
    await expandAll();
    await setStatus('1-a.jpg', 'unavailable');
    await setStatus('1-b.jpg', 'ready');
    await sql`update photo_sources set attempts = 3 where url like '%/1-%'`.execute(t.db);
    // Offer 1 gets one more photo: its lists are new, so it is noted.
    (bundle.offers![1]!.offer_data as Record<string, unknown>).photos_urls = ['https://example.com/1-a.jpg', 'https://example.com/1-b.jpg', 'https://example.com/1-c.jpg'];
    await importObject(t.db, bundle);
    expect(await notes()).toEqual([bundle.offers![1]!.offer_id]);
    expect((await sources()).get('1-a.jpg')).toBe('unavailable');
    expect((await sources()).has('1-c.jpg')).toBe(false);
    await expandAll();
    const rows = new Map((await sourceRows()).map((r) => [r.url.replace('https://example.com/', ''), r]));
    expect(rows.get('1-a.jpg')).toMatchObject({ status: 'pending', reason: null, attempts: 3, locked: false });
    expect(rows.get('1-b.jpg')).toMatchObject({ status: 'ready', attempts: 3 });
    expect(rows.get('1-c.jpg')).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('expands what is stored at expansion time: a gone or inactive offer queues nothing', async () => {
    const bundle = bundleWithPhotos();
    await importObject(t.db, bundle);
    const [a, b] = offerIds(bundle);
    await sql`update offers set is_active = false where offer_id = ${a}`.execute(t.db);
    await sql`delete from offers where offer_id = ${b}`.execute(t.db);
    expect(await expandAll()).toBe(3);
    expect([...(await sources()).keys()].sort()).toEqual(['2-a.jpg', '2-b.jpg']);
    expect(await notes()).toEqual([]);
  });

  it('a re-import that changes nothing writes no note and no source row when none is unavailable', async () => {
    const bundle = bundleWithPhotos();
    await importObject(t.db, bundle);
    await expandAll();
    await sql`update photo_sources set status = 'ready'`.execute(t.db);
    const before = await rowVersions();
    const report = await importObject(t.db, bundle);
    expect(report.changed).toBe(false);
    expect(await notes()).toEqual([]);
    // Neither a new row version (xmin) nor a lock (xmax) by the import's transaction.
    expect(await rowVersions()).toEqual(before);
    expect([...(await sources()).values()]).toEqual(Array(6).fill('ready'));
  });

  it('of an offer whose price alone changes, notes nothing and looks up no source; a changed URL list, or an offer made active, is noted', async () => {
    const bundle = bundleWithPhotos();
    const data = (n: number) => bundle.offers![n]!.offer_data as Record<string, unknown>;
    bundle.offers![2]!.is_active = false;
    await importObject(t.db, bundle);
    await expandAll();
    // Offer 2 was inactive: its sources were not queued.
    expect([...(await sources()).keys()].sort()).toEqual(['0-a.jpg', '0-b.jpg', '1-a.jpg', '1-b.jpg']);
    await sql`update photo_sources set status = 'ready'`.execute(t.db);
    const before = await rowVersions();

    // Offer 0: price only; offer 1: one more floor plan; offer 2: made active with the same photos.
    data(0).price = Number(data(0).price) + 1000;
    data(1).floor_plan_urls = ['https://example.com/1-plan.jpg'];
    bundle.offers![2]!.is_active = true;
    const report = await importObject(t.db, bundle);
    expect(report.counts.offers).toMatchObject({ created: 0, changed: 3, unchanged: 0 });
    expect((await notes()).sort()).toEqual(offerIds(bundle).slice(1).sort());
    expect(await rowVersions()).toEqual(before);
    await expandAll();
    const after = await sources();
    expect(after.get('1-plan.jpg')).toBe('pending');
    expect(after.get('2-a.jpg')).toBe('pending');
    expect(after.get('2-b.jpg')).toBe('pending');
    // The price-only change neither wrote nor locked any of its sources.
    const offer0 = (await rowVersions()).filter((r) => r.url.includes('/0-'));
    expect(offer0).toEqual(before.filter((r) => r.url.includes('/0-')));
    expect(after.get('0-a.jpg')).toBe('ready');
  });

  it('a rejected (rolled back) import leaves no note', async () => {
    const bundle = bundleWithPhotos();
    // The last offer names an agent that does not exist: the import is rejected, its transaction
    // rolled back. In batches of one, the first two offers are written, and noted, before the
    // third's agent is looked up: their notes must go with the rollback.
    bundle.offers![2]!.agent_id = '00000000-0000-4000-8000-000000000001';
    await expect(importObject(t.db, bundle, { batchSize: 1 })).rejects.toThrow();
    expect(await notes()).toEqual([]);
    expect(await sourceRows()).toEqual([]);
  });
});

describe('the expansion with several instances', () => {
  /** Imports `n` offers with photos (two each, one shared by all), noting them all. */
  async function noteMany(n: number): Promise<Bundle> {
    const { bundle } = smallBundle({ offers: Array.from({ length: n }, () => crypto.randomUUID()) });
    bundle.offers!.forEach((offer, i) => {
      (offer.offer_data as Record<string, unknown>).photos_urls = [`https://example.com/${i}-a.jpg`, 'https://example.com/shared.jpg'];
    });
    await importObject(t.db, bundle);
    expect(await notes()).toHaveLength(n);
    return bundle;
  }

  it('two expansions at once take each note once, and both finish', async () => {
    await noteMany(30);
    const run = async () => {
      const taken: number[] = [];
      for (;;) {
        const done = await expandNotedPhotoOffers(t.db, 4);
        taken.push(done.notes);
        if (done.notes === 0) return taken;
      }
    };
    const [a, b] = await Promise.all([run(), run()]);
    const sum = (xs: number[]) => xs.reduce((x, y) => x + y, 0);
    expect(sum(a) + sum(b)).toBe(30);
    expect(await notes()).toEqual([]);
    expect((await sources()).size).toBe(31);
  });

  it.skipIf(!onPostgres)('skips the notes another instance holds, and never waits for an import holding an unavailable source', async () => {
    const bundle = await noteMany(6);
    const ids = offerIds(bundle);
    await sql`insert into photo_sources (source_id, url, status, reason)
      values (encode(sha256(convert_to('https://example.com/shared.jpg', 'UTF8')), 'hex'), 'https://example.com/shared.jpg', 'unavailable', 'gone')`.execute(t.db);
    await t.db.transaction().execute(async (other) => {
      // Another instance holds the notes of offer 0; an import has set the shared source pending (not committed yet).
      await sql`select note_id from photo_offers_unqueued where offer_id = ${ids[0]} for update`.execute(other);
      await sql`update photo_sources set status = 'pending', reason = null where url = 'https://example.com/shared.jpg'`.execute(other);
      const done = await expandNotedPhotoOffers(t.db, 500);
      expect([done.notes, done.offers]).toEqual([5, 5]);
      expect(await notes()).toEqual([ids[0]]);
    });
    expect(await expandAll()).toBe(1);
    const after = await sources();
    expect(after.size).toBe(7);
    expect([...after.values()]).toEqual(Array(7).fill('pending'));
  });

  it('a running fetcher expands a backlog of several chunks, pass after pass, then fetches', async () => {
    const bundle = await noteMany(2);
    // More than two chunks of notes before the real ones (offers gone since: nothing to queue).
    await sql`insert into photo_offers_unqueued (offer_id) select gen_random_uuid() from generate_series(1, ${2 * EXPANSION_CHUNK + 10})`.execute(t.db);
    await sql`insert into photo_offers_unqueued (offer_id) select unnest(${offerIds(bundle)}::uuid[])`.execute(t.db);
    const log = { info: () => {}, warn: () => {} };
    // No IMAGE_SOURCES: each source is recorded unavailable (refused), which shows it was claimed.
    const fetcher = new PhotoFetcher({ db: t.db, log, allowed: [], limits: SOURCE_LIMITS, store: new ImageStore('/nonexistent'), gate: new RenderGate(1), concurrency: 2, pollMs: 60_000 });
    fetcher.start();
    // Until the database shows it all done: the offers are noted twice (by the import, then behind
    // the backlog), and the second expansion sets their sources, unavailable by then, pending
    // again, so the fetch count alone could be reached while a source still waits or is fetched.
    const pendingLeft = async () => [...(await sources()).values()].includes('pending');
    try {
      for (let i = 0; i < 600 && (fetcher.finished < 3 || (await notes()).length > 0 || (await pendingLeft())); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await fetcher.stop();
    }
    expect(await notes()).toEqual([]);
    expect(fetcher.expanded).toBe(2 * EXPANSION_CHUNK + 10 + 2 * 2);
    expect([...(await sources()).values()]).toEqual(Array(3).fill('unavailable'));
  });
});
