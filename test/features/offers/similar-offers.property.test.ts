/**
 * Similar offers (extension E13) against a reference written from the documented rule: for random
 * offers, sizes and keys (one seeing the whole organization, one scoped), the answer is the `size`
 * best other active, visible offers of the same offer type by the documented score (rounded to 4
 * decimals), ties by offer_id; never the offer itself, never one out of scope, inactive or of
 * another organization; the same on a second call. Plus the fixture's cases: 404s like GET offer,
 * `fields`, 422s.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, get, type TestApp } from '../../helpers/app.js';
import { scaled } from '../../helpers/scale.js';
import { OFFER } from '../../helpers/fixtures.js';
import { loadOfferColumns } from '../../../src/features/offers/facets/columns-read.js';
import { readSimilarityFacts } from '../../../src/features/offers/similar/similar-read.js';
import { similarityFactsFromColumns } from '../../../src/features/offers/similar/similar-columns.js';
import { rankSimilar } from '../../../src/features/offers/similar/similar-score.js';
import { generateMapWorld, insertMapWorld, MAP_KEY, MAP_ORG, MAP_OTHER_ORG, MAP_SCOPE, MAP_SCOPED_KEY, mapVisible, type MapOffer } from '../../helpers/map-world.js';

let t: TestApp;
const world = generateMapWorld(300, 27);

beforeAll(async () => {
  t = await buildTestApp();
  await insertMapWorld(t.db.db, world);
});

// The rule, as docs/api.md states it.
function km(a: MapOffer, b: MapOffer): number {
  const r = Math.PI / 180;
  const [lat1, lon1, lat2, lon2] = [a.data.location_latitude!, a.data.location_longitude!, b.data.location_latitude!, b.data.location_longitude!];
  const h = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}
const ratio = (a: number | null, b: number | null) => (a !== null && b !== null && a > 0 && b > 0 ? 1 - Math.abs(a - b) / Math.max(a, b) : 0);
function score(base: MapOffer, other: MapOffer): number {
  const located = [base, other].every((o) => o.data.location_latitude !== null && o.data.location_longitude !== null);
  const parts =
    0.3 * (base.investment_id !== null && base.investment_id === other.investment_id ? 1 : 0) +
    0.25 * (located ? 1 / (1 + km(base, other) / 2) : 0) +
    0.2 * ratio(base.data.price, other.data.price) +
    0.15 * (base.data.rooms !== null && other.data.rooms !== null ? Math.max(0, 1 - Math.abs(base.data.rooms - other.data.rooms) / 2) : 0) +
    0.1 * ratio(base.data.property_size, other.data.property_size);
  return Math.round(parts * 10_000) / 10_000;
}
function expected(base: MapOffer, visible: readonly MapOffer[], size: number) {
  return visible
    .filter((o) => o.offer_id !== base.offer_id && o.data.offer_type === base.data.offer_type)
    .map((o) => ({ offer_id: o.offer_id, score: score(base, o) }))
    .sort((a, b) => b.score - a.score || (a.offer_id < b.offer_id ? -1 : 1))
    .slice(0, size);
}

describe('GET /api/v1/offers/{offer_id}/similar', () => {
  it('is the documented ranking of the visible same-type offers, never the offer itself, and stable', async () => {
    const keys = [
      { key: MAP_KEY, scope: null, visible: mapVisible(world, null) },
      { key: MAP_SCOPED_KEY, scope: MAP_SCOPE, visible: mapVisible(world, MAP_SCOPE) },
    ];
    const columns = (await loadOfferColumns(t.db.db, MAP_ORG, 1_000_000))!;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(0, 1), fc.nat(), fc.option(fc.integer({ min: 1, max: 24 }), { nil: undefined }), async (which, n, size) => {
        const { key, scope, visible } = keys[which]!;
        const base = visible[n % visible.length]!;
        const url = `/api/v1/offers/${base.offer_id}/similar${size === undefined ? '' : `?size=${size}`}`;
        const res = await get(t, url, { key });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        expect(body.size).toBe(size ?? 6);
        const got = body.items.map((o: { offer_id: string; score: number }) => ({ offer_id: o.offer_id, score: o.score }));
        expect(got).toEqual(expected(base, visible, size ?? 6));
        const ids = new Set(visible.map((o) => o.offer_id));
        for (const item of got) {
          expect(item.offer_id).not.toBe(base.offer_id);
          expect(ids.has(item.offer_id)).toBe(true);
        }
        // The two ways of reading the facts (SQL, in-memory columns) rank alike.
        const visibility = { organizationId: MAP_ORG, scope };
        const viaSql = (await readSimilarityFacts(t.db.db, visibility, base.offer_id))!;
        const viaColumns = similarityFactsFromColumns(columns, visibility, base.offer_id)!;
        expect(rankSimilar(viaSql.base, viaSql.candidates, size ?? 6)).toEqual(expected(base, visible, size ?? 6));
        expect(rankSimilar(viaColumns.base, viaColumns.candidates, size ?? 6)).toEqual(expected(base, visible, size ?? 6));
        // Deterministic: the same request, past the response cache (another order of the query), the same list.
        const again = await get(t, `${url}${size === undefined ? '?' : '&'}fields=price`, { key });
        expect(again.json().items.map((o: { offer_id: string }) => o.offer_id)).toEqual(got.map((o: { offer_id: string }) => o.offer_id));
      }),
      { numRuns: scaled('SIMILAR_RUNS', 60, 400) },
    );
  });

  it('an offer the key cannot see answers 404 as GET offer does: inactive, out of scope, another organization', async () => {
    const outOfScope = mapVisible(world, null).find((o) => !mapVisible(world, MAP_SCOPE).includes(o))!;
    const inactive = world.find((o) => !o.is_active && o.organization_id !== MAP_OTHER_ORG)!;
    const foreign = world.find((o) => o.organization_id === MAP_OTHER_ORG && o.is_active)!;
    for (const [key, id] of [
      [MAP_SCOPED_KEY, outOfScope.offer_id],
      [MAP_KEY, inactive.offer_id],
      [MAP_KEY, foreign.offer_id],
    ] as const) {
      const res = await get(t, `/api/v1/offers/${id}/similar`, { key });
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ detail: 'Offer not found' });
      const one = await get(t, `/api/v1/offers/${id}`, { key });
      expect(one.statusCode).toBe(404);
    }
  });

  it('fields cuts each offer_data; size and fields are checked', async () => {
    const res = await get(t, `/api/v1/offers/${OFFER.krakowFull}/similar?size=24&fields=title,price`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.items.length).toBeGreaterThan(0);
    for (const item of body.items) {
      expect(Object.keys(item.offer_data)).toEqual(['price', 'title']);
      expect(Object.keys(item).at(-1)).toBe('score');
      expect(item.score).toBeGreaterThanOrEqual(0);
      expect(item.score).toBeLessThanOrEqual(1);
      expect(item.offer_id).not.toBe(OFFER.krakowFull);
    }
    for (const [query, loc] of [
      ['size=0', ['query', 'size']],
      ['size=25', ['query', 'size']],
      ['size=x', ['query', 'size']],
      ['fields=price,cty', ['query', 'fields', 1]],
    ] as const) {
      const bad = await get(t, `/api/v1/offers/${OFFER.krakowFull}/similar?${query}`);
      expect(bad.statusCode, query).toBe(422);
      expect(bad.json().detail[0].loc).toEqual(loc);
    }
  });
});
