/**
 * Full-text search in SQL (extension E1). The query becomes terms in TypeScript
 * (src/domain/search-text.ts), with the same folding and stemming that built the offers' search
 * vectors, and reaches the database as one tsquery, which the offers' GIN index answers: its key is
 * the vector plus a lexeme naming the offer's organization (migration 2026_11_25_0011), and the
 * query asks for the caller's, so the index alone finds the organization's matches. Terms are
 * written as tsquery text with quoted lexemes: the database's text parser never splits a word on
 * either side (it reads `2e9a` as the number `2e9` and `a`).
 *
 * An offer matches when every word matches (the last one as a prefix). Relevance, for the order of
 * a search without sorting: each word scores 3 when it is in the title, else 2 in the address or
 * external id, else 1 in the description; the offer's score is the sum.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { searchTerms, type SearchTerm } from '../domain/search-text.js';

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

/**
 * Every word of `search` is in the offer's search vector (a search of no word matches every
 * offer). The expression is the one offers_org_search_idx is built on, so the index answers it;
 * the caller's other conditions still hold the offer to its organization.
 */
export function searchCondition(search: string, organizationId: string): RawBuilder<SqlBool> {
  const terms = searchTerms(search);
  if (terms.length === 0) return sql<SqlBool>`true`;
  const words = terms.map((term) => termText(term));
  return sql<SqlBool>`(o.search_vector || ecs_organization_lexeme(o.organization_id)) @@ ${tsquery([organizationTerm(organizationId), ...words].join(' & '))}`;
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
