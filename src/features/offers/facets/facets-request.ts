/**
 * Reads the body of the facet operations (extension E3): the list's `filters` and `search`, the
 * fields to count (`facets`) and to measure (`stats`), and `facet_size`. A field that does not
 * exist, or cannot be counted or measured, is a 422 at its place in the list.
 */
import {
  DEFAULT_FACET_SIZE,
  facetableFieldNames,
  hasStats,
  isFacetable,
  MAX_FACET_SIZE,
  MAX_FACETS,
  resolveOfferField,
  statsFieldNames,
  type OfferFacetsRequest,
  type OfferField,
} from '../query/language.js';
import { issues, type Loc } from '../../../http/validation/issues.js';
import type { InputChecker } from '../../../http/validation/input-checker.js';
import { laxInt } from '../../../http/validation/lax.js';
import { checkBodyObject, checkFilters, checkSearch, INVALID } from '../query/request.js';
import { withSuggestion } from '../../../text/suggest.js';
import { checkLang, INVALID_LANG } from '../../translations/index.js';

/** A list of field names, each resolved and allowed by `accepts`; duplicates count once. */
function checkFieldList(
  check: InputChecker,
  value: unknown,
  loc: Loc,
  accepts: (field: OfferField) => boolean,
  allowed: () => string[],
  what: string,
): OfferField[] | undefined {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    check.report(issues.listType(loc, value));
    return undefined;
  }
  if (value.length > MAX_FACETS) {
    check.report(issues.tooLong(loc, value, MAX_FACETS, value.length));
    return undefined;
  }
  const fields = new Map<string, OfferField>();
  let valid = true;
  value.forEach((name, index) => {
    const at = [...loc, index];
    if (typeof name !== 'string') {
      check.report(issues.stringType(at, name));
      valid = false;
      return;
    }
    const field = resolveOfferField(name);
    if (!field) {
      check.report(issues.valueError(at, name, withSuggestion(`unknown field '${name}'`, name, allowed())));
      valid = false;
    } else if (!accepts(field)) {
      check.report(issues.valueError(at, name, `field '${name}' ${what}; use one of: ${allowed().join(', ')}`));
      valid = false;
    } else {
      fields.set(field.name, field);
    }
  });
  return valid ? [...fields.values()] : undefined;
}

export function checkFacetsBody(check: InputChecker): OfferFacetsRequest | undefined {
  const body = checkBodyObject(check);
  if (!body) return undefined;
  const filters = checkFilters(check, body.filters);
  const search = checkSearch(check, body.search);
  const lang = checkLang(check, body.lang, ['body', 'lang']);
  const facets = checkFieldList(check, body.facets, ['body', 'facets'], isFacetable, facetableFieldNames, 'cannot be counted as a facet');
  const stats = checkFieldList(check, body.stats, ['body', 'stats'], hasStats, statsFieldNames, 'has no statistics (numbers and date-times have)');
  let facetSize: number | undefined = DEFAULT_FACET_SIZE;
  if (body.facet_size !== undefined && body.facet_size !== null) {
    const loc = ['body', 'facet_size'];
    const n = laxInt(body.facet_size, loc);
    facetSize = undefined;
    if (!n.ok) check.report(n.issue);
    else if (n.value < 1) check.report(issues.greaterThanEqual(loc, body.facet_size, 1));
    else if (n.value > MAX_FACET_SIZE) check.report(issues.lessThanEqual(loc, body.facet_size, MAX_FACET_SIZE));
    else facetSize = n.value;
  }
  if (!filters || search === INVALID || lang === INVALID_LANG || !facets || !stats || facetSize === undefined) return undefined;
  return { filters, ...(search === undefined ? {} : { search }), ...(lang === undefined ? {} : { lang }), facets, stats, facetSize };
}
