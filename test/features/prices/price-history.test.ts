/**
 * The price history (extension E10): what the import appends (first write, changes of price,
 * price per meter, currency or ancillary prices; nothing for identical prices), the problems of
 * prices_valid_from, the offer's version and change-feed upsert on a price change, and
 * GET /api/v1/offers/{offer_id}/price-history with the key, tenancy, scope and 404 of GET offer.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, get, type TestApp } from '../../helpers/app.js';
import { KEYS } from '../../helpers/fixtures.js';
import { importObject, problemsOf, smallBundle, type Bundle, type Ids, type Json } from '../../import/helpers.js';


interface Entry {
  valid_from: string;
  price: number | null;
  price_per_meter: number | null;
  price_currency: string | null;
  ancillary: Array<{ kind: string; label: string | null; price: number }>;
}

describe('price history', () => {
  let t: TestApp;
  let bundle: Bundle;
  let ids: Ids;
  /** Each test's organization has a website with a key of its own. */
  let KEY = '';

  const offers = () => bundle.offers as Json[];
  const data = (n: number) => offers()[n]!.offer_data as Json;
  const history = async (offerId: string, key?: string) => get(t, `/api/v1/offers/${offerId}/price-history`, { key: key ?? KEY });
  const items = async (offerId: string): Promise<Entry[]> => {
    const res = await history(offerId);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { offer_id: string; items: Entry[] };
    expect(body.offer_id).toBe(offerId);
    return body.items;
  };
  const stored = async () =>
    (await sql<{ row: string }>`select row_to_json(p)::text as row from offer_prices p
      where organization_id = ${ids.org} order by entry_no`.execute(t.db.db)).rows.map((r) => r.row);
  const offerState = async (offerId: string) =>
    (await sql<{ version: number; price_changed_at: string | null; price_change_pct: string | null }>`
      select version, price_changed_at, price_change_pct::text as price_change_pct from offers where offer_id = ${offerId}`.execute(t.db.db)).rows[0]!;

  beforeAll(async () => {
    // Imports here run beside the app, not through it: its response cache would not see them.
    t = await buildTestApp({ env: { RESPONSE_CACHE: 'off' } });
  });
  afterAll(() => t.destroy());
  beforeEach(async () => {
    ({ bundle, ids } = smallBundle());
    KEY = `ecs_ph_${randomUUID()}`;
    (bundle.websites![0] as Json).api_keys = [{ key: KEY, is_active: true }];
    await importObject(t.db.db, bundle);
  });

  it('the first write of an offer appends one entry, valid from the time of the import', async () => {
    const [first] = ids.offers;
    const entries = await items(first!);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ price: 500000, price_per_meter: 10000, price_currency: null, ancillary: [] });
    const row = (await sql<{ same: boolean }>`select bool_and(valid_from = recorded_at) as same from offer_prices
      where organization_id = ${ids.org}`.execute(t.db.db)).rows[0]!;
    expect(row.same).toBe(true);
    expect((await stored()).length).toBe(3);
  });

  it('identical prices append nothing; a re-import changes nothing', async () => {
    const before = await stored();
    const report = await importObject(t.db.db, bundle);
    expect(report.changed).toBe(false);
    // 850000 and 850000.0 are the same price.
    expect(await stored()).toEqual(before);
  });

  it('each change of price, price per meter, currency or ancillary prices appends one entry; old entries stay', async () => {
    const id = ids.offers[0]!;
    const before = await stored();
    const v1 = (await offerState(id)).version;
    data(0).price = 450000;
    await importObject(t.db.db, bundle);
    data(0).price_per_meter = 9000;
    await importObject(t.db.db, bundle);
    data(0).price_currency = 'PLN';
    await importObject(t.db.db, bundle);
    offers()[0]!.ancillary = [{ kind: 'parking', label: 'P-12', price: 35000 }, { kind: 'storage', price: 9000 }];
    await importObject(t.db.db, bundle);
    await importObject(t.db.db, bundle); // identical again
    const after = await stored();
    expect(after.slice(0, before.length)).toEqual(before);
    const entries = await items(id);
    expect(entries.map((e) => [e.price, e.price_per_meter, e.price_currency, e.ancillary.length])).toEqual([
      [500000, 10000, null, 0],
      [450000, 10000, null, 0],
      [450000, 9000, null, 0],
      [450000, 9000, 'PLN', 0],
      [450000, 9000, 'PLN', 2],
    ]);
    expect(entries[4]!.ancillary).toEqual([{ kind: 'parking', label: 'P-12', price: 35000 }, { kind: 'storage', label: null, price: 9000 }]);
    for (let i = 1; i < entries.length; i += 1) expect(entries[i]!.valid_from >= entries[i - 1]!.valid_from).toBe(true);
    // Every change was a new version of the offer (so a change-feed upsert), the ancillary one too.
    const state = await offerState(id);
    expect(state.version).toBe(v1 + 4);
    // Only the price counts as a price change: -10.00 % at the second entry.
    expect(Number(state.price_change_pct)).toBe(-10);
    expect(new Date(state.price_changed_at!).toISOString()).toBe(new Date(entries[1]!.valid_from).toISOString());
  });

  it('prices_valid_from dates the entry; an earlier one than the latest entry, or one in the future, is a problem at its path', async () => {
    const id = ids.offers[1]!;
    offers()[1]!.prices_valid_from = '2030-01-01T00:00:00Z';
    data(1).price = 1;
    const future = await problemsOf(importObject(t.db.db, bundle));
    expect(future).toEqual([expect.stringMatching(/offers\[1\]\.prices_valid_from: must not be in the future/)]);

    const before = await stored();
    offers()[1]!.prices_valid_from = '2020-01-01T00:00:00+01:00';
    const early = await problemsOf(importObject(t.db.db, bundle));
    expect(early).toEqual([expect.stringMatching(/offers\[1\]\.prices_valid_from: earlier than the latest entry/)]);
    expect(await stored()).toEqual(before); // all or nothing

    // A price that did not change is not dated again: no problem, nothing appended.
    data(1).price = 500001;
    await importObject(t.db.db, bundle);
    expect(await stored()).toEqual(before);

    const latest = (await items(id)).at(-1)!.valid_from;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = new Date().toISOString();
    expect(later > latest).toBe(true);
    offers()[1]!.prices_valid_from = later;
    data(1).price = 400000.8;
    await importObject(t.db.db, bundle);
    const entries = await items(id);
    expect(entries.at(-1)).toMatchObject({ price: 400000.8, valid_from: later.replace(/\.(\d{3})Z$/, (_, ms: string) => (ms === '000' ? 'Z' : `.${ms}000Z`)) });
    expect(Number((await offerState(id)).price_change_pct)).toBe(-20);
  });

  it('ancillary prices: at most 50, of known kinds', async () => {
    offers()[0]!.ancillary = Array.from({ length: 51 }, (_, n) => ({ kind: 'parking', label: `P-${n}`, price: 1000 }));
    offers()[1]!.ancillary = [{ kind: 'boat', price: 1 }];
    const problems = await problemsOf(importObject(t.db.db, bundle));
    expect(problems).toEqual([
      expect.stringMatching(/offers\[0\]\.ancillary: must have at most 50 items/),
      expect.stringMatching(/offers\[1\]\.ancillary\[0\]\.kind: expected one of parking, garage, storage, other/),
    ]);
  });

  it('deactivation and prune keep the history; the API answers 404 for an inactive offer, as GET offer does', async () => {
    const id = ids.offers[2]!;
    const before = await stored();
    offers()[2]!.is_active = false;
    await importObject(t.db.db, bundle);
    await importObject(t.db.db, { ...bundle, offers: offers().slice(0, 1) }, { prune: true });
    expect(await stored()).toEqual(before);
    for (const url of [`/api/v1/offers/${id}`, `/api/v1/offers/${id}/price-history`]) {
      const res = await get(t, url, { key: KEY });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Offer not found' });
    }
  });

  it('an offer created again after its row was deleted by hand continues its history (no second first entry)', async () => {
    const id = ids.offers[1]!;
    const before = await stored();
    await sql`delete from offers where offer_id = ${id}`.execute(t.db.db);
    const report = await importObject(t.db.db, bundle);
    expect(report.counts.offers.created).toBe(1);
    expect(await stored()).toEqual(before);
    data(1).price = (data(1).price as number) - 10000;
    await importObject(t.db.db, bundle);
    expect((await items(id)).map((e) => e.price)).toEqual([data(1).price as number + 10000, data(1).price]);
  });

  it('same key, tenancy and 404 as GET offer', async () => {
    const id = ids.offers[0]!;
    expect((await history(id, KEYS.activeA1)).statusCode).toBe(404); // another organization's key
    expect((await history(randomUUID())).statusCode).toBe(404);
    expect((await get(t, `/api/v1/offers/${id}/price-history`, { key: null })).statusCode).toBe(401);
    expect((await history(id.toUpperCase())).statusCode).toBe(200);
    const bad = await history('not-a-uuid');
    expect(bad.statusCode).toBe(422);
    expect((bad.json() as { detail: Array<{ loc: unknown[] }> }).detail[0]!.loc).toEqual(['path', 'offer_id']);
  });
});
