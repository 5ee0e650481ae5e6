/**
 * Random filter + sort + pagination requests over a generated world of a few hundred offers: the
 * service's page (ids in order, total, pages) must equal the reference evaluation (reference.ts).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, post, type TestApp } from '../../../helpers/app.js';
import { scaled } from '../../../helpers/scale.js';
import {
  AGENTS,
  BRANCHES,
  CITY_POOL,
  DAY_POOL,
  EXTERNAL_POOL,
  generateWorld,
  HEATING_POOL,
  INSTANT_POOL,
  PRICE_CHANGE_POOL,
  insertWorld,
  INVESTMENTS,
  MARKET_POOL,
  microsToIso,
  microsToOffset,
  OFFER_TYPE_POOL,
  PRICE_POOL,
  RENT_POOL,
  TITLE_POOL,
  WORLD_KEY,
  WORLD_ORG,
  type WorldOffer,
} from '../../../helpers/offer-world.js';
import { evaluate, REF_FIELDS, SORTABLE, type RefFilter, type RefQuery } from '../../../helpers/offer-reference.js';
import { OPERATORS_BY_KIND } from '../../../../src/features/offers/query/operators.js';

/** A filter as sent (JSON) and as the reference reads it. */
interface GeneratedFilter {
  sent: { field: string; operator: string; value: unknown };
  ref: RefFilter;
}

/** A value generator per field: [as sent, as the reference reads it]. */
type ValueArb = fc.Arbitrary<[unknown, unknown]>;

const same = <T>(arb: fc.Arbitrary<T>): ValueArb => arb.map((v) => [v, v] as [unknown, unknown]);

const instantArb: ValueArb = fc
  .tuple(fc.constantFrom(...INSTANT_POOL, ...DAY_POOL), fc.constantFrom(-1n, 0n, 0n, 1n), fc.constantFrom(0, 0, 120, -330))
  .map(([micros, nudge, offset]) => {
    const at = micros + nudge;
    return [offset === 0 ? microsToIso(at) : microsToOffset(at, offset), at] as [unknown, unknown];
  });

const uuidArb = (pool: readonly string[]): ValueArb =>
  fc
    .tuple(fc.constantFrom(...pool, 'd9000000-0000-4000-8000-000000000000'), fc.boolean())
    .map(([id, upper]) => [upper ? id.toUpperCase() : id, id] as [unknown, unknown]);

const VALUES: Record<string, ValueArb> = {
  offer_id: uuidArb(['d0000000-0000-4000-8000-000000000000']),
  external_id: same(fc.constantFrom(...EXTERNAL_POOL, 'A', 'a', 'crm', '-1', 'Ż')),
  created_at: instantArb,
  updated_at: instantArb,
  version: same(fc.integer({ min: 0, max: 5 })),
  agent_id: uuidArb(AGENTS),
  branch_id: uuidArb(BRANCHES),
  investment_id: uuidArb(INVESTMENTS),
  price_changed_at: instantArb,
  price_change_pct: same(fc.constantFrom(...PRICE_CHANGE_POOL, 0, -100, -12.49, 7.3)),
  price: same(fc.constantFrom(...PRICE_POOL, 0, 500000, -1, 1e9, 0.3)),
  price_per_meter: same(fc.integer({ min: -10, max: 21000 })),
  rooms: same(fc.integer({ min: 0, max: 7 })),
  year_built: same(fc.integer({ min: 1940, max: 2030 })),
  administrative_rent: same(fc.constantFrom(...RENT_POOL, 0.30000000000000004, 450.49, 1e-9)),
  market_type: same(fc.constantFrom(...MARKET_POOL, 'primary', 'OTHER')),
  offer_type: same(fc.constantFrom(...OFFER_TYPE_POOL, 'PLOT_SALES')),
  heating: same(fc.constantFrom(...HEATING_POOL, 'NONE')),
  address_city: same(fc.constantFrom(...CITY_POOL, 'krak', 'KRAKÓ', 'ó', 'Ó', '%', '_', '\\', 'a', '', 'ŁÓDŹ', '100%')),
  title: same(fc.constantFrom(...TITLE_POOL, 'apart', '50%', '_z_', 'ŻOL', 'o')),
  has_balcony: same(fc.boolean()),
  has_elevator: same(fc.boolean()),
  available_from_date: instantArb,
  date_posted: instantArb,
  photos_urls: same(fc.constant(null)),
};

const OPERATORS: Record<string, string[]> = {
  number: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'not_in', 'is_null'],
  datetime: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'not_in', 'is_null'],
  text: ['eq', 'ne', 'in', 'not_in', 'contains', 'starts_with', 'is_null'],
  enum: ['eq', 'ne', 'in', 'not_in', 'is_null'],
  uuid: ['eq', 'ne', 'in', 'not_in', 'is_null'],
  boolean: ['eq', 'ne', 'is_null'],
  array: ['is_null'],
};

const filterArb: fc.Arbitrary<GeneratedFilter> = fc
  .constantFrom(...Object.keys(REF_FIELDS))
  .chain((field) => {
    const { kind, top } = REF_FIELDS[field]!;
    return fc.tuple(fc.constant(field), fc.constantFrom(...OPERATORS[kind]!), fc.boolean()).chain(([name, operator, prefixed]) => {
      // offer_data fields may be named with the prefix.
      const sentField = !top && prefixed ? `offer_data.${name}` : name;
      const values = VALUES[name]!;
      let value: fc.Arbitrary<[unknown, unknown]>;
      if (operator === 'is_null') value = same(fc.boolean());
      else if (operator === 'between') value = fc.tuple(values, values).map(([a, b]) => [[a[0], b[0]], [a[1], b[1]]] as [unknown, unknown]);
      else if (operator === 'in' || operator === 'not_in') {
        value = fc.array(values, { minLength: 1, maxLength: 4 }).map((vs) => [vs.map((v) => v[0]), vs.map((v) => v[1])] as [unknown, unknown]);
      } else value = values;
      return value.map(([sent, ref]) => ({
        sent: { field: sentField, operator, value: sent },
        ref: { field: name, operator, value: ref as RefFilter['value'] },
      }));
    });
  });

