/**
 * Facets from in-memory columns (src/features/offers/facets/columns.ts) against the SQL statement
 * (offerFacetsSql, which offer-search.property.test.ts holds to the list totals and an in-memory
 * evaluation): random filters with every operator on every column field, random facets, stats,
 * facet sizes, website scopes and investments over a world with nulls, ties, look-alike texts and
 * another organization must give the same answer. And the columns follow the content version:
 * an import that changes offers is seen by the next request.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { OfferColumnsCache } from '../../../../src/features/offers/facets/columns-cache.js';
import { columnsCanAnswer } from '../../../../src/features/offers/facets/columns.js';
import { resolveOfferField, type OfferFacetsRequest, type OfferFacetsView, type OfferFilter } from '../../../../src/features/offers/query/language.js';
import type { WebsiteScope } from '../../../../src/features/access/scope.js';
import { offerFacets, offerFacetsSql } from '../../../../src/features/offers/facets/facets-read.js';
import { loadOfferColumns } from '../../../../src/features/offers/facets/columns-read.js';
import { bumpContentVersion } from '../../../../src/features/content-version/write.js';
import { buildTestApp, type TestApp } from '../../../helpers/app.js';
import { scaled } from '../../../helpers/scale.js';
import { AGENTS, BRANCHES, CITY_POOL, generateWorld, insertWorld, INVESTMENTS, MARKET_POOL, OFFER_TYPE_POOL, PRICE_POOL, WORLD_ORG } from '../../../helpers/offer-world.js';

let t: TestApp;
const world = generateWorld(420, 20261125);

beforeAll(async () => {
  t = await buildTestApp({ seed: false });
  await insertWorld(t.db.db, world);
});

const field = (name: string) => resolveOfferField(name)!;

// ---------------------------------------------------------------------------------------------
// Generators: values the world holds, look-alikes it does not, and every operator of each kind.

const NUMBER_VALUES: Record<string, fc.Arbitrary<number>> = {
  price: fc.oneof(fc.constantFrom(...PRICE_POOL, 420000.0001, 0), fc.integer({ min: 0, max: 1_300_000 })),
  price_per_meter: fc.integer({ min: 0, max: 20_000 }),
  property_size: fc.integer({ min: 0, max: 200 }),
  rooms: fc.integer({ min: 0, max: 7 }),
};
const CODED_VALUES: Record<string, fc.Arbitrary<string | boolean>> = {
  address_city: fc.constantFrom(...CITY_POOL, 'krakow', 'Nowhere', ''),
  address_district: fc.constantFrom('Mokotów', 'Wola'),
  market_type: fc.constantFrom(...MARKET_POOL, 'primary'),
  offer_type: fc.constantFrom(...OFFER_TYPE_POOL, 'LAND_SALES'),
  has_balcony: fc.boolean(),
  agent_id: fc.constantFrom(...AGENTS, AGENTS[0]!.toUpperCase(), 'd2000000-0000-4000-8000-00000000000f'),
  branch_id: fc.constantFrom(...BRANCHES, BRANCHES[1]!.toUpperCase()),
  investment_id: fc.constantFrom(...INVESTMENTS),
};

const numberFilter = (name: string) => {
  const value = NUMBER_VALUES[name]!;
  return fc.oneof(
    fc.tuple(fc.constantFrom('eq', 'ne', 'gt', 'gte', 'lt', 'lte'), value).map(([operator, v]) => ({ operator, value: v })),
    fc.tuple(value, value).map(([a, b]) => ({ operator: 'between', value: [a, b] })),
    fc.tuple(fc.constantFrom('in', 'not_in'), fc.array(value, { minLength: 1, maxLength: 4 })).map(([operator, v]) => ({ operator, value: v })),
    fc.boolean().map((v) => ({ operator: 'is_null', value: v })),
  );
};
const codedFilter = (name: string) => {
  const value = CODED_VALUES[name]!;
  return fc.oneof(
    fc.tuple(fc.constantFrom('eq', 'ne'), value).map(([operator, v]) => ({ operator, value: v })),
    ...(name === 'has_balcony'
      ? []
      : [fc.tuple(fc.constantFrom('in', 'not_in'), fc.array(value, { minLength: 1, maxLength: 4 })).map(([operator, v]) => ({ operator, value: v }))]),
    fc.boolean().map((v) => ({ operator: 'is_null', value: v })),
  );
};

const filterArb: fc.Arbitrary<OfferFilter> = fc
  .constantFrom(...Object.keys(NUMBER_VALUES), ...Object.keys(CODED_VALUES))
  .chain((name) => (name in NUMBER_VALUES ? numberFilter(name) : codedFilter(name)).map((f) => ({ field: field(name), ...f }) as OfferFilter));

const FACET_FIELDS = ['address_city', 'address_district', 'market_type', 'offer_type', 'has_balcony', 'rooms', 'agent_id', 'branch_id', 'investment_id'];
const STATS_FIELDS = ['price', 'price_per_meter', 'property_size', 'rooms'];

const requestArb: fc.Arbitrary<OfferFacetsRequest> = fc.record({
  filters: fc.array(filterArb, { maxLength: 5 }),
  facets: fc.subarray(FACET_FIELDS, { minLength: 1 }).map((names) => names.map(field)),
  stats: fc.subarray(STATS_FIELDS).map((names) => names.map(field)),
  facetSize: fc.constantFrom(1, 2, 3, 100),
});

const scopeArb: fc.Arbitrary<WebsiteScope | null> = fc.option(
  fc
    .record(
      {
        investment_ids: fc.subarray(INVESTMENTS, { minLength: 1 }),
        branch_ids: fc.subarray(BRANCHES, { minLength: 1 }),
        offer_types: fc.subarray([...OFFER_TYPE_POOL], { minLength: 1 }),
      },
      { requiredKeys: [] },
    )
    .map((scope) => scope as WebsiteScope),
  { nil: null },
);

/** Equal answers; a mean may differ in its last bits (SQL adds in scan order, the columns exactly). */
function expectSameAnswer(columns: OfferFacetsView, statement: OfferFacetsView): void {
  const withoutAvg = (view: OfferFacetsView) => ({ ...view, stats: Object.fromEntries(Object.entries(view.stats).map(([name, s]) => [name, { ...s, avg: null }])) });
  expect(withoutAvg(columns)).toEqual(withoutAvg(statement));
  for (const [name, s] of Object.entries(statement.stats)) {
    const avg = columns.stats[name]!.avg;
    if (s.avg === null) expect(avg).toBeNull();
    else expect(Math.abs((avg as number) - (s.avg as number))).toBeLessThanOrEqual(Math.abs(s.avg as number) * 1e-12);
  }
}

