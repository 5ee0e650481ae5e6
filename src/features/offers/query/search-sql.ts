/**
 * Full-text search in SQL (extension E1). The query becomes terms in TypeScript
 * (src/features/offers/query/search-text.ts), with the same folding and stemming that built the offers' search
 * vectors, and reaches the database as tsquery conditions that the offers' GIN index answers in one
 * scan: its key is the vector plus a lexeme naming the offer's organization (migration
 * 2026_11_25_0011), and the query asks for the caller's, so the index alone finds the
 * organization's matches. Terms are written as tsquery text with quoted lexemes: the database's
 * text parser never splits a word on either side (it reads `2e9a` as the number `2e9` and `a`).
 *
 * An offer matches when every word matches (the last one as a prefix, which the known words with
 * that prefix stand for: see searchCondition). Relevance, for the order of a search without
 * sorting: each word scores 3 when it is in the title, else 2 in the address or external id, else
 * 1 in the description; the offer's score is the sum.
 *
 * With `lang` (extension E12) an offer also matches when its translation into that language has
 * every word (offers.translation_vector, src/db/routines/translation-search.ts); relevance stays
 * the original texts' (a match by its translation alone scores 1 a word).
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { searchTerms, type SearchTerm } from './search-text.js';

/** A term as tsquery text (`'mieszkan'`, `'mokot':*`), optionally of one weight (`'mokot':*A`). */
function termText({ lexeme, prefix }: SearchTerm, weight = ''): string {
  return prefix || weight ? `'${lexeme}':${prefix ? '*' : ''}${weight}` : `'${lexeme}'`;
}

const tsquery = (text: string) => sql`${text}::tsquery`;

/**
 * The lexeme that ecs_organization_lexeme gives the organization in the index key (`#` and the
 * uuid: no search word has a `#`).
 */
const organizationTerm = (organizationId: string) => `'#${organizationId.toLowerCase()}'`;

/** The search key of offers_org_search_idx (the expression the index is built on). */
const INDEXED = sql`(o.search_vector || ecs_organization_lexeme(o.organization_id))`;

/**
 * A prefix that stands for more words than this stays a prefix: many exact words cost the index
 * more than one prefix (on 100,000 offers, the 58 words starting with `m` took the index 7 ms
 * against the prefix's 25 ms; the words of a prefix of three letters or more are rarely more than
 * a few dozen).
 */
export const MAX_PREFIX_WORDS = 64;
/** Sorts after every character of a word ([a-z0-9]): `p` to `p{` is the range of words starting with p. */
const AFTER_WORD_CHARS = '{';

/**
 * Every word of `search` is in the offer's search vector (a search of no word matches every
 * offer). The expression is the one offers_org_search_idx is built on, so the index answers it;
 * the caller's other conditions still hold the offer to its organization.
 *
 * The last word, a prefix, becomes the known words that start with it (search_lexemes, migration
 * 2026_11_26_0015), OR-ed, when there are 1 to MAX_PREFIX_WORDS of them: the index then looks up
 * exact words instead of reading every word with that prefix in every organization. The table
 * holds at least every word of every search vector, so the answer is the same. The lookup is an
 * uncorrelated subquery: PostgreSQL runs it once, before the index scan.
 */
export function searchCondition(search: string, organizationId: string, lang?: string): RawBuilder<SqlBool> {
  const original = originalSearchCondition(search, organizationId);
  if (lang === undefined) return original;
  // Translations (E12): with `lang`, an offer whose translation into it has every word matches too.
  const words = translationSearchWords(search);
  if (words.length === 0) return original;
  const translated = sql<SqlBool>`(o.translation_vector is not null and o.translation_vector @@ ecs_translation_query(${lang}::text, ${words}::text[], true))`;
  // A search with no word of the original's alphabet (Cyrillic) would match every offer there.
  return searchTerms(search).length === 0 ? translated : sql<SqlBool>`(${original} or ${translated})`;
}

/**
 * The words of a search in a translation: letters and digits of any script, lower case (the
 * language's configuration stems them, ecs_translation_query), at most as many as a search has.
 */
export function translationSearchWords(search: string): string[] {
  return (search.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 32);
}

function originalSearchCondition(search: string, organizationId: string): RawBuilder<SqlBool> {
  const terms = searchTerms(search);
  if (terms.length === 0) return sql<SqlBool>`true`;
  const exact = [organizationTerm(organizationId), ...terms.filter((term) => !term.prefix).map((term) => termText(term))].join(' & ');
  const allExact = sql<SqlBool>`${INDEXED} @@ ${tsquery(exact)}`;
  const prefix = terms.find((term) => term.prefix);
  if (prefix === undefined) return allExact;
  // Two conditions on the one index (GIN ANDs them in one scan). The constant one gives the
  // planner its estimate from the index's statistics; a subquery's value is unknown when it plans.
  return sql<SqlBool>`(${allExact} and ${INDEXED} @@ (
    select (case when count(*) between 1 and ${sql.lit(MAX_PREFIX_WORDS)}
      then string_agg(quote_literal(w.lexeme), ' | ')
      else ${termText(prefix)}::text end)::tsquery
    from (
      select s.lexeme from search_lexemes as s
      where s.lexeme >= ${prefix.lexeme} and s.lexeme < ${prefix.lexeme + AFTER_WORD_CHARS}
      limit ${sql.lit(MAX_PREFIX_WORDS + 1)}
    ) as w))`;
}

/**
 * The relevance of a matching offer for `search` (see the top of this file). Title and address
 * are tested on the small `search_head`; a word found in neither is in the description, since the
 * offer matched (searchCondition), so the large vector is not read again for ranking.
 */
export function searchRelevance(search: string): RawBuilder<number> {
  const terms = searchTerms(search);
  if (terms.length === 0) return sql<number>`0`;
  const scores = terms.map(
    (term) => sql`case when o.search_head @@ ${tsquery(termText(term, 'A'))} then 3 when o.search_head @@ ${tsquery(termText(term, 'B'))} then 2 else 1 end`,
  );
  return sql<number>`(${sql.join(scores, sql` + `)})`;
}
