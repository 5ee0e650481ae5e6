/**
 * What an import does to the photo sources of its offers (extension E11): the sources of an offer
 * whose URL lists it writes anew (created, made active, lists changed) are queued (a known one left
 * alone, an unavailable one pending again); of any other offer (unchanged, or changed otherwise),
 * only the unavailable sources are set pending again, and when none is unavailable, no source row
 * is written at all (not even locked).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../../helpers/db.js';
import { importObject, resetDatabase, smallBundle, type Bundle } from '../../import/helpers.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.destroy());
beforeEach(async () => {
  await resetDatabase(t.db);
  await sql`delete from photo_sources`.execute(t.db);
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

/** Each source row's version (xmin) and lock (xmax): a row the import neither wrote nor locked keeps both. */
async function rowVersions(): Promise<{ url: string; xmin: string; xmax: string }[]> {
  return (await sql<{ url: string; xmin: string; xmax: string }>`select url, xmin::text, xmax::text from photo_sources order by url`.execute(t.db)).rows;
}

const setStatus = (name: string, status: string) =>
  sql`update photo_sources set status = ${status} where url = ${`https://example.com/${name}`}`.execute(t.db);

describe('an import queues photo sources', () => {
  it('of offers it creates; of an unchanged offer only the unavailable ones are pending again, of a changed one every unavailable one', async () => {
    const bundle = bundleWithPhotos();
    await importObject(t.db, bundle);
    expect([...(await sources()).values()]).toEqual(Array(6).fill('pending'));

    await setStatus('0-a.jpg', 'ready');
    await setStatus('0-b.jpg', 'unavailable');
    await setStatus('1-a.jpg', 'unavailable');
    await setStatus('1-b.jpg', 'ready');
    // Offer 0 stays as it is, offer 1 changes.
    (bundle.offers![1]!.offer_data as Record<string, unknown>).title = 'Changed';
    const report = await importObject(t.db, bundle);
    expect(report.counts.offers).toMatchObject({ created: 0, changed: 1, unchanged: 2 });
    const after = await sources();
    expect(after.get('0-a.jpg')).toBe('ready');
    expect(after.get('0-b.jpg')).toBe('pending');
    expect(after.get('1-a.jpg')).toBe('pending');
    expect(after.get('1-b.jpg')).toBe('ready');
  });

  it('a re-import that changes nothing writes no source row when none is unavailable', async () => {
    const bundle = bundleWithPhotos();
    await importObject(t.db, bundle);
    await sql`update photo_sources set status = 'ready'`.execute(t.db);
    const before = await rowVersions();
    const report = await importObject(t.db, bundle);
    expect(report.changed).toBe(false);
    // Neither a new row version (xmin) nor a lock (xmax) by the import's transaction.
    expect(await rowVersions()).toEqual(before);
    expect([...(await sources()).values()]).toEqual(Array(6).fill('ready'));
  });

  it('of an offer whose price alone changes, looks up no source; a changed URL list, or an offer made active, is queued', async () => {
    const bundle = bundleWithPhotos();
    const data = (n: number) => bundle.offers![n]!.offer_data as Record<string, unknown>;
    bundle.offers![2]!.is_active = false;
    await importObject(t.db, bundle);
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
    const after = await sources();
    expect(after.get('1-plan.jpg')).toBe('pending');
    expect(after.get('2-a.jpg')).toBe('pending');
    expect(after.get('2-b.jpg')).toBe('pending');
    // The price-only change neither wrote nor locked any of its sources.
    const offer0 = (await rowVersions()).filter((r) => r.url.includes('/0-'));
    expect(offer0).toEqual(before.filter((r) => r.url.includes('/0-')));
    expect(after.get('0-a.jpg')).toBe('ready');
  });
});
