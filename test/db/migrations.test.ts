import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateDownAll, migrateToLatest } from '../../src/db/migrator.js';
import * as searchLexemes from '../../src/db/migrations/2026_11_26_0015_search_lexemes.js';
import { createTestDb } from '../helpers/db.js';
import { insertFixture } from '../helpers/fixtures.js';

describe('migrations', () => {
  it('apply, undo and apply again on an empty database', async () => {
    const t = await createTestDb({ migrate: false });
    try {
      await migrateToLatest(t.db);
      await migrateToLatest(t.db); // idempotent
      const tables = await sql<{ table_name: string }>`
        select table_name from information_schema.tables
        where table_schema = 'public' and table_name not like 'kysely_%' order by table_name`.execute(t.db);
      expect(tables.rows.map((r) => r.table_name)).toEqual([
        'agents', 'api_keys', 'branches', 'content_state', 'ecs_routines', 'investments', 'offer_prices', 'offers', 'organizations', 'photo_offers_unqueued', 'photo_settings', 'photo_sources', 'search_lexemes', 'slugs',
        'transparency_datasets', 'webhook_deliveries', 'webhook_endpoints', 'website_changes', 'website_feeds', 'websites',
      ]);
      await migrateDownAll(t.db);
      const after = await sql<{ n: number }>`
        select count(*)::int as n from information_schema.tables
        where table_schema = 'public' and table_name not like 'kysely_%'`.execute(t.db);
      expect(after.rows[0]!.n).toBe(0);
      await migrateToLatest(t.db);
    } finally {
      await t.destroy();
    }
  });

  it('gathers no planner statistics for the offers\' JSON and search vectors (migration 0013)', async () => {
    const t = await createTestDb();
    try {
      await insertFixture(t.db);
      await sql`analyze offers`.execute(t.db);
      const { rows } = await sql<{ attname: string }>`
        select attname::text from pg_stats where schemaname = 'public' and tablename = 'offers' order by attname`.execute(t.db);
      const analyzed = rows.map((r) => r.attname);
      expect(analyzed).toEqual(expect.arrayContaining(['organization_id', 'price', 'address_city', 'is_active']));
      for (const skipped of ['offer_data', 'offer_data_json', 'search_vector', 'search_head']) expect(analyzed).not.toContain(skipped);
    } finally {
      await t.destroy();
    }
  });

  it('fills the search vocabulary with every word of the stored offers (migration 0015)', async () => {
    const t = await createTestDb();
    try {
      await insertFixture(t.db);
      const words = async () =>
        (
          await sql<{ w: string }>`select distinct w from offers, unnest(tsvector_to_array(search_vector)) as w order by 1`.execute(t.db)
        ).rows.map((r) => r.w);
      const vocabulary = async () =>
        (await sql<{ w: string }>`select lexeme as w from search_lexemes order by 1`.execute(t.db)).rows.map((r) => r.w);
      const stored = await words();
      expect(stored.length).toBeGreaterThan(30);
      // As a database that had offers before the table existed.
      await searchLexemes.down(t.db);
      await searchLexemes.up(t.db);
      expect(await vocabulary()).toEqual(stored);
    } finally {
      await t.destroy();
    }
  });

  it('hands timestamps back as UTC text with microseconds', async () => {
    const t = await createTestDb();
    try {
      const r = await sql<{ ts: string }>`select '2025-01-31T11:15:00.123456+02:00'::timestamptz as ts`.execute(t.db);
      expect(r.rows[0]!.ts).toBe('2025-01-31 09:15:00.123456+00');
    } finally {
      await t.destroy();
    }
  });
});
