/**
 * The full-text index knows the organization. Every search runs within one organization, but the
 * GIN index held only the words: for common words ("mieszkanie balkon" matches most offers) the
 * planner rightly judged the index's answer, spread over every organization, too large, and
 * instead read the organization's offers through a B-tree index and tested each one's search
 * vector (3.9 KB stored out of line: fetched and decompressed per offer, 130-280 ms for one query on
 * 100,000 offers). The planner does not count that fetch; it can only see that the index is broad.
 *
 * Now the index key is the vector plus one lexeme naming the organization (`#<uuid>`, which no
 * search word can be: words are letters and digits), and a search asks for that lexeme beside its
 * words. The index then answers exactly the organization's matches, and the vectors are not read
 * at all: the same query takes about 14 ms. No extension is needed (btree_gin would do the same
 * with a uuid column, but a managed database may not offer it), so it runs alike on PGlite.
 *
 * ecs_organization_lexeme is IMMUTABLE and plain SQL, so the planner inlines it in the index
 * expression and in the queries alike; src/features/offers/query/search-sql.ts writes the same lexeme in the
 * query. The new index replaces offers_search_idx, so the import still maintains one GIN index.
 *
 * Frozen: later changes go into new migration files.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `SET LOCAL statement_timeout = 0`,
  `CREATE FUNCTION ecs_organization_lexeme(organization_id uuid) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT ('''#' || organization_id::text || '''')::tsvector $$`,
  `CREATE INDEX offers_org_search_idx ON offers
    USING gin ((search_vector || ecs_organization_lexeme(organization_id))) WHERE is_active`,
  `DROP INDEX offers_search_idx`,
  // Statistics of the new index expression, for the planner's estimates of search matches.
  `ANALYZE offers`,
];

const DOWN: readonly string[] = [
  `SET LOCAL statement_timeout = 0`,
  `CREATE INDEX offers_search_idx ON offers USING gin (search_vector) WHERE is_active`,
  `DROP INDEX offers_org_search_idx`,
  `DROP FUNCTION ecs_organization_lexeme(uuid)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
