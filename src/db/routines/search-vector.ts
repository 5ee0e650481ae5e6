/**
 * ecs_search_vector: an offer's search vector from its words, already folded and stemmed, one
 * text per weight (A title, B address and external id, C description). The import builds the same
 * vector in TypeScript (searchVector in src/features/offers/query/search-text.ts, held to this one
 * by test/features/offers/query/search-text.property.test.ts); migrations use the function to fill
 * stored rows. Stored vectors were made by this rule: changing it means a migration that rewrites
 * them. Created by migration 2026_11_24_0004, whose text this is.
 */
import { routine, type Routine } from './routine.js';

export const SEARCH_VECTOR_ROUTINE: Routine = routine(`CREATE OR REPLACE FUNCTION ecs_search_vector(title text, place text, body text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT setweight(to_tsvector('simple', coalesce(title, '')), 'A') ||
           setweight(to_tsvector('simple', coalesce(place, '')), 'B') ||
           setweight(to_tsvector('simple', coalesce(body, '')), 'C')
  $$`);
