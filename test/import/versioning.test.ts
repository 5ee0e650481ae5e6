import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { OFFER_DATA_FIELDS } from '../../src/contract/offer-fields.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { contentVersion, dumpDatabase, importObject, offer, offerRow, problemsOf, resetDatabase, smallBundle, type Json } from './helpers.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.destroy());
beforeEach(() => resetDatabase(t.db));

const data = (o: Json) => o.offer_data as Json;

describe('all or nothing', () => {
  it('leaves the database exactly as it was when one record is bad', async () => {
    const { bundle, ids } = smallBundle();
    await importObject(t.db, bundle);
    const before = await dumpDatabase(t.db);
    // Enough offers for several batches to reach the database before the bad record is read.
    const many = Array.from({ length: 1200 }, (_, n) => offer(randomUUID(), ids.org, n, { agent_id: ids.agent }));
    data(many[0]!).price = 1; // a change to a stored offer, written in the first batch
    const bad = offer(randomUUID(), ids.org, 9999);
    data(bad).price = 'free';
    const problems = await problemsOf(importObject(t.db, { ...bundle, offers: [...bundle.offers!, ...many, bad] }, { batchSize: 100 }));
    expect(problems).toEqual(['record 1209 offers[1203].offer_data.price: expected number, got string "free"']);
    expect(await dumpDatabase(t.db)).toEqual(before);
  });

  it('leaves it as it was when a problem is only found in the database at the end', async () => {
    const a = smallBundle();
    await importObject(t.db, a.bundle);
    const b = smallBundle();
    await importObject(t.db, b.bundle);
    const before = await dumpDatabase(t.db);
    const offers = Array.from({ length: 700 }, (_, n) => offer(randomUUID(), a.ids.org, n));
    offers.push(offer(b.ids.offers[0]!, a.ids.org, 700)); // B's offer, in the last batch
    const problems = await problemsOf(importObject(t.db, { offers }, { batchSize: 200, prune: true }));
    expect(problems).toEqual([`record 701 offers[700].offer_id: offer ${b.ids.offers[0]} belongs to another organization`]);
    expect(await dumpDatabase(t.db)).toEqual(before);
  });
});

describe('versions', () => {
  it('starts offers at version 1 and counts created records', async () => {
    const { bundle, ids } = smallBundle();
    const report = await importObject(t.db, bundle);
    expect(report.counts).toEqual({
      organizations: { created: 1, changed: 0, unchanged: 0 },
      websites: { created: 1, changed: 0, unchanged: 0 },
      api_keys: { created: 0, changed: 0, unchanged: 0 },
      branches: { created: 1, changed: 0, unchanged: 0 },
      agents: { created: 1, changed: 0, unchanged: 0 },
      investments: { created: 1, changed: 0, unchanged: 0 },
      offers: { created: 3, changed: 0, unchanged: 0 },
    });
    expect(report.changed).toBe(true);
    expect(report.contentVersion).toBe('2');
    const row = await offerRow(t.db, ids.offers[0]!);
    expect(row.version).toBe(1);
    expect(row.created_at).toBe(row.updated_at);
    expect(row.is_active).toBe(true);
  });

  it('an identical import changes nothing, not even updated_at or the content version', async () => {
    const { bundle } = smallBundle();
    await importObject(t.db, bundle);
    const before = await dumpDatabase(t.db);
    const report = await importObject(t.db, structuredClone(bundle));
    expect(report.changed).toBe(false);
    for (const counts of Object.values(report.counts)) expect(counts.created + counts.changed).toBe(0);
    expect(report.counts.offers.unchanged).toBe(3);
    expect(await dumpDatabase(t.db)).toEqual(before);
  });

  it('the same content written differently is identical (absent = null, ids in any case, partial objects)', async () => {
    const { bundle, ids } = smallBundle();
    await importObject(t.db, bundle);
    const before = await dumpDatabase(t.db);
    const again = structuredClone(bundle);
    const o = again.offers![0]!;
    o.offer_id = (o.offer_id as string).toUpperCase();
    data(o).rooms = 2;
    data(o).heating = null;
    data(o).date_posted = '2025-01-31T09:15:00Z'; // the same instant as +01:00 10:15
    again.organizations![0]!.location = { address_city: 'Warszawa', address_street: null };
    again.agents![0]!.email = null;
    expect((await importObject(t.db, again)).changed).toBe(false);
    expect(await dumpDatabase(t.db)).toEqual(before);
    expect(ids.offers[0]).toBe(String(o.offer_id).toLowerCase());
  });

  it('each change adds exactly 1 to version and sets updated_at; created_at stays', async () => {
    const { bundle, ids } = smallBundle();
    await importObject(t.db, bundle);
    const first = await offerRow(t.db, ids.offers[0]!);
    const changes: Array<(o: Json) => void> = [
      (o) => (data(o).price = 123),
      (o) => (o.external_id = 'NEW-EXT'),
      (o) => (o.agent_id = null),
      (o) => (o.investment_id = null),
      (o) => (o.is_active = false),
      (o) => (o.is_active = true),
      (o) => (data(o).photos_urls = []),
    ];
    let expected = 1;
    let previousUpdatedAt = first.updated_at;
    let previousVersion = await contentVersion(t.db);
    for (const change of changes) {
      change(bundle.offers![0]!);
      await new Promise((resolve) => setTimeout(resolve, 5)); // let the clock move on
      const report = await importObject(t.db, bundle);
      expected += 1;
      expect(report.counts.offers).toEqual({ created: 0, changed: 1, unchanged: 2 });
      const row = await offerRow(t.db, ids.offers[0]!);
      expect(row.version).toBe(expected);
      expect(row.updated_at).not.toBe(previousUpdatedAt);
      expect(row.created_at).toBe(first.created_at);
      expect(Number(await contentVersion(t.db))).toBe(Number(previousVersion) + 1);
      previousUpdatedAt = row.updated_at;
      previousVersion = await contentVersion(t.db);
      const other = await offerRow(t.db, ids.offers[1]!);
      expect(other.version).toBe(1);
    }
  });

  it('stores created_at when the record gives one, and replaces it only from a record', async () => {
    const { bundle, ids } = smallBundle();
    bundle.offers![0]!.created_at = '2024-05-01T12:00:00.123456+02:00';
    await importObject(t.db, bundle);
    expect((await offerRow(t.db, ids.offers[0]!)).created_at).toBe('2024-05-01 10:00:00.123456+00');
    delete bundle.offers![0]!.created_at;
    expect((await importObject(t.db, bundle)).changed).toBe(false);
    expect((await offerRow(t.db, ids.offers[0]!)).created_at).toBe('2024-05-01 10:00:00.123456+00');
    bundle.offers![0]!.created_at = '2024-06-01T00:00:00Z';
    expect((await importObject(t.db, bundle)).counts.offers.changed).toBe(1);
    const row = await offerRow(t.db, ids.offers[0]!);
    expect(row.created_at).toBe('2024-06-01 00:00:00+00');
    expect(row.version).toBe(2);
  });

  it('stores offer_data normalized: every field, contract date forms, derived clean text, ids', async () => {
    const { bundle, ids } = smallBundle();
    await importObject(t.db, bundle);
    const row = await offerRow(t.db, ids.offers[0]!);
    const stored = JSON.parse(row.offer_data_json) as Json;
    expect(Object.keys(stored)).toEqual(OFFER_DATA_FIELDS.map((f) => f.name));
    expect(stored.id).toBe(ids.offers[0]);
    expect(stored.external_id).toBe('EXT-0');
    expect(stored.date_posted).toBe('2025-01-31T09:15:00+00:00');
    expect(stored.available_from_date).toBe('2025-03-01T00:00:00.000Z');
    expect(stored.description_clean_text).toBe('Offer 0 & more');
    expect(stored.heating).toBeNull();
    expect(row.offer_data).toEqual(stored);
    expect(row.price).toBe(500000);
  });

  it('updates other entities only when they change', async () => {
    const { bundle, ids } = smallBundle();
    await importObject(t.db, bundle);
    const agentBefore = await t.db.selectFrom('agents').selectAll().where('agent_id', '=', ids.agent).executeTakeFirstOrThrow();
    bundle.agents![0]!.job_title = 'Doradca';
    await new Promise((resolve) => setTimeout(resolve, 5));
    const report = await importObject(t.db, bundle);
    expect(report.counts.agents).toEqual({ created: 0, changed: 1, unchanged: 0 });
    expect(report.counts.branches).toEqual({ created: 0, changed: 0, unchanged: 1 });
    const agentAfter = await t.db.selectFrom('agents').selectAll().where('agent_id', '=', ids.agent).executeTakeFirstOrThrow();
    expect(agentAfter.job_title).toBe('Doradca');
    expect(agentAfter.updated_at).not.toBe(agentBefore.updated_at);
    expect(agentAfter.created_at).toBe(agentBefore.created_at);
  });
});

