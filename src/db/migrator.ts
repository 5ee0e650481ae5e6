/**
 * Brings the schema up to date. The service and every command call this before they touch the
 * database, so a new empty database needs no separate step. Migrations are listed here (not read
 * from a folder) so that they work the same from TypeScript sources and from the built dist/.
 *
 * Two kinds of change, in this order:
 * - migrations (src/db/migrations/), frozen in time, each run once;
 * - routines (src/db/routines/): the current definition of each SQL function, applied whenever
 *   its text differs from the one recorded in ecs_routines ("repeatable migrations"), and all of
 *   them after any migration ran (a migration may have created or replaced a function from its own
 *   frozen text).
 * Both run under one advisory lock, the one Kysely's migrator takes, held by this session from the
 * first migration to the last routine: instances starting at once wait for each other, and the
 * next one finds nothing left to do.
 */
import { Migrator, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import type { Database } from './database.js';
import { ROUTINES, type Routine } from './routines/index.js';
import * as initial from './migrations/2026_11_21_0001_initial.js';
import * as searchIndexes from './migrations/2026_11_21_0002_search_indexes.js';
import * as searchAndGeo from './migrations/2026_11_24_0003_search_and_geo.js';
import * as searchVectorFromImport from './migrations/2026_11_24_0004_search_vector_from_import.js';
import * as websiteScope from './migrations/2026_11_24_0005_website_scope.js';
import * as changeFeed from './migrations/2026_11_24_0006_change_feed.js';
import * as webhooks from './migrations/2026_11_24_0007_webhooks.js';
import * as searchHead from './migrations/2026_11_25_0008_search_head.js';
import * as feedStatistics from './migrations/2026_11_25_0009_feed_statistics.js';
import * as facetCoveringIndex from './migrations/2026_11_25_0010_facet_covering_index.js';
import * as searchByOrganization from './migrations/2026_11_25_0011_search_by_organization.js';
import * as locationIndexOfferId from './migrations/2026_11_25_0012_location_index_offer_id.js';
import * as noStatisticsForPayloads from './migrations/2026_11_25_0013_no_statistics_for_payloads.js';
import * as changeEntryJson from './migrations/2026_11_25_0014_change_entry_json.js';
import * as searchLexemes from './migrations/2026_11_26_0015_search_lexemes.js';
import * as sqlRoutines from './migrations/2026_11_26_0016_sql_routines.js';
import * as priceHistory from './migrations/2026_11_27_0020_price_history.js';
import * as priceChangeFields from './migrations/2026_11_27_0021_price_change_fields.js';
import * as transparency from './migrations/2026_11_27_0022_transparency.js';
import * as photos from './migrations/2026_11_27_0030_photos.js';
import * as slugs from './migrations/2026_11_27_0040_slugs.js';
import * as websiteUrls from './migrations/2026_11_27_0041_website_urls.js';
import * as translations from './migrations/2026_11_28_0100_translations.js';
import * as unavailablePhotoSources from './migrations/2026_11_29_0110_unavailable_photo_sources.js';
import * as photoOffersUnqueued from './migrations/2026_11_30_0120_photo_offers_unqueued.js';

const MIGRATIONS: Record<string, Migration> = {
  '2026_11_21_0001_initial': initial,
  '2026_11_21_0002_search_indexes': searchIndexes,
  '2026_11_24_0003_search_and_geo': searchAndGeo,
  '2026_11_24_0004_search_vector_from_import': searchVectorFromImport,
  '2026_11_24_0005_website_scope': websiteScope,
  '2026_11_24_0006_change_feed': changeFeed,
  '2026_11_24_0007_webhooks': webhooks,
  '2026_11_25_0008_search_head': searchHead,
  '2026_11_25_0009_feed_statistics': feedStatistics,
  '2026_11_25_0010_facet_covering_index': facetCoveringIndex,
  '2026_11_25_0011_search_by_organization': searchByOrganization,
  '2026_11_25_0012_location_index_offer_id': locationIndexOfferId,
  '2026_11_25_0013_no_statistics_for_payloads': noStatisticsForPayloads,
  '2026_11_25_0014_change_entry_json': changeEntryJson,
  '2026_11_26_0015_search_lexemes': searchLexemes,
  '2026_11_26_0016_sql_routines': sqlRoutines,
  '2026_11_27_0020_price_history': priceHistory,
  '2026_11_27_0021_price_change_fields': priceChangeFields,
  '2026_11_27_0022_transparency': transparency,
  '2026_11_27_0030_photos': photos,
  '2026_11_27_0040_slugs': slugs,
  '2026_11_27_0041_website_urls': websiteUrls,
  '2026_11_28_0100_translations': translations,
  '2026_11_29_0110_unavailable_photo_sources': unavailablePhotoSources,
  '2026_11_30_0120_photo_offers_unqueued': photoOffersUnqueued,
};

function migrator(db: Kysely<Database>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
}

function check(result: MigrationResultSet): void {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName;
    const reason = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`database migration ${failed ?? ''} failed: ${reason}`);
  }
}

