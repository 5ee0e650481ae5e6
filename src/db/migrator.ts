/**
 * Brings the schema up to date. The service and every command call this before they touch the
 * database, so a new empty database needs no separate step. Migrations are listed here (not read
 * from a folder) so that they work the same from TypeScript sources and from the built dist/.
 */
import { Migrator, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import type { Database } from './database.js';
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

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  check(await migrator(db).migrateToLatest());
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