describe('facets from columns against the SQL statement', () => {
  it('gives the same total, counts, order and statistics for any column request, scope and investment', async () => {
    const cache = new OfferColumnsCache(64 * 1024 * 1024);
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(requestArb, scopeArb, fc.option(fc.constantFrom(...INVESTMENTS), { nil: undefined }), async (request, scope, investmentId) => {
        expect(columnsCanAnswer(request)).toBe(true);
        const visibility = { organizationId: WORLD_ORG, scope };
        const full = { ...request, investmentId };
        const statement = await offerFacetsSql(t.db.db, visibility, full);
        const columns = await offerFacets(t.db.db, visibility, full, cache);
        expectSameAnswer(columns, statement);
        if (statement.total > 0) nonEmpty++;
      }),
      { numRuns: scaled('FACET_COLUMN_RUNS', 300, 3000) },
    );
    // Not vacuous: many requests match offers (seen: about half).
    expect(nonEmpty).toBeGreaterThan(30);
  });

  it('leaves search, geography, contains and other fields to SQL', () => {
    const base = { filters: [], facets: [field('address_city')], stats: [], facetSize: 100 };
    expect(columnsCanAnswer(base)).toBe(true);
    expect(columnsCanAnswer({ ...base, search: 'balkon' })).toBe(false);
    expect(columnsCanAnswer({ ...base, filters: [{ field: field('address_city'), operator: 'contains', value: 'kra' }] })).toBe(false);
    expect(columnsCanAnswer({ ...base, filters: [{ field: field('location'), operator: 'within_radius', value: { lat: 52, lon: 21, km: 3 } }] })).toBe(false);
    expect(columnsCanAnswer({ ...base, filters: [{ field: field('year_built'), operator: 'eq', value: 1990 }] })).toBe(false);
    expect(columnsCanAnswer({ ...base, facets: [field('heating')] })).toBe(false);
    expect(columnsCanAnswer({ ...base, stats: [field('created_at')] })).toBe(false);
  });
});

