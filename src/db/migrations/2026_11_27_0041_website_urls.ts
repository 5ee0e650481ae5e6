/**
 * URL templates per website (extension E12): websites.urls, `{"offer": "https://…/{slug}",
 * "investment": "https://…/{slug}"}` (each optional), from which the sitemap makes its addresses.
 * null: none. Written to run again over its own result (IF NOT EXISTS).
 *
 * Frozen: later changes go into new migration files.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [`ALTER TABLE websites ADD COLUMN IF NOT EXISTS urls jsonb`];

const DOWN: readonly string[] = [`ALTER TABLE websites DROP COLUMN urls`];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
