/**
 * The latest price change as fields of the query language (extension E10): `price_changed_at` and
 * `price_change_pct` are filtered, sorted and summed up like the other typed columns.
 *
 * - `price_change_pct` becomes double precision, the type every number column of the query
 *   language has (the import still rounds the percent to 2 decimals in numeric before storing it);
 * - "reduced in the last 30 days" within an organization reads a range of a new index on
 *   (organization_id, price_changed_at).
 *
 * Frozen: later changes go into new migration files.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `SET LOCAL statement_timeout = 0`,
  `ALTER TABLE offers ALTER COLUMN price_change_pct TYPE double precision`,
  `CREATE INDEX IF NOT EXISTS offers_org_price_changed_idx ON offers (organization_id, price_changed_at)`,
];

const DOWN: readonly string[] = [
  `DROP INDEX offers_org_price_changed_idx`,
  `ALTER TABLE offers ALTER COLUMN price_change_pct TYPE numeric`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
