/**
 * The offers' search vector becomes a plain column that the import writes, instead of a stored
 * generated column. Folding and stemming a 2 KB description with the SQL functions of 2026_11_24_0003
 * costs about 20 ms per offer (PostgreSQL's regular expressions), which made an import of 100,000
 * offers take eight minutes; the import now folds and stems in TypeScript (src/features/offers/query/search-text.ts,
 * the same rules, checked against the SQL functions by a property test) and hands the database the
 * words, which `ecs_search_vector` weights: A title, B address and external id, C description.
 *
 * Existing rows are filled here once with the SQL functions (same result).
 */
import { sql, type Kysely } from 'kysely';

/** The address words of an offer, in the order the search vector has always taken them. */
export const PLACE = `coalesce(offer_data ->> 'address_city', '') || ' ' || coalesce(offer_data ->> 'address_district', '') || ' ' ||
      coalesce(offer_data ->> 'address_subdistrict', '') || ' ' || coalesce(offer_data ->> 'address_street', '') || ' ' ||
      coalesce(offer_data ->> 'address_community', '') || ' ' || coalesce(offer_data ->> 'address_county', '') || ' ' ||
      coalesce(offer_data ->> 'address_state', '') || ' ' || external_id`;

const UP: readonly string[] = [
  `SET LOCAL statement_timeout = 0`,
  // Words already folded and stemmed, one text per weight.
  `CREATE FUNCTION ecs_search_vector(title text, place text, body text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT setweight(to_tsvector('simple', coalesce(title, '')), 'A') ||
           setweight(to_tsvector('simple', coalesce(place, '')), 'B') ||
           setweight(to_tsvector('simple', coalesce(body, '')), 'C')
  $$`,
  `ALTER TABLE offers DROP COLUMN search_vector`,
  `ALTER TABLE offers ADD COLUMN search_vector tsvector NOT NULL DEFAULT ''::tsvector`,
  `UPDATE offers SET search_vector = ecs_search_vector(
     ecs_search_words(offer_data ->> 'title'), ecs_search_words(${PLACE}), ecs_search_words(offer_data ->> 'description_clean_text'))`,
  `CREATE INDEX offers_search_idx ON offers USING gin (search_vector) WHERE is_active`,
];

const DOWN: readonly string[] = [
  `DROP INDEX offers_search_idx`,
  `ALTER TABLE offers DROP COLUMN search_vector`,
  `ALTER TABLE offers ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple', ecs_search_words(offer_data ->> 'title')), 'A') ||
    setweight(to_tsvector('simple', ecs_search_words(${PLACE})), 'B') ||
    setweight(to_tsvector('simple', ecs_search_words(offer_data ->> 'description_clean_text')), 'C')
  ) STORED`,
  `CREATE INDEX offers_search_idx ON offers USING gin (search_vector) WHERE is_active`,
  `DROP FUNCTION ecs_search_vector(text, text, text)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
