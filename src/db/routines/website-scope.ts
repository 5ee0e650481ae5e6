/**
 * The website scope rule (extension E7) as SQL functions, for readers of "what a website sees"
 * over many websites at once (the change feed's writer joins `websites`; the catalog's scoped
 * investment lists call it with a parameter). An offer is in scope when it matches every list the
 * scope gives (`investment_ids`, `branch_ids`, `offer_types`; any value within a list; a null
 * column matches no list); an investment when the scope has no `investment_ids` or names it.
 *
 * Twins of the same rule: the indexable conditions of the API's lists
 * (src/features/access/scope-sql.ts, held to these functions by
 * test/features/access/scope-sql.test.ts) and the facet columns' in-memory base
 * (src/features/offers/facets/columns.ts, held to the SQL lists by
 * test/features/offers/facets/offer-columns.property.test.ts).
 *
 * Plain IMMUTABLE expressions (no subquery), so PostgreSQL inlines them into the calling query. No
 * index uses them; a change of the rule changes every twin with it. Created by migration
 * 2026_11_24_0005, whose text this is.
 */
import { routine, type Routine } from './routine.js';

export const WEBSITE_SCOPE_ROUTINES: readonly Routine[] = [
  // jsonb ? text: the text is an element of the array. A null offer column matches no list.
  routine(`CREATE OR REPLACE FUNCTION ecs_offer_in_scope(scope jsonb, investment_id uuid, branch_id uuid, offer_type text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT scope IS NULL OR (
      (scope -> 'investment_ids' IS NULL OR coalesce((scope -> 'investment_ids') ? (investment_id::text), false))
      AND (scope -> 'branch_ids' IS NULL OR coalesce((scope -> 'branch_ids') ? (branch_id::text), false))
      AND (scope -> 'offer_types' IS NULL OR coalesce((scope -> 'offer_types') ? offer_type, false))
    )
  $$`),
  routine(`CREATE OR REPLACE FUNCTION ecs_investment_in_scope(scope jsonb, investment_id uuid) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT scope IS NULL OR scope -> 'investment_ids' IS NULL
      OR coalesce((scope -> 'investment_ids') ? (investment_id::text), false)
  $$`),
];
