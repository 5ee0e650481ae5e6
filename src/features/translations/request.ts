/**
 * `lang` in a request (extension E12): `?lang=en` on the GET operations, `"lang": "en"` in the
 * offer lists' bodies. A tag that is not BCP 47 is a 422 at its place, in the FastAPI shape of the
 * other values; a valid one is served in its canonical form (`EN-gb` as `en-GB`).
 */
import Type from 'typebox';
import { issues, type Loc } from '../../http/validation/issues.js';
import type { InputChecker } from '../../http/validation/input-checker.js';
import { canonicalTag, MAX_TAG_LENGTH, tagProblem } from './model.js';

export const LANG_DESCRIPTION =
  'Translations (extension E12): a BCP 47 language tag (`en`, `uk`, `en-GB`). The title and description (investments: name ' +
  'and description) are served in that language where the offer or investment has a translation into it, field by field, ' +
  'else the original; `description_clean_text` follows `description`. The answer then carries `Content-Language`: the tag ' +
  'when any translated field was served, else `pl` (the originals\' language). Without `lang` the answer is the original, ' +
  'whatever `Accept-Language` says.';

/**
 * What `lang` does where nothing translatable is answered (facets, map clusters): it widens `search`
 * as on the lists, so that a page's list, facets and map count the same offers.
 */
export const SEARCH_LANG_DESCRIPTION =
  'Translations (extension E12): a BCP 47 language tag (`en`, `uk`, `en-GB`). With `search`, an offer also matches by the ' +
  'words of its translation into that language, exactly as `POST /api/v1/offers` with the same `search` and `lang` finds ' +
  'it; so the list, its facets and its map count the same offers. Without `search` it changes nothing.';

/** `lang` of the operations that count offers (facets, clusters): it only widens `search`. */
export const SearchLangSchema = Type.String({ minLength: 1, maxLength: MAX_TAG_LENGTH, description: SEARCH_LANG_DESCRIPTION, examples: ['en'] });

/** The schema of `lang` (query parameter or body key). */
export const LangSchema = Type.String({ minLength: 1, maxLength: MAX_TAG_LENGTH, description: LANG_DESCRIPTION, examples: ['en'] });

/** A `lang` value at `loc`: its canonical tag; undefined when absent or null; INVALID after reporting a 422. */
export function checkLang(check: InputChecker, value: unknown, loc: Loc): string | undefined | typeof INVALID_LANG {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    check.report(issues.stringType(loc, value));
    return INVALID_LANG;
  }
  const canonical = canonicalTag(value);
  if (canonical === undefined) {
    check.report(issues.valueError(loc, value, tagProblem(value)));
    return INVALID_LANG;
  }
  return canonical;
}

export const INVALID_LANG = Symbol('invalid lang');
