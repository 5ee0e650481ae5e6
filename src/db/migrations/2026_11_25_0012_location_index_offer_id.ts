/**
 * The location index also carries offer_id, so that a map view (a radius, box or polygon sorted by
 * distance) finds, measures and ranks every offer in the shape from the index alone, and reads from
 * the table only the page's rows (src/features/offers/read.ts, the deferred join). Before, each of the
 * 700-odd offers of a 3 km circle in a city was fetched from the table, one page each.
 *
 * Same name, same keys and condition, one INCLUDE column. Built under a temporary name before the
 * old one goes, so no moment lacks it. One statement per query (PGlite takes one at a time).
 *
 * Frozen: later changes go into new migration files.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `SET LOCAL statement_timeout = 0`,
  `CREATE INDEX offers_org_location_new_idx ON offers (organization_id, location_latitude, location_longitude)
    INCLUDE (offer_id) WHERE is_active AND location_latitude IS NOT NULL AND location_longitude IS NOT NULL`,
  `DROP INDEX offers_org_location_idx`,
  `ALTER INDEX offers_org_location_new_idx RENAME TO offers_org_location_idx`,
];

const DOWN: readonly string[] = [
  `SET LOCAL statement_timeout = 0`,
  `CREATE INDEX offers_org_location_old_idx ON offers (organization_id, location_latitude, location_longitude)
    WHERE is_active AND location_latitude IS NOT NULL AND location_longitude IS NOT NULL`,
  `DROP INDEX offers_org_location_idx`,
  `ALTER INDEX offers_org_location_old_idx RENAME TO offers_org_location_idx`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
