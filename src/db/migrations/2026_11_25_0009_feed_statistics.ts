/**
 * Planner statistics for the change feed (extension E5), once, for databases imported before the
 * import's statistics refresh covered website_changes (src/import/session-sql.ts). Without
 * them the planner expects a few dozen changes per website and reads a page by taking the
 * website's whole feed after the cursor and sorting it, for every page (20 ms for 10,000 changes
 * instead of 0.5 ms read in order from the (website_id, seq) index); autovacuum, where it runs,
 * fixes that only later. No schema change: `down` has nothing to undo (statistics are not schema,
 * and the next ANALYZE replaces them anyway).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ANALYZE website_changes`.execute(db);
}

export async function down(_db: Kysely<any>): Promise<void> {}
