import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { hashKey } from '../../src/features/access/model.js';
import { buildDemoBundle, loadDemo } from '../../src/demo/index.js';
import { OFFER_DATA_FIELDS } from '../../src/contract/offer-fields.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { DEMO_PUBLIC_URL } from '../../src/demo/index.js';
import { datasetStatuses } from '../../src/features/transparency/write.js';
import { readDatasetOffers } from '../../src/features/transparency/read.js';
import { endOfWarsawDay, warsawDay } from '../../src/features/transparency/model.js';

let first: TestDb;
let second: TestDb;
let demo: Awaited<ReturnType<typeof loadDemo>>;
beforeAll(async () => {
  first = await createTestDb();
  second = await createTestDb();
  demo = await loadDemo(first.db);
});
afterAll(async () => {
  await first.destroy();
  await second.destroy();
});

/** Everything about offers that does not depend on when they were imported. */
async function offersOf(t: TestDb) {
  const result = await sql`
    select offer_id, organization_id, external_id, agent_id, branch_id, investment_id, is_active, version, created_at, offer_data_json
    from offers order by offer_id`.execute(t.db);
  return result.rows;
}

describe('demo data set', () => {
  it('loads one agency with its website, branches, agents, investments and offers', async () => {
    const count = async (table: 'organizations' | 'websites' | 'branches' | 'agents' | 'investments' | 'offers') =>
      Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(first.db)).rows[0]!.n);
    expect(await count('organizations')).toBe(1);
    expect(await count('websites')).toBe(1);
    expect(await count('branches')).toBe(3);
    expect(await count('agents')).toBe(12);
    expect(await count('investments')).toBe(3);
    expect(await count('offers')).toBe(300);
    const inactiveInvestments = await first.db.selectFrom('investments').select('name').where('is_active', '=', false).execute();
    expect(inactiveInvestments).toHaveLength(1);
    const cities = await sql<{ city: string }>`select distinct address_city as city from offers order by 1`.execute(first.db);
    expect(cities.rows.map((r) => r.city)).toEqual(['Gdańsk', 'Kraków', 'Warszawa', 'Wrocław']);
    const inactive = await sql<{ n: number }>`select count(*)::int as n from offers where not is_active`.execute(first.db);
    expect(inactive.rows[0]!.n).toBeGreaterThan(0);
    expect(inactive.rows[0]!.n).toBeLessThan(30);
    const linked = await sql<{ n: number }>`select count(*)::int as n from offers where investment_id is not null`.execute(first.db);
    expect(linked.rows[0]!.n).toBeGreaterThan(30);
  });

  it('gives its website URL templates, and every offer and investment a slug (E12)', async () => {
    const website = await sql<{ urls: unknown }>`select urls from websites where website_id = ${demo.website_id}`.execute(first.db);
    expect(website.rows[0]!.urls).toEqual({
      offer: 'https://www.wislana.example/oferta/{slug}',
      investment: 'https://www.wislana.example/inwestycja/{slug}',
    });
    const unslugged = await sql<{ n: number }>`
      select (select count(*) from offers where slug is null) + (select count(*) from investments where slug is null) as n`.execute(first.db);
    expect(Number(unslugged.rows[0]!.n)).toBe(0);
  });

  it('has plausible, complete offers', async () => {
    const rows = await first.db.selectFrom('offers').select(['offer_data_json', 'agent_id', 'branch_id']).execute();
    const mayBeEmpty = new Set(['building_stage', 'building_material', 'roof_material', 'windows_material', 'levels', 'bathroom_count', 'has_basement', 'address_flat_number', 'location_approximation', 'film_url', 'virtual_walk_url']);
    const everNull = new Set<string>();
    for (const row of rows) {
      const d = JSON.parse(row.offer_data_json) as Record<string, unknown>;
      expect(Object.keys(d)).toEqual(OFFER_DATA_FIELDS.map((f) => f.name));
      for (const [field, value] of Object.entries(d)) if (value === null) everNull.add(field);
      expect(d.price_currency).toBe('PLN');
      expect(Math.abs((d.price as number) - (d.price_per_meter as number) * (d.property_size as number))).toBeLessThan(0.01);
      expect((d.photos_urls as string[]).length).toBeGreaterThanOrEqual(5);
      expect((d.photos_urls as string[]).length).toBeLessThanOrEqual(15);
      expect((d.floor_plan_urls as string[]).length).toBeGreaterThanOrEqual(1);
      expect(d.description).toMatch(/^<p>/);
      expect(typeof d.description_clean_text).toBe('string');
      expect(row.agent_id).not.toBeNull();
      expect(row.branch_id).not.toBeNull();
    }
    // Only the fields the interface marks "may be empty" are ever null.
    expect([...everNull].filter((f) => !mayBeEmpty.has(f))).toEqual([]);
    expect(everNull.size).toBeGreaterThan(3);
  });

  it('prints a working key', async () => {
    expect(demo.key).toMatch(/^ecs_/);
    const row = await first.db.selectFrom('api_keys').selectAll().where('key_id', '=', demo.key_id).executeTakeFirstOrThrow();
    expect(row.key_sha256).toBe(hashKey(demo.key));
    expect(row.website_id).toBe(demo.website_id);
    expect(row.is_active).toBe(true);
  });

  it('shows prices over time and a price-transparency dataset (extension E10)', async () => {
    const reduced = await sql<{ n: number; history: number }>`
      select count(*)::int as n, (select count(*)::int from offer_prices p where p.offer_id = any(array_agg(o.offer_id))) as history
      from offers o where o.price_change_pct < 0`.execute(first.db);
    expect(reduced.rows[0]!.n).toBeGreaterThanOrEqual(5);
    expect(reduced.rows[0]!.history).toBe(2 * reduced.rows[0]!.n);
    const days = await sql<{ first: string }>`select min(valid_from)::text as first from offer_prices`.execute(first.db);
    expect(Date.now() - Date.parse(days.rows[0]!.first.replace(' ', 'T').replace(/\+00$/, 'Z'))).toBeGreaterThan(30 * 86_400_000);
    const status = await datasetStatuses(first.db);
    expect(status).toEqual([expect.objectContaining({ enabled: true, public_url: DEMO_PUBLIC_URL, missing: [] })]);
    const located = await sql<{ n: number }>`select count(*)::int as n from investments where location ->> 'postcode' ~ '^[0-9]{2}-[0-9]{3}$'`.execute(first.db);
    expect(located.rows[0]!.n).toBe(3);
    const offered = await readDatasetOffers(first.db as never, status[0]!.organization_id, endOfWarsawDay(warsawDay(new Date())));
    expect(offered.length).toBeGreaterThan(10);
  });

  it('is deterministic: two loads into two databases give identical offers', async () => {
    const other = await loadDemo(second.db);
    expect(other.website_id).toBe(demo.website_id);
    expect(other.key).not.toBe(demo.key);
    expect(await offersOf(second)).toEqual(await offersOf(first));
    expect(buildDemoBundle()).toEqual(buildDemoBundle());
  });

  it('loading it again changes nothing but adds a key', async () => {
    const before = await offersOf(first);
    await loadDemo(first.db);
    expect(await offersOf(first)).toEqual(before);
    const keys = await first.db.selectFrom('api_keys').select('key_id').execute();
    expect(keys.length).toBeGreaterThanOrEqual(2);
  });
});
