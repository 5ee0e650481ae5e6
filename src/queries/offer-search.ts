/**
 * Full-text search in SQL (extension E1). The query is turned into terms by the database itself
 * (ecs_search_terms, migration 2026_11_24_0003), with the same folding and stemming that built the
 * offers' search vectors, so the two always agree.
 *
 * An offer matches when every word matches (the last one as a prefix). Relevance, for the order of
 * a search without sorting: each word scores 3 when it is in the title, else 2 in the address or
 * external id, else 1 in the description; the offer's score is the sum.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';

const terms = (search: string) => sql<string[]>`ecs_search_terms(${search}::text)`;

/** Every word of `search` is in the offer's search vector (a search of no word matches every offer). */
export function searchCondition(search: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`(cardinality(${terms(search)}) = 0 or o.search_vector @@ to_tsquery('simple', array_to_string(${terms(search)}, ' & ')))`;
}

/** The relevance of the offer for `search` (see the top of this file). */
export function searchRelevance(search: string): RawBuilder<number> {
  const weighted = (weight: string) => sql`o.search_vector @@ to_tsquery('simple', t.term || ${sql.lit(weight)})`;
  return sql<number>`(select coalesce(sum(case when ${weighted('A')} then 3 when ${weighted('B')} then 2 when ${weighted('C')} then 1 else 0 end), 0)::int
    from unnest(${terms(search)}) as t(term))`;
}
