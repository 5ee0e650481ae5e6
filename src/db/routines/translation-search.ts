/**
 * Search in translations (extension E12). Each offer keeps the words of its translations in
 * offers.translation_vector, every lexeme prefixed with its language tag (`en:balconi`), so one
 * vector holds every language and a search with `lang` matches only that language's words.
 *
 * A language is stemmed with PostgreSQL's own text search configuration for it where PostgreSQL
 * (15 and later, and PGlite) ships one (English, German, Russian, ...: TEXT_SEARCH_CONFIGS), else
 * with `simple` (lower case, no stemming; Ukrainian and Polish have none). The service's own
 * Polish folding is not used here: it knows only Latin letters, and would drop a Cyrillic text.
 *
 * - ecs_text_search_config(tag): the configuration of a language tag (by its primary subtag).
 * - ecs_translation_vector(translations): the prefixed lexemes of every language's title and
 *   description plain text (null for no translations). Written by the import.
 * - ecs_translation_query(tag, words, last_is_prefix): the tsquery of a search's words in one
 *   language: every word, stemmed as that language's texts were, the last one as a prefix; a word
 *   the configuration drops (a stop word such as `the`) is left out.
 *
 * Created by migration 2026_11_28_0100_translations from its own frozen copy of this text.
 */
import { routine, type Routine } from './routine.js';

/** Primary language subtag -> PostgreSQL text search configuration (present in PostgreSQL 15 and PGlite). */
export const TEXT_SEARCH_CONFIGS: Readonly<Record<string, string>> = {
  ar: 'arabic', hy: 'armenian', eu: 'basque', ca: 'catalan', da: 'danish', nl: 'dutch', en: 'english', fi: 'finnish',
  fr: 'french', de: 'german', el: 'greek', hi: 'hindi', hu: 'hungarian', id: 'indonesian', ga: 'irish', it: 'italian',
  lt: 'lithuanian', ne: 'nepali', no: 'norwegian', nb: 'norwegian', nn: 'norwegian', pt: 'portuguese', ro: 'romanian',
  ru: 'russian', sr: 'serbian', es: 'spanish', sv: 'swedish', ta: 'tamil', tr: 'turkish', yi: 'yiddish',
};

const CASES = Object.entries(TEXT_SEARCH_CONFIGS)
  .map(([subtag, config]) => `WHEN '${subtag}' THEN '${config}'`)
  .join(' ');

export const TEXT_SEARCH_CONFIG_ROUTINE: Routine = routine(`CREATE OR REPLACE FUNCTION ecs_text_search_config(tag text) RETURNS regconfig LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT (CASE lower(split_part(tag, '-', 1)) ${CASES} ELSE 'simple' END)::regconfig
  $$`);

export const TRANSLATION_VECTOR_ROUTINE: Routine = routine(`CREATE OR REPLACE FUNCTION ecs_translation_vector(translations jsonb) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN translations IS NULL THEN NULL ELSE array_to_tsvector(array(
      SELECT DISTINCT t.key || ':' || w.lexeme
      FROM jsonb_each(translations) AS t,
        unnest(to_tsvector(ecs_text_search_config(t.key), concat_ws(' ', t.value ->> 'title', t.value ->> 'description_clean_text'))) AS w
    )) END
  $$`);

export const TRANSLATION_QUERY_ROUTINE: Routine = routine(`CREATE OR REPLACE FUNCTION ecs_translation_query(tag text, words text[], last_is_prefix boolean) RETURNS tsquery LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT coalesce(string_agg(quote_literal(tag || ':' || l.lexeme) || CASE WHEN last_is_prefix AND w.n = cardinality(words) THEN ':*' ELSE '' END, ' & ' ORDER BY w.n), '')::tsquery
    FROM unnest(words) WITH ORDINALITY AS w(word, n)
      CROSS JOIN LATERAL (SELECT lexeme FROM unnest(to_tsvector(ecs_text_search_config(tag), w.word)) LIMIT 1) AS l
  $$`);

export const TRANSLATION_SEARCH_ROUTINES: readonly Routine[] = [TEXT_SEARCH_CONFIG_ROUTINE, TRANSLATION_VECTOR_ROUTINE, TRANSLATION_QUERY_ROUTINE];
