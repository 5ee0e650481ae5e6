/** The database liveness probe behind GET /health. */
import { sql } from 'kysely';
import type { ReadDb } from './readonly.js';

/** Resolves when the database answers `select 1`; rejects otherwise. */
export async function pingDatabase(db: ReadDb): Promise<void> {
  await sql`select 1`.execute(db);
}