describe('--prune', () => {
  it('makes active offers of the bundle\'s organizations that it lacks inactive', async () => {
    const a = smallBundle();
    const b = smallBundle();
    await importObject(t.db, a.bundle);
    await importObject(t.db, b.bundle);
    // A already had one inactive offer; it must not count or change again.
    a.bundle.offers![2]!.is_active = false;
    await importObject(t.db, a.bundle);
    const inactiveBefore = await offerRow(t.db, a.ids.offers[2]!);

    const feed = { organizations: a.bundle.organizations, offers: [a.bundle.offers![0]!] };
    const report = await importObject(t.db, feed, { prune: true });
    expect(report.pruned).toBe(1);
    expect(report.counts.offers).toEqual({ created: 0, changed: 0, unchanged: 1 });
    const pruned = await offerRow(t.db, a.ids.offers[1]!);
    expect(pruned.is_active).toBe(false);
    expect(pruned.version).toBe(2);
    expect(await offerRow(t.db, a.ids.offers[2]!)).toEqual(inactiveBefore);
    expect((await offerRow(t.db, a.ids.offers[0]!)).is_active).toBe(true);
    // Another organization's offers are not touched.
    const others = await sql<{ n: number }>`select count(*)::int as n from offers where organization_id = ${b.ids.org} and is_active and version = 1`.execute(t.db);
    expect(others.rows[0]!.n).toBe(3);
    // Without --prune nothing is deactivated.
    expect((await importObject(t.db, { offers: [a.bundle.offers![0]!] })).pruned).toBe(0);
  });

  it('counts as a change for the content version, and prunes nothing twice', async () => {
    const { bundle } = smallBundle();
    await importObject(t.db, bundle);
    const version = Number(await contentVersion(t.db));
    const feed = { offers: bundle.offers!.slice(0, 1) };
    expect((await importObject(t.db, feed, { prune: true })).pruned).toBe(2);
    expect(Number(await contentVersion(t.db))).toBe(version + 1);
    const again = await importObject(t.db, feed, { prune: true });
    expect(again.pruned).toBe(0);
    expect(again.changed).toBe(false);
    expect(Number(await contentVersion(t.db))).toBe(version + 1);
  });
});