const requestArb = fc.record({
  filters: fc.array(filterArb, { maxLength: 4 }),
  sort: fc.option(fc.record({ field: fc.constantFrom(...SORTABLE), direction: fc.constantFrom<'asc' | 'desc'>('asc', 'desc') }), { nil: undefined }),
  page: fc.integer({ min: 1, max: 6 }),
  size: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 100 })),
  investment: fc.option(fc.constantFrom(...INVESTMENTS, 'd1000000-0000-4000-8000-0000000000ff'), { nil: undefined, freq: 4 }),
});

describe('offer queries against a reference evaluation', () => {
  let t: TestApp;
  let world: WorldOffer[];
  beforeAll(async () => {
    t = await buildTestApp({ seed: false });
    world = generateWorld();
    await insertWorld(t.db.db, world);
  });
  afterAll(() => t.destroy());

  it('generates every operator the service takes for each kind of field (a new operator joins the property)', () => {
    expect(OPERATORS).toEqual({
      number: OPERATORS_BY_KIND.number,
      datetime: OPERATORS_BY_KIND.datetime,
      text: OPERATORS_BY_KIND.text,
      enum: OPERATORS_BY_KIND.enum,
      uuid: OPERATORS_BY_KIND.uuid,
      boolean: OPERATORS_BY_KIND.boolean,
      array: OPERATORS_BY_KIND.url_list,
    });
    // The world's integer and date-time fields are of these kinds (REF_FIELDS calls them number / datetime).
    expect(OPERATORS_BY_KIND.integer).toEqual(OPERATORS_BY_KIND.number);
    expect(OPERATORS_BY_KIND.datetime_ms).toEqual(OPERATORS_BY_KIND.datetime);
    expect(OPERATORS_BY_KIND.datetime_offset).toEqual(OPERATORS_BY_KIND.datetime);
  });

  it('the world has what the property needs (ties, nulls, inactive and foreign offers)', () => {
    const active = world.filter((o) => o.organization_id === WORLD_ORG && o.is_active);
    expect(active.length).toBeGreaterThan(200);
    expect(new Set(active.map((o) => o.created_at)).size).toBeLessThan(active.length);
    expect(active.some((o) => o.data.price === null)).toBe(true);
    expect(world.some((o) => !o.is_active)).toBe(true);
    expect(world.some((o) => o.organization_id !== WORLD_ORG)).toBe(true);
  });

  it('answers every random request exactly as the reference does', async () => {
    // Guards against a vacuous property: many requests must match something.
    let withItems = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(requestArb, async (request) => {
        const body = {
          pagination: { page: request.page, size: request.size },
          ...(request.sort ? { sorting: request.sort } : {}),
          filters: request.filters.map((f) => f.sent),
        };
        const url = request.investment ? `/api/v1/investments/${request.investment}/offers` : '/api/v1/offers';
        const res = await post(t, url, body, { key: WORLD_KEY });
        const knownInvestment = request.investment === undefined || INVESTMENTS.includes(request.investment);
        if (!knownInvestment) {
          expect(res.statusCode).toBe(404);
          return;
        }
        expect(res.statusCode, res.body).toBe(200);
        const page = res.json() as { items: { offer_id: string }[]; page: number; size: number; total: number; pages: number };
        const query: RefQuery = {
          filters: request.filters.map((f) => f.ref),
          page: request.page,
          size: request.size,
          ...(request.sort ? { sort: request.sort } : {}),
          ...(request.investment ? { investmentId: request.investment } : {}),
        };
        const expected = evaluate(world, WORLD_ORG, query);
        expect({ ids: page.items.map((o) => o.offer_id), total: page.total, pages: page.pages }).toEqual(expected);
        expect(page.page).toBe(request.page);
        expect(page.size).toBe(request.size);
        runs++;
        if (page.items.length > 0) withItems++;
      }),
      { numRuns: scaled('QUERY_RUNS', 100, 300) },
    );
    expect(withItems).toBeGreaterThan(runs / 4);
  });

  it('walks every page of a sort without overlap or gaps', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SORTABLE), fc.constantFrom<'asc' | 'desc'>('asc', 'desc'), fc.integer({ min: 7, max: 60 }), async (field, direction, size) => {
        const seen: string[] = [];
        let pages = 1;
        for (let page = 1; page <= pages; page++) {
          const res = await post(t, '/api/v1/offers', { pagination: { page, size }, sorting: { field, direction } }, { key: WORLD_KEY });
          const body = res.json() as { items: { offer_id: string }[]; pages: number; total: number };
          pages = body.pages;
          seen.push(...body.items.map((o) => o.offer_id));
        }
        const expected = evaluate(world, WORLD_ORG, { filters: [], sort: { field, direction }, page: 1, size: 10_000 });
        expect(seen).toEqual(expected.ids);
      }),
      { numRuns: scaled('QUERY_WALK_RUNS', 6, 15) },
    );
  });
});
