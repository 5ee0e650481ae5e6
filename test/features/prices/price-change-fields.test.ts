/**
 * The virtual fields of the latest price change (extension E10), `price_changed_at` and
 * `price_change_pct`, through the API after real imports: filters ("reduced in the last 30 days"),
 * sorting, statistics and the field catalogue. Only a change of `price` counts; the query
 * language's property test (test/features/offers/query/offer-query.property.test.ts) covers every
 * operator on both fields against its reference evaluation.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, get, post, type TestApp } from '../../helpers/app.js';
import { importObject, smallBundle, type Bundle, type Ids, type Json } from '../../import/helpers.js';

describe('price_changed_at and price_change_pct', () => {
  let t: TestApp;
  let bundle: Bundle;
  let ids: Ids;
  const KEY = `ecs_pc_${randomUUID()}`;
  const data = (n: number) => (bundle.offers as Json[])[n]!.offer_data as Json;
  const list = async (body: unknown) => {
    const res = await post(t, '/api/v1/offers', { pagination: { page: 1, size: 100 }, ...(body as object) }, { key: KEY });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { items: Array<{ offer_id: string }> }).items.map((o) => o.offer_id);
  };
  let before = '';

  beforeAll(async () => {
    t = await buildTestApp({ env: { RESPONSE_CACHE: 'off' } });
    ({ bundle, ids } = smallBundle());
    (bundle.websites![0] as Json).api_keys = [{ key: KEY, is_active: true }];
    await importObject(t.db.db, bundle);
    before = new Date(Date.now() - 1000).toISOString();
    data(0).price = 450000; // 500000 -> 450000: -10 %
    data(1).price = 525001.05; // 500001 -> 525001.05: +5 %
    data(2).price_per_meter = 9999; // not a price change
    await importObject(t.db.db, bundle);
  });
  afterAll(() => t.destroy());

  it('filters: reduced since a date, changed at all, never changed', async () => {
    const [a, b, c] = ids.offers as [string, string, string];
    expect(await list({ filters: [{ field: 'price_change_pct', operator: 'lt', value: 0 }, { field: 'price_changed_at', operator: 'gte', value: before }] })).toEqual([a]);
    expect((await list({ filters: [{ field: 'price_changed_at', operator: 'is_null', value: false }] })).sort()).toEqual([a, b].sort());
    expect(await list({ filters: [{ field: 'price_change_pct', operator: 'is_null', value: true }] })).toEqual([c]);
    expect(await list({ filters: [{ field: 'price_change_pct', operator: 'eq', value: 5 }] })).toEqual([b]);
    expect(await list({ filters: [{ field: 'price_changed_at', operator: 'gt', value: new Date(Date.now() + 60_000).toISOString() }] })).toEqual([]);
  });

  it('sorting: by percent, nulls as the other fields sort them', async () => {
    const [a, b, c] = ids.offers as [string, string, string];
    const asc = await list({ sorting: { field: 'price_change_pct', direction: 'asc' } });
    expect(asc.filter((id) => id !== c)).toEqual([a, b]);
    const desc = await list({ sorting: { field: 'price_change_pct', direction: 'desc' } });
    expect(desc.filter((id) => id !== c)).toEqual([b, a]);
    expect((await list({ sorting: { field: 'price_changed_at', direction: 'asc' } })).sort()).toEqual([...ids.offers].sort());
  });

  it('statistics and the field catalogue', async () => {
    const res = await post(t, '/api/v1/offers/facets', { stats: ['price_change_pct', 'price_changed_at'] }, { key: KEY });
    expect(res.statusCode, res.body).toBe(200);
    const stats = (res.json() as { stats: Record<string, { min: unknown; max: unknown; count: number }> }).stats;
    expect(stats.price_change_pct).toMatchObject({ min: -10, max: 5, count: 2 });
    expect(stats.price_changed_at!.count).toBe(2);

    const meta = await get(t, '/api/v1/meta/offers', { key: KEY });
    const body = meta.json() as { fields: Array<{ name: string; type: string; sortable: boolean; stats: boolean }>; sort_fields: string[] };
    expect(body.fields.find((f) => f.name === 'price_changed_at')).toMatchObject({ sortable: true, stats: true });
    expect(body.fields.find((f) => f.name === 'price_change_pct')).toMatchObject({ type: 'number', sortable: true, stats: true });
    expect(body.sort_fields).toEqual(expect.arrayContaining(['price_changed_at', 'price_change_pct']));
  });
});
