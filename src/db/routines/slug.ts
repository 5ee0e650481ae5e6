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

// PL/pgSQL, not SQL: a SQL function with a FROM is not inlined, and each call then started an
// executor of its own, which cost more than the folding itself; an import makes one per new offer
// (20,000 made slugs: 1.6 s as SQL, 0.7 s as PL/pgSQL, the same slugs).
export const SLUG_ROUTINE: Routine = routine(`CREATE OR REPLACE FUNCTION ecs_slug(t text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
    DECLARE
      s text := btrim(regexp_replace(translate(lower(coalesce(t, '')), '${FOLD_FROM}', '${FOLD_TO}'), '[^a-z0-9]+', '-', 'g'), '-');
    BEGIN
      IF length(s) <= ${SLUG_MAX_LENGTH} THEN RETURN s; END IF;
      IF position('-' in left(s, ${SLUG_MAX_LENGTH + 1})) = 0 THEN RETURN left(s, ${SLUG_MAX_LENGTH}); END IF;
      RETURN regexp_replace(left(s, ${SLUG_MAX_LENGTH + 1}), '-[^-]*$', '');
    END
  $$`);
