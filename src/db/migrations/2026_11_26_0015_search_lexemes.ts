/**
 * Every word of the offers' search vectors, for the last word of a search (typed as a prefix).
 *
 * A prefix term (`'garaz':*`) is the costly part of a search: GIN reads the whole posting list of
 * every word that starts with it, in every organization, into a bitmap before it can skip
 * anything, where an exact word is only read around the offers the other words leave. On 100,000
 * offers of ten organizations the benchmark's search box spent 0.52 of its 0.62 s of statements in
 * the index, most of it on the prefix. With this table a search first looks up the words with that
 * prefix (a B-tree range) and asks the index for those exact words, OR-ed
 * (src/features/offers/query/search-sql.ts).
 *
 * The table must hold every word of every offer's search vector (more is harmless: a word no offer
 * has matches nothing). The import, which alone writes search vectors, adds the words of what it
 * writes (src/import/search-vocabulary.ts); this migration fills it from the offers stored. A later
 * migration that rewrites search vectors must add their words here too.
 *
 * One vocabulary for all organizations, not one each: a search still matches only its
 * organization's offers (the index key names the organization), and a word of another
 * organization only adds an entry that finds nothing. Ten agencies' catalogues share most of their
 * words, so the table and what the import remembers of it are about ten times smaller.
 * `C` collation, so that a prefix is a plain byte range of the primary key.
 *
 * Frozen: later changes go into new migration files.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `SET LOCAL statement_timeout = 0`,
  `CREATE TABLE search_lexemes (lexeme text COLLATE "C" PRIMARY KEY)`,
  `INSERT INTO search_lexemes (lexeme)
    SELECT DISTINCT w.lexeme FROM offers AS o, unnest(tsvector_to_array(o.search_vector)) AS w (lexeme)`,
  `ANALYZE search_lexemes`,
];

const DOWN: readonly string[] = [`DROP TABLE search_lexemes`];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
