/**
 * EXPLAIN (ANALYZE, BUFFERS) of the benchmark's list queries, built by the service's own query code
 * (src/features/offers/read.ts, and the change feed's page, src/features/change-feed/read.ts), on a database holding an imported catalog:
 *
 *   npx tsx bench/catalog.ts --offers 100000 --out /tmp/catalog.ndjson
 *   createdb plans && DATABASE_URL=postgres://postgres@127.0.0.1:5432/plans npx tsx src/cli/index.ts import /tmp/catalog.ndjson
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/plans npx tsx bench/explain-plans.ts [default|filtered|deep|investment|changes-first|changes-since]
 *
 * Read-only (the import brought the schema up to date). docs/performance.md shows the plans abridged.
 * SEARCH="taras przym" explains another search-box query. PGOPTIONS_EXTRA=' -c random_page_cost=1.1' tries other planner settings for the session.
 */
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import pg from 'pg';
import type { Database } from '../src/db/database.js';
import { DISTANCE, resolveOfferField, type OfferFilter } from '../src/features/offers/query/language.js';
import { readChangesPage, type ChangesPageQuery } from '../src/features/change-feed/read.js';
import { offerFacets } from '../src/features/offers/facets/facets-read.js';
import { OfferReader, type OfferListQuery } from '../src/features/offers/read.js';

const url = process.env.DATABASE_URL;
if (!url) {
  process.stderr.write('DATABASE_URL must name a database with an imported catalog\n');
  process.exit(2);
}
const pool = new pg.Pool({ connectionString: url, max: 2, options: '-c TimeZone=UTC' + (process.env.PGOPTIONS_EXTRA ?? '') });
const captured: CompiledQuery[] = [];
const db = new Kysely<Database>({
  dialect: new PostgresDialect({ pool }),
  log: (event) => {
    if (event.level === 'query') captured.push(event.query);
  },
});

const field = (name: string) => resolveOfferField(name)!;
const { rows: orgs } = await pool.query<{ organization_id: string; city: string }>(`
  select organization_id,
    (select address_city from offers o where o.organization_id = x.organization_id and o.is_active
      group by 1 order by count(*) desc limit 1) as city
  from organizations x order by organization_id limit 1`);
const org = orgs[0]!;
const { rows: investments } = await pool.query<{ investment_id: string }>(
  `select investment_id from investments where organization_id = $1 order by investment_id limit 1`,
  [org.organization_id],
);

const visibility = { organizationId: org.organization_id };
/** The middle of the organization's offers, for the radius case. */
const { rows: centers } = await pool.query<{ lat: number; lon: number }>(
  `select avg(location_latitude) as lat, avg(location_longitude) as lon from offers
   where organization_id = $1 and is_active and address_city = $2`,
  [org.organization_id, org.city],
);
const center = { lat: Number(centers[0]!.lat), lon: Number(centers[0]!.lon) };
const reader = new OfferReader(db);
const base = { page: 1, size: 50, sort: undefined, include: new Set<never>() };
const cases: Record<string, OfferListQuery> = {
  default: { ...base, filters: [] },
  filtered: {
    ...base,
    filters: [
      { field: field('price'), operator: 'between', value: [300_000, 900_000] },
      { field: field('rooms'), operator: 'in', value: [2, 3] },
      { field: field('address_city'), operator: 'eq', value: org.city },
      { field: field('has_balcony'), operator: 'eq', value: true },
    ] as OfferFilter[],
    sort: { field: field('price'), direction: 'asc' },
  },
  deep: {
    ...base,
    filters: [{ field: field('price'), operator: 'between', value: [50_000, 8_000_000] }] as OfferFilter[],
    sort: { field: field('price'), direction: 'desc' },
    page: 100,
  },
  ...(investments[0] ? { investment: { ...base, filters: [], investmentId: investments[0].investment_id } } : {}),
  // Search extensions (E1, E2): a search box query by relevance, a radius sorted by distance.
  search: { ...base, filters: [], search: process.env.SEARCH ?? 'mieszkanie balkon' },
  radius: {
    ...base,
    filters: [{ field: field('location'), operator: 'within_radius', value: { ...center, km: 3 } }] as OfferFilter[],
    sort: { field: DISTANCE, direction: 'asc', from: center },
  },
};

/** The benchmark's sidebar (bench/scenarios.ts, facetBodies): 4 facets and 2 statistics under 3 filters. */
const facets = {
  filters: [
    { field: field('address_city'), operator: 'eq', value: org.city },
    { field: field('price'), operator: 'between', value: [300_000, 900_000] },
    { field: field('rooms'), operator: 'in', value: [2, 3] },
  ] as OfferFilter[],
  facets: ['address_city', 'rooms', 'market_type', 'has_balcony'].map(field),
  stats: ['price', 'property_size'].map(field),
  facetSize: 100,
};

async function run(name: string): Promise<string> {
  if (name === 'facets') {
    const view = await offerFacets(db, visibility, facets);
    return `total ${view.total}, ${Object.values(view.facets).flat().length} facet values`;
  }
  const page = await reader.list(visibility, cases[name]!);
  return `total ${page.total}, ${page.items.length} items`;
}

async function explainCaptured(): Promise<void> {
  for (const compiled of captured) {
    process.stdout.write(`--- ${compiled.sql.replace(/\s+/g, ' ')}\n    parameters ${JSON.stringify(compiled.parameters)}\n`);
    const plan = await pool.query(`explain (analyze, buffers) ${compiled.sql}`, compiled.parameters as unknown[]);
    for (const row of plan.rows as Record<string, string>[]) process.stdout.write(`    ${row['QUERY PLAN']}\n`);
  }
}

const only = process.argv[2];
for (const name of [...Object.keys(cases), 'facets']) {
  if (only && only !== name) continue;
  captured.length = 0;
  process.stdout.write(`\n=== ${name}: ${await run(name)}\n`);
  await explainCaptured();
}

// The change feed (E5): a first sync's first page of 1,000, and a page from a cursor in the middle.
const { rows: feeds } = await pool.query<{ website_id: string; middle: string }>(`
  select website_id, (percentile_disc(0.5) within group (order by seq))::text as middle
  from website_changes where website_id = (select website_id from websites where organization_id = $1 order by website_id limit 1)
  group by website_id`, [org.organization_id]);
const changeCases: Record<string, ChangesPageQuery> = {
  'changes-first': { since: undefined, limit: 1000, cursors: { form: 'sync-start' } },
  'changes-since': { since: feeds[0]?.middle ?? '0', limit: 1000, cursors: { form: 'plain' } },
};
for (const [name, query] of Object.entries(changeCases)) {
  if ((only && only !== name) || !feeds[0]) continue;
  captured.length = 0;
  const page = await readChangesPage(db, feeds[0].website_id, query);
  process.stdout.write(`\n=== ${name}: ${page.changesJson.length} characters of JSON, has_more ${page.hasMore}\n`);
  await explainCaptured();
}
await db.destroy();