describe('the columns follow the content version', () => {
  const request: OfferFacetsRequest = { filters: [], facets: [field('address_city')], stats: [field('price')], facetSize: 100 };
  const visibility = { organizationId: WORLD_ORG, scope: null };

  it('reads an organization once per version, and again after a change', async () => {
    let loads = 0;
    const cache = new OfferColumnsCache(64 * 1024 * 1024);
    const counting = {
      get: (organizationId: string, version: string) =>
        cache.get(organizationId, version, (org, maxRows) => {
          loads++;
          return loadOfferColumns(t.db.db, org, maxRows);
        }),
    };
    const [version] = (await sql<{ v: string }>`select content_version::text as v from content_state`.execute(t.db.db)).rows.map((r) => r.v);
    // Concurrent requests share one load.
    const first = await Promise.all([counting.get(WORLD_ORG, version!), counting.get(WORLD_ORG, version!), counting.get(WORLD_ORG, version!)]);
    expect(loads).toBe(1);
    expect(first[0]).toBe(first[2]);
    await counting.get(WORLD_ORG, version!);
    expect(loads).toBe(1);

    // An offer leaves the organization's active set in a transaction that bumps the version, as an import does.
    const before = await offerFacets(t.db.db, visibility, request, cache);
    const target = world.find((o) => o.organization_id === WORLD_ORG && o.is_active && o.data.address_city === 'Gdańsk')!;
    await t.db.db.transaction().execute(async (trx) => {
      await sql`update offers set is_active = false where offer_id = ${target.offer_id}`.execute(trx);
      await bumpContentVersion(trx);
    });
    try {
      const after = await offerFacets(t.db.db, visibility, request, cache);
      expect(after.total).toBe(before.total - 1);
      const gdansk = (view: OfferFacetsView) => view.facets.address_city!.find((c) => c.value === 'Gdańsk')?.count ?? 0;
      expect(gdansk(after)).toBe(gdansk(before) - 1);
      expectSameAnswer(after, await offerFacetsSql(t.db.db, visibility, request));
    } finally {
      await t.db.db.transaction().execute(async (trx) => {
        await sql`update offers set is_active = true where offer_id = ${target.offer_id}`.execute(trx);
        await bumpContentVersion(trx);
      });
    }
    expectSameAnswer(await offerFacets(t.db.db, visibility, request, cache), before);
  });

  it('answers by SQL when the organization does not fit the budget', async () => {
    const tiny = new OfferColumnsCache(4096);
    expect(tiny.maxRows).toBeLessThan(world.length);
    let loads = 0;
    const answer = await offerFacets(t.db.db, visibility, request, {
      get: (org: string, version: string) =>
        tiny.get(org, version, (o, maxRows) => {
          loads++;
          return loadOfferColumns(t.db.db, o, maxRows);
        }),
    } as unknown as OfferColumnsCache);
    expectSameAnswer(answer, await offerFacetsSql(t.db.db, visibility, request));
    expect(loads).toBe(1);
    expect(await tiny.get(WORLD_ORG, '0', () => Promise.reject(new Error('not read again')))).toBeUndefined();
  });
});
