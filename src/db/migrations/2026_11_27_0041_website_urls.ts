/**
 * URL templates per website (extension E12): websites.urls, `{"offer": "https://…/{slug}",
 * "investment": "https://…/{slug}"}` (each optional), from which the sitemap makes its addresses.
 * null: none. And the sitemap's order: an organization's active offers by id, so the sitemap
 * reads them a chunk at a time (after the last id) without sorting them all for every chunk. Written to run again over its own
 * result (IF NOT EXISTS).
 *
 * Frozen: later changes go into new migration files.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `ALTER TABLE websites ADD COLUMN IF NOT EXISTS urls jsonb`,
  `CREATE INDEX IF NOT EXISTS offers_org_sitemap_idx ON offers (organization_id, offer_id) WHERE is_active`,
];

const DOWN: readonly string[] = [`DROP INDEX offers_org_sitemap_idx`, `ALTER TABLE websites DROP COLUMN urls`];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
