/**
 * Full-text search in SQL (extension E1). The query becomes terms in TypeScript
 * (src/domain/search-text.ts), with the same folding and stemming that built the offers' search
 * vectors, and reaches the database as one tsquery, which the offers' GIN index answers.
 *
 * An offer matches when every word matches (the last one as a prefix). Relevance, for the order of
 * a search without sorting: each word scores 3 when it is in the title, else 2 in the address or
 * external id, else 1 in the description; the offer's score is the sum.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { searchTerms } from '../domain/search-text.js';

const tsquery = (text: string) => sql`to_tsquery('simple', ${text}::text)`;

/** Every word of `search` is in the offer's search vector (a search of no word matches every offer). */
export function searchCondition(search: string): RawBuilder<SqlBool> {
  const terms = searchTerms(search);
  if (terms.length === 0) return sql<SqlBool>`true`;
  return sql<SqlBool>`o.search_vector @@ ${tsquery(terms.join(' & '))}`;
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
    (term) => sql`case when o.search_head @@ ${tsquery(`${term}A`)} then 3 when o.search_head @@ ${tsquery(`${term}B`)} then 2 else 1 end`,
  );
  return sql<number>`(${sql.join(scores, sql` + `)})`;
}
