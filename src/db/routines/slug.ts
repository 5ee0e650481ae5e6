/**
 * ecs_slug: a text as a slug (extension E12): lower case, Polish and other Latin letters with
 * diacritics folded to ASCII with the search's own table (ł→l, ó→o, ß→s), every run of other
 * characters one `-`, none at either end, at most SLUG_MAX_LENGTH characters, cut after a whole
 * word when the text is longer (a single longer word is cut). '' when nothing is left.
 *
 * Slugs are stored (offers.slug, investments.slug, slugs): changing what this gives changes only the
 * slugs made afterwards, which is what stability asks for. Created by migration
 * 2026_11_27_0040_slugs from its own frozen copy of this text.
 */
import { routine, type Routine } from './routine.js';
import { FOLD_FROM, FOLD_TO } from './search-folding.js';

/** The longest slug made from a text; a suffix that makes it unique comes on top (seo wing). */
export const SLUG_MAX_LENGTH = 80;

export const SLUG_ROUTINE: Routine = routine(`CREATE OR REPLACE FUNCTION ecs_slug(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
      WHEN length(s) <= ${SLUG_MAX_LENGTH} THEN s
      WHEN position('-' in left(s, ${SLUG_MAX_LENGTH + 1})) = 0 THEN left(s, ${SLUG_MAX_LENGTH})
      ELSE regexp_replace(left(s, ${SLUG_MAX_LENGTH + 1}), '-[^-]*$', '') END
    FROM (SELECT btrim(regexp_replace(translate(lower(coalesce(t, '')), '${FOLD_FROM}', '${FOLD_TO}'), '[^a-z0-9]+', '-', 'g'), '-') AS s) AS folded
  $$`);
