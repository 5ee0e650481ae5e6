/**
 * The SQL routines (src/db/routines/), as the migrator applies them after the migrations: on a
 * fresh database, and on one made before them, they replace the functions the migrations made with
 * identical ones; a routine is applied again when its text differs from the one recorded (and
 * every one after a migration ran), never otherwise; migrating twice does nothing; instances that
 * migrate at once on PostgreSQL wait for each other and apply each routine once. A function that an
 * index or a generated column is built on must be exactly what the migrations left, and every
 * function the live code calls has its routine.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../src/db/connect.js';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest, type MigrationSummary } from '../../src/db/migrator.js';
import { ROUTINES } from '../../src/db/routines/index.js';
import { recordWebsiteChanges } from '../../src/features/change-feed/write.js';
import { createTestDb, onPostgres } from '../helpers/db.js';
import { insertFixture, ORG_A, ORG_B } from '../helpers/fixtures.js';
import { createPostgresDatabase, pgClusterAvailable } from '../helpers/pg-cluster.js';
import { projectRoot } from '../helpers/processes.js';

const MIGRATIONS_DIR = path.join(projectRoot, 'src/db/migrations');
const MIGRATION_NAMES = fs.readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.ts')).map((f) => f.replace(/\.ts$/, '')).sort();
const ROUTINE_NAMES = ROUTINES.map((r) => r.name);
/** Kysely's migration lock, which the migrator holds from the first migration to the last routine. */
const MIGRATION_LOCK_ID = '3853314791062309107';

/**
 * Routines whose text differs from what the migrations left; the others are their migration's
 * text word for word. A routine may change without a migration only when nothing keeps its results
 * (no index, no generated column, no stored value), or when it gives the same results: name it
 * here when it does. ecs_slug: the same slugs in PL/pgSQL, which runs faster
 * (test/features/seo/slugs.property.test.ts compares it with its migration's SQL text).
 */
const DIFFER_FROM_MIGRATIONS: readonly string[] = ['ecs_slug'];

/**
 * The ordinary migrations alone, up to `last` (all of them by default), as the migrator runs them
 * but without its routines: a database made by a version before them, or a fresh one half way.
 */
async function runMigrationsOnly(db: Kysely<Database>, last = MIGRATION_NAMES.at(-1)!): Promise<void> {
  const migrations: Record<string, Migration> = {};
  for (const name of MIGRATION_NAMES) migrations[name] = (await import(pathToFileURL(path.join(MIGRATIONS_DIR, `${name}.ts`)).href)) as Migration;
  const result = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(last);
  if (result.error) throw result.error;
}

/** Every function of ours in the database, by name: its whole definition as the server writes it. */
async function functionDefinitions(db: Kysely<Database>): Promise<Record<string, string>> {
  const { rows } = await sql<{ name: string; definition: string }>`
    select p.proname::text as name, pg_get_functiondef(p.oid) as definition
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = current_schema() and p.proname like 'ecs\\_%'
    order by 1`.execute(db);
  return Object.fromEntries(rows.map((r) => [r.name, r.definition]));
}

/**
 * The functions whose results the database keeps: those an index, a generated column or default,
 * a constraint, a view or a trigger is built on (pg_depend), and the functions of ours they call.
 */