/**
 * The key of Kysely's migration lock (its PostgresAdapter's LOCK_ID, not exported). A session-level
 * advisory lock is counted per session: the migrator takes it again inside ours and gives that back.
 */
const MIGRATION_LOCK_ID = BigInt('3853314791062309107');

/** What one call changed: the migrations it ran and the routines it applied, in order. */
export interface MigrationSummary {
  readonly migrations: readonly string[];
  readonly routines: readonly string[];
}

export async function migrateToLatest(db: Kysely<Database>): Promise<MigrationSummary> {
  return db.connection().execute(async (session) => {
    // Waiting for another instance's migrations takes as long as they do: no statement timeout here
    // (RESET gives the session back its own).
    await sql`SET statement_timeout = 0`.execute(session);
    try {
      await sql`SELECT pg_advisory_lock(${sql.lit(MIGRATION_LOCK_ID)})`.execute(session);
      try {
        const result = await migrator(session).migrateToLatest();
        check(result);
        const migrations = (result.results ?? []).map((r) => r.migrationName);
        const routines = await applyRoutines(session, ROUTINES, { all: migrations.length > 0 });
        return { migrations, routines };
      } finally {
        await sql`SELECT pg_advisory_unlock(${sql.lit(MIGRATION_LOCK_ID)})`.execute(session);
      }
    } finally {
      await sql`RESET statement_timeout`.execute(session);
    }
  });
}

/**
 * Applies, in one transaction, the routines whose text differs from the one recorded (every one
 * with `all`), records their hashes and forgets the records of functions that are no longer
 * routines. Answers the names applied. The caller holds the migration lock.
 */
async function applyRoutines(db: Kysely<Database>, routines: readonly Routine[], options: { all: boolean }): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const recorded = new Map((await trx.selectFrom('ecs_routines').select(['name', 'sha256']).execute()).map((r) => [r.name, r.sha256]));
    const applied: string[] = [];
    for (const routine of routines) {
      if (!options.all && recorded.get(routine.name) === routine.sha256) continue;
      try {
        await sql.raw(routine.sql).execute(trx);
      } catch (error) {
        throw new Error(`SQL routine ${routine.name} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      await trx
        .insertInto('ecs_routines')
        .values({ name: routine.name, sha256: routine.sha256 })
        .onConflict((oc) => oc.column('name').doUpdateSet({ sha256: routine.sha256, applied_at: sql`now()` }))
        .execute();
      applied.push(routine.name);
    }
    const names = routines.map((r) => r.name);
    const gone = [...recorded.keys()].filter((name) => !names.includes(name));
    if (gone.length > 0) await trx.deleteFrom('ecs_routines').where('name', 'in', gone).execute();
    return applied;
  });
}

/** Undoes every migration (used by the migration tests). */
export async function migrateDownAll(db: Kysely<Database>): Promise<void> {
  const m = migrator(db);
  for (;;) {
    const result = await m.migrateDown();
    check(result);
    if (!result.results || result.results.length === 0) return;
  }
}
