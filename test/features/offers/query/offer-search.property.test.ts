/**
 * Random searches, geographic shapes, filters and orders over a generated world (search-world.ts):
 * the service's pages must equal an in-memory evaluation (search-reference.ts): the same ids in the
 * same order, the same total. And the facets: every count equals the list total for the same body
 * with that field's filters replaced by `eq` that value (or `is_null`), and the statistics equal
 * the evaluation's.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, post, type TestApp } from '../../../helpers/app.js';
import { scaled } from '../../../helpers/scale.js';
import { insertWorld, WORLD_KEY, WORLD_ORG, type WorldOffer } from '../../../helpers/offer-world.js';
import { matchesFilter } from '../../../helpers/offer-reference.js';
import { distanceKm, searchDocument, searchScore, type Point } from '../../../helpers/search-reference.js';
import { EXTERNAL_IDS, generateSearchWorld, PLACES, STREETS, VOCABULARY } from '../../../helpers/search-world.js';

let t: TestApp;
const world = generateSearchWorld(20261124, 360);
const documents = new Map(world.map((o) => [o.offer_id, searchDocument(o)]));

beforeAll(async () => {
  t = await buildTestApp({ seed: false });
  await insertWorld(t.db.db, world);
});

// ---------------------------------------------------------------------------------------------
// Generators

/** A word as people type it: any form, any letter case, with or without its diacritics. */
const typedWord = fc
  .tuple(
    fc.constantFrom(...VOCABULARY.flat(), ...PLACES.flatMap((p) => [p.city, ...p.districts]), ...STREETS, ...EXTERNAL_IDS, 'xyzzy'),
    fc.constantFrom('as is', 'lower', 'upper', 'ascii'),
  )
  .map(([w, style]) =>
    style === 'lower' ? w.toLowerCase() : style === 'upper' ? w.toUpperCase() : style === 'ascii' ? w.normalize('NFD').replace(/\p{M}/gu, '').replace(/ł/g, 'l').replace(/Ł/g, 'L') : w,
  );

/** 1 to 3 words; the last one possibly cut short (search as you type). */
const searchArb = fc
  .tuple(fc.array(typedWord, { minLength: 1, maxLength: 3 }), fc.integer({ min: 2, max: 12 }), fc.boolean())
  .map(([words, cut, truncate]) => {
    const last = words[words.length - 1]!;
    const shown = truncate ? last.slice(0, Math.max(2, Math.min(cut, last.length))) : last;
    return [...words.slice(0, -1), shown].join(' ');
  });

const place = fc.constantFrom(...PLACES);
const around = (p: (typeof PLACES)[number], spread: number) =>
  fc.tuple(fc.double({ min: -spread, max: spread, noNaN: true }), fc.double({ min: -spread, max: spread, noNaN: true })).map(([a, b]) => ({
    lat: Number((p.lat + a).toFixed(4)),
    lon: Number((p.lon + b).toFixed(4)),
  }));

type Geo =
  | { operator: 'within_radius'; value: { lat: number; lon: number; km: number } }
  | { operator: 'within_bbox'; value: { south: number; west: number; north: number; east: number } }
  | { operator: 'within_polygon'; value: Array<[number, number]> };

const radiusArb = place.chain((p) =>
  fc.tuple(around(p, 0.1), fc.double({ min: 0.5, max: 12, noNaN: true })).map(
    ([c, km]): Geo => ({ operator: 'within_radius', value: { ...c, km: Number(km.toFixed(2)) } }),
  ),
);
const boxArb = place.chain((p) =>
  fc.tuple(around(p, 0.1), around(p, 0.1)).map(
    ([a, b]): Geo => ({
      operator: 'within_bbox',
      value: { south: Math.min(a.lat, b.lat), north: Math.max(a.lat, b.lat), west: Math.min(a.lon, b.lon), east: Math.max(a.lon, b.lon) },
    }),
  ),
);
/** A star-shaped (so simple) polygon around a point: 3 to 12 corners at random angles and distances. */
const polygonArb = place.chain((p) =>
  fc
    .tuple(around(p, 0.05), fc.array(fc.tuple(fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }), fc.double({ min: 0.01, max: 0.12, noNaN: true })), { minLength: 3, maxLength: 12 }))
    .map(([c, corners]): Geo => {
      const sorted = [...corners].sort((a, b) => a[0] - b[0]);
      return {
        operator: 'within_polygon',
        value: sorted.map(([angle, r]) => [Number((c.lat + r * Math.sin(angle)).toFixed(5)), Number((c.lon + r * Math.cos(angle)).toFixed(5))]),
      };
    }),
);
const geoArb = fc.oneof(radiusArb, boxArb, polygonArb);

