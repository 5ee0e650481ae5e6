/**
 * The title and address words of an offer on their own (`search_head`: weights A and B of
 * `search_vector`), for the relevance order of a search. The whole vector holds the description too
 * (about 3.8 KB per offer, stored out of line): ranking 6,000 matches by testing each word against
 * it fetched and decompressed it several times per offer (120 ms for one query on 100,000 offers).
 * The head is small and stays in the row. The database derives it from the vector (a stored
 * generated column), so every writer of search_vector keeps the two in step.
 *
 * Frozen: later changes go into new migration files.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `SET LOCAL statement_timeout = 0`,
  `ALTER TABLE offers ADD COLUMN search_head tsvector GENERATED ALWAYS AS (ts_filter(search_vector, '{a,b}')) STORED`,
];

const DOWN: readonly string[] = [`ALTER TABLE offers DROP COLUMN search_head`];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
