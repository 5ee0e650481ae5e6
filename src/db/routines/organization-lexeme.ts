/**
 * ecs_organization_lexeme: the lexeme naming an offer's organization in the key of the full-text
 * index (`'#<uuid>'`, which no search word can be: words are letters and digits). A search asks
 * for its organization's lexeme beside its words (src/features/offers/query/search-sql.ts writes
 * the same lexeme; test/features/offers/query/organization-lexeme.property.test.ts holds the two
 * together).
 *
 * The index offers_org_search_idx is built on this function: its behaviour is frozen. Changing
 * what it gives needs an ordinary migration that rebuilds the index, in the same change as this
 * text (test/db/routines.test.ts fails when a function an index uses differs from what the
 * migrations left). Created by migration 2026_11_25_0011, whose text this is.
 */
import { routine, type Routine } from './routine.js';

export const ORGANIZATION_LEXEME_ROUTINE: Routine = routine(`CREATE OR REPLACE FUNCTION ecs_organization_lexeme(organization_id uuid) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT ('''#' || organization_id::text || '''')::tsvector $$`);
