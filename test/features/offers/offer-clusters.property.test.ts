/**
 * Map clusters (extension E13) against a reference and against the list: for random filters (on
 * column fields, answered from the in-memory columns, and with a search or a radius, answered by
 * SQL), random bboxes (some across the antimeridian, some huge) and zooms, and both keys (whole
 * organization, scoped), the clusters are the reference's cells (the documented grid, computed here
 * from the rule) with the same counts and boxes; counts add up to `total`, which equals the list's
 * total for the same filters plus `within_bbox`; the SQL statement and the columns give the same
 * answer; never more than 1,000 clusters; `offer_id` exactly on clusters of one.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, post, type TestApp } from '../../helpers/app.js';
import { scaled } from '../../helpers/scale.js';
import { INVESTMENT } from '../../helpers/fixtures.js';
import { matchesFilter, type RefFilter } from '../../helpers/offer-reference.js';
import type { WorldOffer } from '../../helpers/offer-world.js';
import {
  generateMapWorld,
  insertMapWorld,
  MAP_CITIES,
  MAP_INVESTMENTS,
  MAP_KEY,
  MAP_ORG,
  MAP_SCOPE,
  MAP_SCOPED_KEY,
  MAP_TYPES,
  mapVisible,
  type MapOffer,
} from '../../helpers/map-world.js';
import { clustersSql, clustersFromColumns } from '../../../src/features/offers/clusters/clusters-read.js';
import { loadOfferColumns } from '../../../src/features/offers/facets/columns-read.js';
import { resolveOfferField, type OfferFilter } from '../../../src/features/offers/query/language.js';

let t: TestApp;
const world = generateMapWorld(320, 2713);

beforeAll(async () => {
  t = await buildTestApp();
  await insertMapWorld(t.db.db, world);
});

const asWorldOffer = (o: MapOffer) =>
  ({ ...o, external_id: '', agent_id: null, version: 1, created_at: 0n, updated_at: 0n, dataTimes: {}, data: o.data }) as unknown as WorldOffer;

// The grid, from the rule in docs/api.md.
function level(zoom: number, box: Box): number {
  const cells = (l: number) => {
    const n = 2 ** l;
    const col = (lon: number) => Math.min(Math.floor(((lon + 180) * n) / 360), n - 1);
    const row = (lat: number) => Math.min(Math.floor(((lat + 90) * n) / 180), n - 1);
    const rows = row(box.north) - row(box.south) + 1;
    const cols = box.west <= box.east ? col(box.east) - col(box.west) + 1 : Math.min(n, n - col(box.west) + col(box.east) + 1);
    return rows * cols;
  };
  let l = zoom + 2;
  while (l > 0 && cells(l) > 1000) l--;
  return l;
}

interface Box {
  south: number;
  west: number;
  north: number;
  east: number;
}

const inside = (o: MapOffer, b: Box) => {
  const lat = o.data.location_latitude;
  const lon = o.data.location_longitude;
  if (lat === null || lon === null || lat < b.south || lat > b.north) return false;
  return b.west <= b.east ? lon >= b.west && lon <= b.east : lon >= b.west || lon <= b.east;
};

function reference(visible: readonly MapOffer[], filters: RefFilter[], box: Box, zoom: number) {
  const l = level(zoom, box);
  const n = 2 ** l;
  const cells = new Map<string, MapOffer[]>();
  for (const o of visible) {
    if (!filters.every((f) => matchesFilter(asWorldOffer(o), f)) || !inside(o, box)) continue;
    const key = `${Math.min(Math.floor(((o.data.location_latitude! + 90) * n) / 180), n - 1)}/${Math.min(Math.floor(((o.data.location_longitude! + 180) * n) / 360), n - 1)}`;
    cells.set(key, [...(cells.get(key) ?? []), o]);
  }
  return [...cells.values()].map((offers) => ({
    count: offers.length,
    bbox: {
      south: Math.min(...offers.map((o) => o.data.location_latitude!)),
      west: Math.min(...offers.map((o) => o.data.location_longitude!)),
      north: Math.max(...offers.map((o) => o.data.location_latitude!)),
      east: Math.max(...offers.map((o) => o.data.location_longitude!)),
    },
    lat: offers.reduce((s, o) => s + o.data.location_latitude!, 0) / offers.length,
    lon: offers.reduce((s, o) => s + o.data.location_longitude!, 0) / offers.length,
    offer_id: offers.length === 1 ? offers[0]!.offer_id : undefined,
  }));
}

type Cluster = { lat: number; lon: number; count: number; bbox: Box; offer_id?: string };
const byBox = (a: { bbox: Box; count: number }, b: { bbox: Box; count: number }) =>
  a.bbox.south - b.bbox.south || a.bbox.west - b.bbox.west || a.count - b.count;

function expectSameClusters(got: Cluster[], want: ReturnType<typeof reference>) {
  const g = [...got].sort(byBox);
  const w = [...want].sort(byBox);
  expect(g.map((c) => [c.count, c.bbox, c.offer_id])).toEqual(w.map((c) => [c.count, c.bbox, c.offer_id]));
  g.forEach((c, i) => {
    expect(Math.abs(c.lat - w[i]!.lat)).toBeLessThan(1.5e-6);
    expect(Math.abs(c.lon - w[i]!.lon)).toBeLessThan(1.5e-6);
  });
}

const latArb = fc.double({ min: 49.5, max: 52.8, noNaN: true });
const lonArb = fc.double({ min: 19, max: 21.6, noNaN: true });
const boxArb: fc.Arbitrary<Box> = fc.oneof(
  fc.tuple(latArb, latArb, lonArb, lonArb).map(([a, b, c, d]) => ({ south: Math.min(a, b), north: Math.max(a, b), west: Math.min(c, d), east: Math.max(c, d) })),
  fc.constant({ south: -90, west: -180, north: 90, east: 180 }),
  // Across the antimeridian: the whole world but a strip, so Poland is inside.
  fc.tuple(fc.double({ min: 21.7, max: 179, noNaN: true }), fc.double({ min: -179, max: 18, noNaN: true })).map(([west, east]) => ({ south: -80, west, north: 85, east })),
);

const filterArb: fc.Arbitrary<RefFilter> = fc.oneof(
  fc.tuple(fc.constantFrom('gte', 'lte'), fc.constantFrom(350000, 420000, 780000)).map(([operator, value]) => ({ field: 'price', operator, value })),
  fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 3 }).map((value) => ({ field: 'rooms', operator: 'in', value })),
  fc.constantFrom(...MAP_TYPES).map((value) => ({ field: 'offer_type', operator: 'eq', value })),
  fc.constantFrom(...MAP_CITIES).map((value) => ({ field: 'address_city', operator: 'eq', value })),
  fc.constantFrom(...MAP_INVESTMENTS).map((value) => ({ field: 'investment_id', operator: 'eq', value })),
  fc.boolean().map((value) => ({ field: 'price', operator: 'is_null', value })),
  // Not on a column: answered by SQL.
  fc.constant({ field: 'location', operator: 'within_radius', value: { lat: 50.06, lon: 19.94, km: 15 } }),
);

describe('POST /api/v1/offers/clusters', () => {
  it('cells of the documented grid, counts adding up to the list total; SQL and columns agree', async () => {
    const keys = [
      { key: MAP_KEY, scope: null, visible: mapVisible(world, null) },
      { key: MAP_SCOPED_KEY, scope: MAP_SCOPE, visible: mapVisible(world, MAP_SCOPE) },
    ];
    const columns = await loadOfferColumns(t.db.db, MAP_ORG, 1_000_000);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(0, 1),
        fc.array(filterArb, { maxLength: 3 }),
        boxArb,
        fc.integer({ min: 0, max: 22 }),
        fc.constantFrom(undefined, ...MAP_INVESTMENTS),
        async (which, filters, bbox, zoom, investment) => {
          const { key, scope, visible } = keys[which]!;
          const body = { filters, bbox, zoom };
          const base = investment === undefined ? '/api/v1/offers' : `/api/v1/investments/${investment}/offers`;
          const res = await post(t, `${base}/clusters`, body, { key });
          if (investment !== undefined && scope?.investment_ids && !scope.investment_ids.includes(investment)) {
            // An investment outside the website's scope does not exist for its key.
            expect(res.statusCode).toBe(404);
            return;
          }
          expect(res.statusCode, res.body).toBe(200);
          const answer = res.json() as { total: number; clusters: Cluster[] };
          const inInvestment = visible.filter((o) => investment === undefined || o.investment_id === investment);
          expectSameClusters(answer.clusters, reference(inInvestment, filters, bbox, zoom));
          expect(answer.clusters.length).toBeLessThanOrEqual(1000);
          expect(answer.clusters.reduce((n, c) => n + c.count, 0)).toBe(answer.total);
          for (const c of answer.clusters) expect('offer_id' in c).toBe(c.count === 1);
          // Ordered by count, most first.
          expect(answer.clusters.map((c) => c.count)).toEqual([...answer.clusters.map((c) => c.count)].sort((a, b) => b - a));
          // The list's total for the same filters plus within_bbox.
          const list = await post(t, base, { pagination: { size: 1 }, filters: [...filters, { field: 'location', operator: 'within_bbox', value: bbox }] }, { key });
          expect(list.statusCode).toBe(200);
          expect(list.json().total).toBe(answer.total);
          // Both ways of counting, called directly on the same request, agree.
          const typed = filters.map((f) => ({ field: resolveOfferField(f.field)!, operator: f.operator, value: f.value }) as OfferFilter);
          const visibility = { organizationId: MAP_ORG, scope };
          const query = { filters: typed, bbox, zoom, ...(investment === undefined ? {} : { investmentId: investment }) };
          const viaSql = await clustersSql(t.db.db, visibility, query);
          expect(viaSql.total).toBe(answer.total);
          expectSameClusters(viaSql.clusters as Cluster[], reference(inInvestment, filters, bbox, zoom));
          if (!filters.some((f) => f.field === 'location')) {
            const viaColumns = clustersFromColumns(columns!, visibility, query);
            expect(viaColumns.total).toBe(answer.total);
            expectSameClusters(viaColumns.clusters as Cluster[], reference(inInvestment, filters, bbox, zoom));
          }
        },
      ),
      { numRuns: scaled('CLUSTER_RUNS', 60, 400) },
    );
  });

  it('a huge bbox at the highest zoom still answers at most 1,000 clusters, one offer each at most where they spread', async () => {
    const res = await post(t, '/api/v1/offers/clusters', { bbox: { south: -90, west: -180, north: 90, east: 180 }, zoom: 22 }, { key: MAP_KEY });
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer.clusters.length).toBeLessThanOrEqual(1000);
    expect(answer.total).toBe(mapVisible(world, null).filter((o) => o.data.location_latitude !== null && o.data.location_longitude !== null).length);
  });

  it('checks bbox and zoom as within_bbox and a bounded integer; 404 for an unknown investment', async () => {
    const cases: [unknown, unknown[]][] = [
      [{ zoom: 3 }, ['body', 'bbox']],
      [{ bbox: { south: 0, west: 0, north: 1, east: 1 } }, ['body', 'zoom']],
      [{ bbox: { south: 0, west: 0, north: 1, east: 1 }, zoom: 23 }, ['body', 'zoom']],
      [{ bbox: { south: 0, west: 0, north: 1, east: 1 }, zoom: -1 }, ['body', 'zoom']],
      [{ bbox: { south: 0, west: 0, north: 1, east: 1 }, zoom: 'x' }, ['body', 'zoom']],
      [{ bbox: { south: 0, west: 0, north: 91, east: 1 }, zoom: 3 }, ['body', 'bbox', 'north']],
      [{ bbox: { south: 2, west: 0, north: 1, east: 1 }, zoom: 3 }, ['body', 'bbox']],
      [{ bbox: { south: 0, west: 0, east: 1 }, zoom: 3 }, ['body', 'bbox', 'north']],
      [{ bbox: { south: 0, west: 0, north: 1, east: 1 }, zoom: 3, filters: [{ field: 'cty', operator: 'eq', value: 'x' }] }, ['body', 'filters', 0, 'field']],
    ];
    for (const [body, loc] of cases) {
      const res = await post(t, '/api/v1/offers/clusters', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().detail[0].loc, JSON.stringify(body)).toEqual(loc);
    }
    const unknown = await post(t, `/api/v1/investments/${INVESTMENT.other}/offers/clusters`, { bbox: { south: 0, west: 0, north: 1, east: 1 }, zoom: 3 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'Investment not found' });
  });
});
