/**
 * Translations (extension E12): offers.translations and investments.translations hold a record's
 * `translations` as the import stores them (`{"en": {"title": ..., "description": ...,
 * "description_clean_text": ...}}`, canonical language tags; null: none). On the row itself, so a
 * change of translations alone is a change of the row: a new version of the offer, a new
 * updated_at of the investment, hence a change-feed upsert and a webhook, and a new row version
 * token for the offer body cache.
 *
 * offers.translation_vector: the words of the offer's translations, each prefixed with its
 * language tag (ecs_translation_vector; routines in src/db/routines/translation-search.ts, frozen
 * copies here), found through a GIN index on the few offers that have translations.
 *
 * Written to run again over its own result (IF NOT EXISTS, CREATE OR REPLACE), as the routines'
 * test does with the last migration.
 *
 * Frozen: later changes go into new migration files.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `CREATE OR REPLACE FUNCTION ecs_text_search_config(tag text) RETURNS regconfig LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT (CASE lower(split_part(tag, '-', 1)) WHEN 'ar' THEN 'arabic' WHEN 'hy' THEN 'armenian' WHEN 'eu' THEN 'basque' WHEN 'ca' THEN 'catalan' WHEN 'da' THEN 'danish' WHEN 'nl' THEN 'dutch' WHEN 'en' THEN 'english' WHEN 'fi' THEN 'finnish' WHEN 'fr' THEN 'french' WHEN 'de' THEN 'german' WHEN 'el' THEN 'greek' WHEN 'hi' THEN 'hindi' WHEN 'hu' THEN 'hungarian' WHEN 'id' THEN 'indonesian' WHEN 'ga' THEN 'irish' WHEN 'it' THEN 'italian' WHEN 'lt' THEN 'lithuanian' WHEN 'ne' THEN 'nepali' WHEN 'no' THEN 'norwegian' WHEN 'nb' THEN 'norwegian' WHEN 'nn' THEN 'norwegian' WHEN 'pt' THEN 'portuguese' WHEN 'ro' THEN 'romanian' WHEN 'ru' THEN 'russian' WHEN 'sr' THEN 'serbian' WHEN 'es' THEN 'spanish' WHEN 'sv' THEN 'swedish' WHEN 'ta' THEN 'tamil' WHEN 'tr' THEN 'turkish' WHEN 'yi' THEN 'yiddish' ELSE 'simple' END)::regconfig
  $$`,
  `CREATE OR REPLACE FUNCTION ecs_translation_vector(translations jsonb) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN translations IS NULL THEN NULL ELSE array_to_tsvector(array(
      SELECT DISTINCT t.key || ':' || w.lexeme
      FROM jsonb_each(translations) AS t,
        unnest(to_tsvector(ecs_text_search_config(t.key), concat_ws(' ', t.value ->> 'title', t.value ->> 'description_clean_text'))) AS w
    )) END
  $$`,
  `CREATE OR REPLACE FUNCTION ecs_translation_query(tag text, words text[], last_is_prefix boolean) RETURNS tsquery LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT coalesce(string_agg(quote_literal(tag || ':' || l.lexeme) || CASE WHEN last_is_prefix AND w.n = cardinality(words) THEN ':*' ELSE '' END, ' & ' ORDER BY w.n), '')::tsquery
    FROM unnest(words) WITH ORDINALITY AS w(word, n)
      CROSS JOIN LATERAL (SELECT lexeme FROM unnest(to_tsvector(ecs_text_search_config(tag), w.word)) LIMIT 1) AS l
  $$`,
  `ALTER TABLE offers ADD COLUMN IF NOT EXISTS translations jsonb`,
  `ALTER TABLE offers ADD COLUMN IF NOT EXISTS translation_vector tsvector`,
  `ALTER TABLE investments ADD COLUMN IF NOT EXISTS translations jsonb`,
  `CREATE INDEX IF NOT EXISTS offers_translation_search_idx ON offers USING gin (translation_vector) WHERE translation_vector IS NOT NULL`,
];

const DOWN: readonly string[] = [
  `DROP INDEX offers_translation_search_idx`,
  `ALTER TABLE investments DROP COLUMN translations`,
  `ALTER TABLE offers DROP COLUMN translation_vector`,
  `ALTER TABLE offers DROP COLUMN translations`,
  `DROP FUNCTION ecs_translation_query(text, text[], boolean)`,
  `DROP FUNCTION ecs_translation_vector(jsonb)`,
  `DROP FUNCTION ecs_text_search_config(text)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
