/**
 * The photo sources that could not be fetched, by id: an import sets those of its unchanged offers
 * pending again (every import retries what failed) by looking in this small index rather than up
 * every source of every offer (a re-import of a catalogue meets hundreds of thousands of known
 * sources). Written to run again over its own result (IF NOT EXISTS).
 *
 * Frozen: later changes go into new migration files.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `CREATE INDEX IF NOT EXISTS photo_sources_unavailable_idx ON photo_sources (source_id) WHERE status = 'unavailable'`,
];

const DOWN: readonly string[] = [`DROP INDEX photo_sources_unavailable_idx`];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