const plainFilterArb = fc.oneof(
  fc.constantFrom(...[1, 2, 3, 4, 5].map((r) => ({ field: 'rooms', operator: 'in', value: [r, r + 1] }))),
  fc.integer({ min: 4, max: 30 }).map((n) => ({ field: 'price', operator: 'lte', value: 100_000 + n * 25_000 })),
  fc.constantFrom({ field: 'has_balcony', operator: 'eq', value: true }, { field: 'market_type', operator: 'eq', value: 'PRIMARY' }),
);

type Sort = { field: 'price'; direction: 'asc' | 'desc' } | { field: 'distance'; direction: 'asc' | 'desc'; from: Point };
const sortArb: fc.Arbitrary<Sort | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constantFrom<'asc' | 'desc'>('asc', 'desc').map((direction): Sort => ({ field: 'price', direction })),
  fc.tuple(place.chain((p) => around(p, 0.2)), fc.constantFrom<'asc' | 'desc'>('asc', 'desc')).map(([from, direction]): Sort => ({ field: 'distance', direction, from })),
);

const requestArb = fc.record({
  search: fc.option(searchArb, { nil: undefined }),
  geo: fc.option(geoArb, { nil: undefined }),
  filter: fc.option(plainFilterArb, { nil: undefined }),
  sort: sortArb,
  page: fc.integer({ min: 1, max: 3 }),
  size: fc.integer({ min: 5, max: 40 }),
});

// ---------------------------------------------------------------------------------------------
// The evaluation

const pointOf = (o: WorldOffer): Point | undefined => {
  const lat = o.data.location_latitude;
  const lon = o.data.location_longitude;
  return typeof lat === 'number' && typeof lon === 'number' ? { lat, lon } : undefined;
};

/** The reference's evaluation of a `location` filter (offer-reference.ts). */
const matchesGeo = (o: WorldOffer, geo: Geo): boolean => matchesFilter(o, { field: 'location', ...geo });

function matchesPlain(o: WorldOffer, f: { field: string; operator: string; value: unknown }): boolean {
  const v = o.data[f.field];
  if (v === null || v === undefined) return false;
  if (f.operator === 'in') return (f.value as unknown[]).includes(v);
  if (f.operator === 'lte') return (v as number) <= (f.value as number);
  return v === f.value;
}

const byId = (a: WorldOffer, b: WorldOffer) => (a.offer_id < b.offer_id ? -1 : a.offer_id > b.offer_id ? 1 : 0);

function evaluate(request: Parameters<typeof bodyOf>[0]) {
  const scored = world
    .filter((o) => o.organization_id === WORLD_ORG && o.is_active)
    .filter((o) => request.geo === undefined || matchesGeo(o, request.geo))
    .filter((o) => request.filter === undefined || matchesPlain(o, request.filter))
    .map((o) => ({ o, score: request.search === undefined ? 0 : searchScore(documents.get(o.offer_id)!, request.search) }))
    .filter((x) => x.score !== undefined) as Array<{ o: WorldOffer; score: number }>;
  const sort = request.sort;
  scored.sort((a, b) => {
    if (sort) {
      const key = (x: WorldOffer) => (sort.field === 'price' ? (x.data.price as number | null) ?? null : pointOf(x) ? distanceKm(sort.from, pointOf(x)!) : null);
      const x = key(a.o);
      const y = key(b.o);
      if (x === null || y === null) return x === y ? byId(a.o, b.o) : x === null ? 1 : -1;
      if (x !== y) return (sort.direction === 'asc' ? 1 : -1) * (x < y ? -1 : 1);
      return byId(a.o, b.o);
    }
    if (request.search !== undefined) return b.score - a.score || byId(a.o, b.o);
    return a.o.created_at < b.o.created_at ? 1 : a.o.created_at > b.o.created_at ? -1 : byId(a.o, b.o);
  });
  const start = (request.page - 1) * request.size;
  return { ids: scored.slice(start, start + request.size).map((x) => x.o.offer_id), total: scored.length };
}

function bodyOf(request: {
  search: string | undefined;
  geo: Geo | undefined;
  filter: { field: string; operator: string; value: unknown } | undefined;
  sort: Sort | undefined;
  page: number;
  size: number;
}) {
  const filters = [
    ...(request.geo ? [{ field: 'location', ...request.geo }] : []),
    ...(request.filter ? [request.filter] : []),
  ];
  return {
    pagination: { page: request.page, size: request.size },
    ...(request.sort ? { sorting: request.sort } : {}),
    ...(filters.length > 0 ? { filters } : {}),
    ...(request.search !== undefined ? { search: request.search } : {}),
  };
}

