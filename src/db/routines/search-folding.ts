/**
 * Full-text search's folding and stemming: its tables, and the current definition of the SQL
 * functions built from them (routines: the migrator applies them when their text changes).
 * The TypeScript twin, src/features/offers/query/search-text.ts, folds and stems with the same
 * tables (the import writes every search vector with it, and the API turns searches into terms);
 * test/features/offers/query/search-text.property.test.ts holds the two to each other.
 *
 * No index or generated column uses these functions today (the search vectors are written by the
 * import), but the vectors stored were made by these rules: changing what they give means a
 * migration that rewrites every search vector and the vocabulary (search_lexemes), in the same
 * change. Migration 2026_11_24_0003 created the functions from its own frozen copy.
 */
import { routine, type Routine } from './routine.js';

/** Letters with diacritics (lower and upper case) and what they fold to, one for one. */
export const FOLD_FROM = 'ąćęłńóśźżĄĆĘŁŃÓŚŹŻáàâäãåāčçďéèêëěēíìîïīľĺňñôöõőøřšťúùûüůűūýÿžÁÀÂÄÃÅĀČÇĎÉÈÊËĚĒÍÌÎÏĪĽĹŇÑÔÖÕŐØŘŠŤÚÙÛÜŮŰŪÝŸŽß';
/** Letters that are not a base letter plus a combining mark. */
const NOT_COMPOSED: Readonly<Record<string, string>> = { ł: 'l', Ł: 'l', ø: 'o', Ø: 'o', ß: 's' };
export const FOLD_TO = [...FOLD_FROM]
  .map((c) => NOT_COMPOSED[c] ?? c.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase())
  .join('');

/**
 * What each UTF-16 code unit becomes after the SQL's lower() and translate(FOLD_FROM, FOLD_TO): an
 * ASCII letter or digit, or 0 for a word break. ASCII letters go to lower case, the letters of the
 * fold table to their base letter; everything else breaks words, as does half of a pair outside
 * the BMP. The TypeScript twins of the search folding (search-text.ts) and of ecs_slug
 * (made-slug.ts) read it.
 */
export const FOLDED_CODE: Uint8Array = (() => {
  const table = new Uint8Array(0x10000);
  const isWordChar = (c: string) => /^[a-z0-9]$/.test(c);
  for (let code = 0; code < 0x80; code++) {
    const c = String.fromCharCode(code).toLowerCase();
    if (isWordChar(c)) table[code] = c.charCodeAt(0);
  }
  const to = [...FOLD_TO];
  [...FOLD_FROM].forEach((from, i) => {
    if (isWordChar(to[i]!)) table[from.charCodeAt(0)] = to[i]!.charCodeAt(0);
  });
  return table;
})();

/**
 * Polish inflection endings (after folding), stripped from words of at least 3 letters that remain.
 * The regular expression takes the longest ending (its stem part is lazy).
 */
export const STEM_ENDINGS = [
  'owie', 'iami', 'iach', 'ami', 'ach', 'owi', 'owa', 'owe', 'owy', 'ego', 'emu', 'ych', 'ich', 'ymi', 'imi', 'iej',
  'ie', 'ia', 'iu', 'ii', 'em', 'om', 'ow', 'ej', 'ym', 'im', 'a', 'e', 'i', 'o', 'u', 'y',
] as const;

/**
 * The functions, in the order they call each other. Each body is the text migration 0003 created,
 * word for word: the routine replaces the function with an identical one.
 */
export const SEARCH_FOLDING_ROUTINES: readonly Routine[] = [
  // Lower case, no diacritics, every other character a space: "Łódź, ul. Piotrkowska 3/5" -> "lodz ul piotrkowska 3 5".
  routine(`CREATE OR REPLACE FUNCTION ecs_search_fold(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT btrim(regexp_replace(translate(lower(coalesce(t, '')), '${FOLD_FROM}', '${FOLD_TO}'), '[^a-z0-9]+', ' ', 'g'))
  $$`),
  // Every word of a folded text without its inflection ending.
  routine(`CREATE OR REPLACE FUNCTION ecs_search_stem(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT regexp_replace(t, '\\m([a-z0-9]{3,}?)(${STEM_ENDINGS.join('|')})\\M', '\\1', 'g')
  $$`),
  // The words a text is found by: folded, and stemmed.
  routine(`CREATE OR REPLACE FUNCTION ecs_search_words(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT f || ' ' || ecs_search_stem(f) FROM (SELECT ecs_search_fold(t) AS f) AS folded
  $$`),
  // A query as tsquery terms, one per word: stemmed, the last one a prefix ("mieszkania mokot" ->
  // {"mieszkan:", "mokot:*"}). A weight letter appended restricts a term to that weight ("mokot:*A").
  routine(`CREATE OR REPLACE FUNCTION ecs_search_terms(q text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(ecs_search_stem(w) || CASE WHEN n = total THEN ':*' ELSE ':' END ORDER BY n), '{}')
    FROM (
      SELECT w, n, count(*) OVER () AS total
      FROM unnest(string_to_array(ecs_search_fold(q), ' ')) WITH ORDINALITY AS words(w, n)
      WHERE w <> ''
    ) AS words
  $$`),
];