async function keptFunctions(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select distinct p.proname::text as name
    from pg_depend d join pg_proc p on p.oid = d.refobjid
    where d.refclassid = 'pg_proc'::regclass and p.proname like 'ecs\\_%'
      and d.classid in ('pg_class'::regclass, 'pg_attrdef'::regclass, 'pg_constraint'::regclass, 'pg_rewrite'::regclass, 'pg_trigger'::regclass)`.execute(db);
  const bodies = Object.fromEntries(ROUTINES.map((r) => [r.name, r.sql.slice(r.sql.indexOf('$$'))]));
  const kept = new Set(rows.map((r) => r.name));
  for (const name of kept) for (const called of bodies[name]?.match(/\becs_[a-z_]+(?=\()/g) ?? []) kept.add(called);
  return [...kept].sort();
}

async function recordedHashes(db: Kysely<Database>): Promise<Record<string, string>> {
  const rows = await db.selectFrom('ecs_routines').select(['name', 'sha256']).orderBy('name').execute();
  return Object.fromEntries(rows.map((r) => [r.name, r.sha256]));
}

const changeEntry = async (db: Kysely<Database>) =>
  (
    await sql<{ entry: string }>`select ecs_change_entry('offer', '00000000-0000-4000-8000-000000000001', 'upsert', 3,
      '2025-01-31 09:15:00.5+00') as entry`.execute(db)
  ).rows[0]!.entry;
const ENTRY = '","kind":"offer","id":"00000000-0000-4000-8000-000000000001","op":"upsert","version":3,"updated_at":"2025-01-31T09:15:00.500000Z"}';

const investmentInScope = async (db: Kysely<Database>) =>
  (await sql<{ in_scope: boolean }>`select ecs_investment_in_scope(null, null) as in_scope`.execute(db)).rows[0]!.in_scope;

describe('SQL routines', () => {
  it('replace the functions of a fresh database\'s migrations with identical ones, and record their texts', async () => {
    const t = await createTestDb({ migrate: false });
    await runMigrationsOnly(t.db);
    const made = await functionDefinitions(t.db);
    // Every routine's function is made by a migration first (whose down removes it), and none is left without a routine.
    expect(Object.keys(made)).toEqual([...ROUTINE_NAMES].sort());

    const summary = await migrateToLatest(t.db);
    expect(summary).toEqual({ migrations: [], routines: ROUTINE_NAMES });
    const current = await functionDefinitions(t.db);
    const differ = ROUTINE_NAMES.filter((name) => current[name] !== made[name]);
    expect(differ).toEqual(DIFFER_FROM_MIGRATIONS);
    // The one rule a routine cannot break: a function whose results an index or a column keeps is
    // changed by a migration that rebuilds them (and then the routine is that migration's text).
    const kept = await keptFunctions(t.db);
    expect(kept).toContain('ecs_organization_lexeme');
    expect(differ.filter((name) => kept.includes(name))).toEqual([]);

    expect(await recordedHashes(t.db)).toEqual(Object.fromEntries(ROUTINES.map((r) => [r.name, r.sha256]).sort()));
    expect(await migrateToLatest(t.db)).toEqual({ migrations: [], routines: [] });
  });

  it('upgrade a database made before them: the migration that records them, then every routine, its data untouched', async () => {
    // Columns later migrations add to offers (extensions E10, E12) are not data the upgrade could touch.
    const LATER_OFFER_COLUMNS = ['ancillary', 'price_changed_at', 'price_change_pct', 'slug', 'translations', 'translation_vector'];
    const t = await createTestDb({ migrate: false });
    const before = MIGRATION_NAMES.indexOf('2026_11_26_0016_sql_routines');
    await runMigrationsOnly(t.db, MIGRATION_NAMES[before - 1]);
    await insertFixture(t.db);
    await t.db.transaction().execute((trx) => recordWebsiteChanges(trx, [ORG_A, ORG_B]));
    const digest = async () =>
      (
        await sql<{ offers: string; changes: string }>`
          select (select md5(string_agg((to_jsonb(o) - ${LATER_OFFER_COLUMNS}::text[])::text, ',' order by offer_id)) from offers o) as offers,
                 (select md5(string_agg(c::text, ',' order by website_id, seq)) from website_changes c) as changes`.execute(t.db)
      ).rows[0]!;
    const made = await functionDefinitions(t.db);
    const data = await digest();
    // Functions that later migrations add (they are not the point here).
    const added = ['ecs_slug', 'ecs_text_search_config', 'ecs_translation_vector', 'ecs_translation_query'];

    expect(await migrateToLatest(t.db)).toEqual({ migrations: MIGRATION_NAMES.slice(before), routines: ROUTINE_NAMES });
    const after = await functionDefinitions(t.db);
    for (const name of added) delete after[name];
    expect(after).toEqual(made);
    expect(await digest()).toEqual(data);
    expect(await migrateToLatest(t.db)).toEqual({ migrations: [], routines: [] });
  });

  it('apply a routine again when its text differs from the one recorded, and no other', async () => {
    const t = await createTestDb();
    expect(await migrateToLatest(t.db)).toEqual({ migrations: [], routines: [] });
    expect(await changeEntry(t.db)).toBe(ENTRY);

    // Two functions changed in the database behind the migrator's back; only one routine's text
    // "changed" (its record no longer matches, as when its file is edited).
    await sql.raw(`CREATE OR REPLACE FUNCTION ecs_change_entry(kind text, entity_id uuid, op text, version integer, updated_at timestamptz)
      RETURNS text LANGUAGE sql STABLE AS $$ SELECT 'stale' $$`).execute(t.db);
    await sql.raw(`CREATE OR REPLACE FUNCTION ecs_investment_in_scope(scope jsonb, investment_id uuid) RETURNS boolean
      LANGUAGE sql IMMUTABLE AS $$ SELECT false $$`).execute(t.db);
    await t.db.updateTable('ecs_routines').set({ sha256: 'an older text' }).where('name', '=', 'ecs_change_entry').execute();
    await t.db.insertInto('ecs_routines').values({ name: 'ecs_no_longer_a_routine', sha256: 'x' }).execute();

    expect(await migrateToLatest(t.db)).toEqual({ migrations: [], routines: ['ecs_change_entry'] });
    expect(await changeEntry(t.db)).toBe(ENTRY);
    // Unchanged text, not applied again: the record is what the migrator goes by.
    expect(await investmentInScope(t.db)).toBe(false);
    expect(await recordedHashes(t.db)).toEqual(Object.fromEntries(ROUTINES.map((r) => [r.name, r.sha256]).sort()));
    expect(await migrateToLatest(t.db)).toEqual({ migrations: [], routines: [] });

    // After a migration ran every routine is applied: a migration may have made a function from its frozen text.
    // (The latest migration is written to run again harmlessly over its own result; the routines' records stay.)
    const last = MIGRATION_NAMES.at(-1)!;
    await sql`delete from kysely_migration where name = ${last}`.execute(t.db);
    expect(await migrateToLatest(t.db)).toEqual({ migrations: [last], routines: ROUTINE_NAMES });
    expect(await investmentInScope(t.db)).toBe(true);
    expect(await migrateToLatest(t.db)).toEqual({ migrations: [], routines: [] });
  });

  it('has one for every SQL function the service calls', () => {
    const called = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (file !== MIGRATIONS_DIR) walk(file);
        } else if (entry.name.endsWith('.ts')) {
          for (const name of fs.readFileSync(file, 'utf8').match(/\becs_[a-z_]+(?=\()/g) ?? []) called.add(name);
        }
      }
    };
    walk(path.join(projectRoot, 'src'));
    expect(called.size).toBeGreaterThan(3);
    expect([...called].filter((name) => !ROUTINE_NAMES.includes(name))).toEqual([]);
  });
});

const postgresAvailable = onPostgres || pgClusterAvailable();

describe.runIf(postgresAvailable)('SQL routines when instances migrate at once (PostgreSQL)', () => {
  let url: string;
  let drop = async () => {};
  const handles: DbHandle[] = [];
  const open = async (options: { statementTimeoutMs?: number } = {}) => {
    // One connection, as the cluster primary migrates with: the migrator must not need a second.
    const handle = await openDatabase({ databaseUrl: url, poolMax: 1, ...options });
    handles.push(handle);
    return handle;
  };

  beforeAll(async () => {
    ({ url, drop } = await createPostgresDatabase('ecs_routines_race'));
  });
  afterAll(async () => {
    for (const handle of handles) await handle.close();
    await drop();
  });

  const applied = (summaries: readonly MigrationSummary[], kind: keyof MigrationSummary) => summaries.flatMap((s) => s[kind]).sort();

  it('run every migration and apply every routine once, and none fails', async () => {
    const instances = await Promise.all([1, 2, 3, 4].map(() => open()));
    const first = await Promise.all(instances.map((h) => migrateToLatest(h.db)));
    expect(applied(first, 'migrations')).toEqual(MIGRATION_NAMES);
    expect(applied(first, 'routines')).toEqual([...ROUTINE_NAMES].sort());

    for (let round = 0; round < 3; round++) {
      await instances[0]!.db.updateTable('ecs_routines').set({ sha256: `older ${round}` }).execute();
      const again = await Promise.all(instances.map((h) => migrateToLatest(h.db)));
      expect(applied(again, 'migrations')).toEqual([]);
      expect(applied(again, 'routines')).toEqual([...ROUTINE_NAMES].sort());
    }
    expect(await recordedHashes(instances[0]!.db)).toEqual(Object.fromEntries(ROUTINES.map((r) => [r.name, r.sha256]).sort()));
    expect(await changeEntry(instances[0]!.db)).toBe(ENTRY);
  });

  it('wait for another instance\'s migrations longer than the statement timeout', async () => {
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query(`select pg_advisory_lock(${MIGRATION_LOCK_ID})`);
      const starting = await open({ statementTimeoutMs: 200 });
      await starting.db.updateTable('ecs_routines').set({ sha256: 'older' }).where('name', '=', 'ecs_search_fold').execute();
      const migrating = migrateToLatest(starting.db);
      const waited = await Promise.race([migrating.then(() => 'migrated'), new Promise((resolve) => setTimeout(resolve, 1000, 'waiting'))]);
      expect(waited).toBe('waiting');
      await holder.query(`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`);
      expect(await migrating).toEqual({ migrations: [], routines: ['ecs_search_fold'] });
      // The session has its statement timeout back.
      const { rows } = await sql<{ timeout: string }>`select current_setting('statement_timeout') as timeout`.execute(starting.db);
      expect(rows[0]!.timeout).toBe('200ms');
    } finally {
      await holder.end();
    }
  });
});
