/**
 * Full-text search and geography for the offer lists (search extensions E1 and E2).
 *
 * Search: PGlite ships no Polish dictionary and neither does PostgreSQL 15 (and `unaccent` is an
 * extension that a managed database may not allow), so the normalization is plain SQL that runs
 * the same on both: three IMMUTABLE functions fold letter case and diacritics (`Łódź` → `lodz`),
 * strip common Polish inflection endings (`mieszkania` / `mieszkaniu` → `mieszkan`, `Mokotowie` →
 * `mokot`), and the offer's search vector (a stored generated column, GIN-indexed) holds every
 * word both folded and stemmed, weighted A (title), B (address and external id) and C
 * (description text). The same functions turn a query into terms, so both sides always agree.
 *
 * Geography: the offer's coordinates as typed generated columns with a btree index on
 * (organization, latitude, longitude): a radius, box or polygon query first narrows the
 * organization's offers to a latitude band read from the index (longitude checked from the index
 * too), then checks the exact shape on those few rows. No PostGIS (not on PGlite) and no extension.
 *
 * Adding the stored generated columns rewrites the offers table once.
 */
import { sql, type Kysely } from 'kysely';

/** Letters with diacritics (lower and upper case) and what they fold to, one for one. */
export const FOLD_FROM = 'ąćęłńóśźżĄĆĘŁŃÓŚŹŻáàâäãåāčçďéèêëěēíìîïīľĺňñôöõőøřšťúùûüůűūýÿžÁÀÂÄÃÅĀČÇĎÉÈÊËĚĒÍÌÎÏĪĽĹŇÑÔÖÕŐØŘŠŤÚÙÛÜŮŰŪÝŸŽß';
/** Letters that are not a base letter plus a combining mark. */
const NOT_COMPOSED: Readonly<Record<string, string>> = { ł: 'l', Ł: 'l', ø: 'o', Ø: 'o', ß: 's' };
export const FOLD_TO = [...FOLD_FROM]
  .map((c) => NOT_COMPOSED[c] ?? c.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase())
  .join('');

/**
 * Polish inflection endings (after folding), stripped from words of at least 3 letters that remain.
 * The regular expression takes the longest ending (its stem part is lazy).
 */
export const STEM_ENDINGS = [
  'owie', 'iami', 'iach', 'ami', 'ach', 'owi', 'owa', 'owe', 'owy', 'ego', 'emu', 'ych', 'ich', 'ymi', 'imi', 'iej',
  'ie', 'ia', 'iu', 'ii', 'em', 'om', 'ow', 'ej', 'ym', 'im', 'a', 'e', 'i', 'o', 'u', 'y',
] as const;

const UP: readonly string[] = [
  `SET LOCAL statement_timeout = 0`,
  // Lower case, no diacritics, every other character a space: "Łódź, ul. Piotrkowska 3/5" -> "lodz ul piotrkowska 3 5".
  `CREATE FUNCTION ecs_search_fold(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT btrim(regexp_replace(translate(lower(coalesce(t, '')), '${FOLD_FROM}', '${FOLD_TO}'), '[^a-z0-9]+', ' ', 'g'))
  $$`,
  // Every word of a folded text without its inflection ending.
  `CREATE FUNCTION ecs_search_stem(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT regexp_replace(t, '\\m([a-z0-9]{3,}?)(${STEM_ENDINGS.join('|')})\\M', '\\1', 'g')
  $$`,
  // The words a text is found by: folded, and stemmed.
  `CREATE FUNCTION ecs_search_words(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT f || ' ' || ecs_search_stem(f) FROM (SELECT ecs_search_fold(t) AS f) AS folded
  $$`,
  // A query as tsquery terms, one per word: stemmed, the last one a prefix ("mieszkania mokot" ->
  // {"mieszkan:", "mokot:*"}). A weight letter appended restricts a term to that weight ("mokot:*A").
  `CREATE FUNCTION ecs_search_terms(q text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(ecs_search_stem(w) || CASE WHEN n = total THEN ':*' ELSE ':' END ORDER BY n), '{}')
    FROM (
      SELECT w, n, count(*) OVER () AS total
      FROM unnest(string_to_array(ecs_search_fold(q), ' ')) WITH ORDINALITY AS words(w, n)
      WHERE w <> ''
    ) AS words
  $$`,
  `ALTER TABLE offers ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple', ecs_search_words(offer_data ->> 'title')), 'A') ||
    setweight(to_tsvector('simple', ecs_search_words(
      coalesce(offer_data ->> 'address_city', '') || ' ' || coalesce(offer_data ->> 'address_district', '') || ' ' ||
      coalesce(offer_data ->> 'address_subdistrict', '') || ' ' || coalesce(offer_data ->> 'address_street', '') || ' ' ||
      coalesce(offer_data ->> 'address_community', '') || ' ' || coalesce(offer_data ->> 'address_county', '') || ' ' ||
      coalesce(offer_data ->> 'address_state', '') || ' ' || external_id)), 'B') ||
    setweight(to_tsvector('simple', ecs_search_words(offer_data ->> 'description_clean_text')), 'C')
  ) STORED`,
  `CREATE INDEX offers_search_idx ON offers USING gin (search_vector) WHERE is_active`,
  `ALTER TABLE offers ADD COLUMN location_latitude double precision
    GENERATED ALWAYS AS ((offer_data ->> 'location_latitude')::double precision) STORED`,
  `ALTER TABLE offers ADD COLUMN location_longitude double precision
    GENERATED ALWAYS AS ((offer_data ->> 'location_longitude')::double precision) STORED`,
  `CREATE INDEX offers_org_location_idx ON offers (organization_id, location_latitude, location_longitude)
    WHERE is_active AND location_latitude IS NOT NULL AND location_longitude IS NOT NULL`,
];

const DOWN: readonly string[] = [
  `DROP INDEX offers_org_location_idx`,
  `ALTER TABLE offers DROP COLUMN location_longitude`,
  `ALTER TABLE offers DROP COLUMN location_latitude`,
  `DROP INDEX offers_search_idx`,
  `ALTER TABLE offers DROP COLUMN search_vector`,
  `DROP FUNCTION ecs_search_terms(text)`,
  `DROP FUNCTION ecs_search_words(text)`,
  `DROP FUNCTION ecs_search_stem(text)`,
  `DROP FUNCTION ecs_search_fold(text)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