describe('search and geography against an in-memory evaluation', () => {
  it('gives the same ids in the same order and the same total', async () => {
    let matched = 0;
    let searched = 0;
    const runs = scaled('SEARCH_RUNS', 250, 1500);
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        const res = await post(t, '/api/v1/offers', bodyOf(request), { key: WORLD_KEY });
        expect(res.statusCode, res.body).toBe(200);
        const page = res.json() as { items: { offer_id: string }[]; total: number };
        expect({ ids: page.items.map((o) => o.offer_id), total: page.total }).toEqual(evaluate(request));
        if (page.total > 0) matched++;
        if (request.search !== undefined && page.total > 0) searched++;
      }),
      { numRuns: runs },
    );
    // Not vacuous: many requests find something, searches included (seen: about 20% and 8% of the
    // runs; the seed is not fixed, so the bounds leave room).
    expect(matched).toBeGreaterThan(runs / 10);
    expect(searched).toBeGreaterThan(runs / 25);
  });
});

// ---------------------------------------------------------------------------------------------
// Facets

const FACETS = ['address_city', 'rooms', 'market_type', 'has_balcony', 'agent_id'] as const;
const STATS = ['price', 'property_size'] as const;

describe('facets against the list and an in-memory evaluation', () => {
  it('every count is the list total with that field filtered to that value; statistics are exact', async () => {
    const facetRequestArb = fc.record({
      search: fc.option(searchArb, { nil: undefined }),
      geo: fc.option(geoArb, { nil: undefined }),
      filter: fc.option(plainFilterArb, { nil: undefined }),
      // A second one: up to three filtered facet fields at once (rooms, has_balcony, city...).
      filter2: fc.option(plainFilterArb, { nil: undefined }),
      city: fc.option(fc.constantFrom(...PLACES.map((p) => p.city)), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(facetRequestArb, async (request) => {
        const filters = [
          ...(request.geo ? [{ field: 'location', ...request.geo }] : []),
          ...(request.filter ? [request.filter] : []),
          ...(request.filter2 ? [request.filter2] : []),
          ...(request.city ? [{ field: 'address_city', operator: 'eq', value: request.city }] : []),
        ];
        const body = { filters, ...(request.search !== undefined ? { search: request.search } : {}), facets: [...FACETS], stats: [...STATS] };
        const res = await post(t, '/api/v1/offers/facets', body, { key: WORLD_KEY });
        expect(res.statusCode, res.body).toBe(200);
        const answer = res.json() as {
          total: number;
          facets: Record<string, Array<{ value: unknown; count: number }>>;
          stats: Record<string, { min: number | null; max: number | null; avg: number | null; count: number }>;
        };
        const listTotal = async (list: unknown[]) => {
          const page = await post(t, '/api/v1/offers', { pagination: { size: 1 }, filters: list, ...(request.search !== undefined ? { search: request.search } : {}) }, { key: WORLD_KEY });
          return (page.json() as { total: number }).total;
        };
        expect(answer.total).toBe(await listTotal(filters));
        // Two facets each time (every count of a facet costs a list request).
        for (const field of [FACETS[answer.total % FACETS.length]!, 'address_city'] as const) {
          const counts = answer.facets[field]!;
          for (let i = 1; i < counts.length; i++) expect(counts[i - 1]!.count).toBeGreaterThanOrEqual(counts[i]!.count);
          const others = filters.filter((f) => f.field !== field);
          for (const { value, count } of counts) {
            const own = value === null ? { field, operator: 'is_null', value: true } : { field, operator: 'eq', value };
            expect(count, `${field} = ${JSON.stringify(value)}`).toBe(await listTotal([...others, own]));
          }
          // Every value is there (the world has fewer than facet_size of each): the counts add up
          // to the offers that the other filters match, and no value is listed with 0.
          expect(counts.length).toBeLessThan(100);
          expect(counts.every((c) => c.count > 0)).toBe(true);
          expect(counts.reduce((sum, c) => sum + c.count, 0), `${field}: sum of counts`).toBe(await listTotal(others));
        }
        // Statistics over the matching offers, evaluated here.
        const matching = world.filter(
          (o) =>
            o.organization_id === WORLD_ORG &&
            o.is_active &&
            (request.geo === undefined || matchesGeo(o, request.geo)) &&
            (request.filter === undefined || matchesPlain(o, request.filter)) &&
            (request.filter2 === undefined || matchesPlain(o, request.filter2)) &&
            (request.city === undefined || o.data.address_city === request.city) &&
            (request.search === undefined || searchScore(documents.get(o.offer_id)!, request.search) !== undefined),
        );
        expect(answer.total).toBe(matching.length);
        for (const field of STATS) {
          const values = matching.map((o) => o.data[field]).filter((v): v is number => typeof v === 'number');
          const stats = answer.stats[field]!;
          expect(stats.count).toBe(values.length);
          expect(stats.min).toBe(values.length ? Math.min(...values) : null);
          expect(stats.max).toBe(values.length ? Math.max(...values) : null);
          if (values.length) expect(stats.avg).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 6);
          else expect(stats.avg).toBeNull();
        }
      }),
      { numRuns: scaled('FACET_RUNS', 40, 200) },
    );
  });
});
