/**
 * Reads the inputs of the offer operations beyond what their schemas say: `include` values, the
 * sort field, and each filter's field, operator and value against the field's type (CONTRACT 6).
 * Produces the typed request of src/domain/offer-query.ts; every problem is reported at the
 * offending item's `field`, `operator` or `value`.
 */
import { parseRfc3339, toStoredTimestamp } from '../../domain/timestamps.js';
import {
  DISTANCE,
  DISTANCE_SORT_FIELD,
  FILTER_OPERATORS,
  isGeoOperator,
  MAX_SEARCH_LENGTH,
  type GeoPoint,
  filterableFieldNames,
  isSortable,
  MAX_FILTER_STRING_LENGTH,
  MAX_FILTERS,
  MAX_LIST_VALUES,
  OFFER_INCLUDES,
  OPERATORS_BY_KIND,
  resolveOfferField,
  sortableFieldNames,
  type FilterOperator,
  type FilterScalar,
  type OfferField,
  type OfferFilter,
  type OfferInclude,
  type OfferListRequest,
  type OfferSort,
} from '../../domain/offer-query.js';
import { withSuggestion } from '../../domain/suggest.js';
import { FilterSchema, GeoFilterSchema, PaginationSchema, SortingSchema } from '../schemas/requests.js';
import { issues, type Loc } from './errors.js';
import type { InputChecker } from './input-checker.js';
import { laxBool, laxFloat, laxInt, laxString, type Lax } from './lax.js';
import { checkGeoPoint, checkGeoValue } from './offer-geo.js';
import { parseUuid } from './uuid.js';


const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A part that was present but had problems (they are reported). */
export const INVALID = Symbol('invalid');

/** `include`: comma-separated and/or repeated; an unknown value is a literal_error at ["query","include"]. */
export function checkInclude(check: InputChecker, values: readonly string[] | undefined): Set<OfferInclude> {
  const include = new Set<OfferInclude>();
  for (const value of values ?? []) {
    for (const part of value.split(',')) {
      const name = part.trim();
      if (name === '') continue;
      if ((OFFER_INCLUDES as readonly string[]).includes(name)) include.add(name as OfferInclude);
      else check.report(issues.literal(['query', 'include'], name, OFFER_INCLUDES));
    }
  }
  return include;
}

/**
 * The body of the offer list operations (OfferListRequestBody), read part by part with the schemas of
 * its parts, so that every problem is listed in document order, each filter's own checks right
 * after its shape's.
 */
export function checkOffersBody(check: InputChecker): OfferListRequest | undefined {
  const body = check.rawBody;
  if (body === undefined || body === null) {
    check.report(issues.missing(['body'], null));
    return undefined;
  }
  if (!isObject(body)) {
    check.report(issues.modelAttributesType(['body'], body));
    return undefined;
  }
  let pagination: { page: number; size: number } | undefined;
  if (Object.hasOwn(body, 'pagination')) {
    pagination = check.check(PaginationSchema, body.pagination, ['body', 'pagination']);
  } else {
    check.report(issues.missing(['body', 'pagination'], body));
  }
  const sort = checkSorting(check, body.sorting);
  const filters = checkFilters(check, body.filters);
  const search = checkSearch(check, body.search);
  if (!pagination || sort === INVALID || !filters || search === INVALID) return undefined;
  return { page: pagination.page, size: pagination.size, sort, filters, ...(search === undefined ? {} : { search }) };
}

/**
 * `search` (extension E1): null or absent for none; else a string of 1 to 200 characters once
 * trimmed, returned trimmed.
 */
export function checkSearch(check: InputChecker, search: unknown): string | undefined | typeof INVALID {
  if (search === undefined || search === null) return undefined;
  const loc = ['body', 'search'];
  if (typeof search !== 'string') {
    check.report(issues.stringType(loc, search));
    return INVALID;
  }
  const text = search.trim();
  if (text === '') {
    check.report(issues.stringTooShort(loc, search, 1));
    return INVALID;
  }
  if ([...text].length > MAX_SEARCH_LENGTH) {
    check.report(issues.stringTooLong(loc, search, MAX_SEARCH_LENGTH));
    return INVALID;
  }
  if (text.includes('\u0000')) {
    check.report(issues.valueError(loc, search, 'text values may not contain the NUL character'));
    return INVALID;
  }
  return text;
}

function checkSorting(check: InputChecker, sorting: unknown): OfferSort | undefined | typeof INVALID {
  if (sorting === undefined || sorting === null) return undefined;
  const loc = ['body', 'sorting'];
  const checked = check.check<{ field: string; direction: 'asc' | 'desc' }>(SortingSchema, sorting, loc);
  if (!isObject(sorting) || typeof sorting.field !== 'string') return INVALID;
  if (sorting.field === DISTANCE_SORT_FIELD) {
    // Extension E2: distance from a point.
    let from: GeoPoint | undefined;
    if (Object.hasOwn(sorting, 'from')) from = checkGeoPoint(check, sorting.from, [...loc, 'from']);
    else check.report(issues.missing([...loc, 'from'], sorting));
    return checked && from ? { field: DISTANCE, direction: checked.direction, from } : INVALID;
  }
  const field = resolveOfferField(sorting.field);
  if (!field || !isSortable(field)) {
    const reason = field ? `field '${sorting.field}' cannot be sorted on` : `unknown field '${sorting.field}'`;
    check.report(issues.valueError([...loc, 'field'], sorting.field, withSuggestion(reason, sorting.field, sortableFieldNames())));
    return INVALID;
  }
  return checked ? { field, direction: checked.direction } : INVALID;
}

export function checkFilters(check: InputChecker, filters: unknown): OfferFilter[] | undefined {
  if (filters === undefined || filters === null) return [];
  const loc = ['body', 'filters'];
  if (!Array.isArray(filters)) {
    check.report(issues.listType(loc, filters));
    return undefined;
  }
  if (filters.length > MAX_FILTERS) {
    check.report(issues.tooLong(loc, filters, MAX_FILTERS, filters.length));
    return undefined;
  }
  const out: OfferFilter[] = [];
  let valid = true;
  filters.forEach((item, index) => {
    const itemLoc = [...loc, index];
    // The schema of the original interface, or of a geography filter (its operators are not in the original's list).
    const schema = isObject(item) && isGeoOperator(item.operator) ? GeoFilterSchema : FilterSchema;
    const shaped = check.check(schema, item, itemLoc) !== undefined;
    const filter = isObject(item) ? checkFilter(check, item, itemLoc) : undefined;
    if (filter && shaped) out.push(filter);
    else valid = false;
  });
  return valid ? out : undefined;
}

function checkFilter(check: InputChecker, item: Record<string, unknown>, loc: Loc): OfferFilter | undefined {
  let field: OfferField | undefined;
  if (typeof item.field === 'string') {
    field = resolveOfferField(item.field);
    if (!field) {
      const reason = withSuggestion(`unknown field '${item.field}'`, item.field, filterableFieldNames());
      check.report(issues.valueError([...loc, 'field'], item.field, reason));
    }
  }
  const operator =
    (FILTER_OPERATORS as readonly unknown[]).includes(item.operator) || isGeoOperator(item.operator)
      ? (item.operator as FilterOperator)
      : undefined;
  if (!field || !operator) return undefined;
  const allowed = OPERATORS_BY_KIND[field.kind];
  if (!allowed.includes(operator)) {
    check.report(
      issues.valueError(
        [...loc, 'operator'],
        operator,
        `operator '${operator}' is not available for field '${field.name}'; use one of: ${allowed.join(', ')}`,
      ),
    );
    return undefined;
  }
  if (!Object.hasOwn(item, 'value')) return undefined; // reported as missing by the schema
  return checkFilterValue(check, field, operator, item.value, [...loc, 'value']);
}

function checkFilterValue(
  check: InputChecker,
  field: OfferField,
  operator: FilterOperator,
  value: unknown,
  loc: Loc,
): OfferFilter | undefined {
  const take = <T>(result: Lax<T>): T | undefined => {
    if (result.ok) return result.value;
    check.report(result.issue);
    return undefined;
  };
  if (isGeoOperator(operator)) {
    const geo = checkGeoValue(check, operator, value, loc);
    return geo === undefined ? undefined : ({ field, operator, value: geo } as OfferFilter);
  }
  switch (operator) {
    case 'is_null': {
      const flag = take(laxBool(value, loc));
      return flag === undefined ? undefined : { field, operator, value: flag };
    }
    case 'between': {
      const list = checkList(check, value, loc, 2, 2);
      if (!list) return undefined;
      const low = take(scalarFor(field, list[0], [...loc, 0]));
      const high = take(scalarFor(field, list[1], [...loc, 1]));
      return low === undefined || high === undefined ? undefined : { field, operator, value: [low, high] };
    }
    case 'in':
    case 'not_in': {
      const list = checkList(check, value, loc, 1, MAX_LIST_VALUES);
      if (!list) return undefined;
      const values = list.map((v, i) => take(scalarFor(field, v, [...loc, i])));
      return values.every((v) => v !== undefined) ? { field, operator, value: values as FilterScalar[] } : undefined;
    }
    default: {
      const scalar = take(scalarFor(field, value, loc));
      return scalar === undefined ? undefined : { field, operator, value: scalar };
    }
  }
}

function checkList(check: InputChecker, value: unknown, loc: Loc, min: number, max: number): unknown[] | undefined {
  if (!Array.isArray(value)) {
    check.report(issues.listType(loc, value));
    return undefined;
  }
  if (value.length > max) {
    check.report(issues.tooLong(loc, value, max, value.length));
    return undefined;
  }
  if (value.length < min) {
    check.report(issues.tooShort(loc, value, min, value.length));
    return undefined;
  }
  return value;
}

/** One value for a field, converted to the form the SQL compiler expects (see FilterScalar). */
export function scalarFor(field: OfferField, value: unknown, loc: Loc): Lax<FilterScalar> {
  switch (field.kind) {
    case 'number': {
      const n = laxFloat(value, loc);
      if (n.ok && !Number.isFinite(n.value)) return { ok: false, issue: issues.finiteNumber(loc, value) };
      return n;
    }
    case 'integer': {
      const n = laxInt(value, loc);
      if (!n.ok) return n;
      // Beyond 2^53 a JSON number is no longer an exact integer.
      if (n.value > Number.MAX_SAFE_INTEGER) return { ok: false, issue: issues.lessThanEqual(loc, value, Number.MAX_SAFE_INTEGER) };
      if (n.value < -Number.MAX_SAFE_INTEGER) return { ok: false, issue: issues.greaterThanEqual(loc, value, -Number.MAX_SAFE_INTEGER) };
      return n;
    }
    case 'boolean':
      return laxBool(value, loc);
    case 'uuid': {
      if (typeof value !== 'string') return { ok: false, issue: issues.uuidType(loc, value) };
      const parsed = parseUuid(value);
      return parsed.ok ? { ok: true, value: parsed.value } : { ok: false, issue: issues.uuidParsing(loc, value, parsed.error) };
    }
    case 'datetime':
    case 'datetime_ms':
    case 'datetime_offset':
      return dateTimeValue(value, loc);
    case 'text':
    case 'enum':
    case 'url_list':
    case 'geo_point': // never reached: location takes only the geography operators
      return filterText(value, loc);
  }
}

/**
 * A text value, bounded in length; NUL is refused because PostgreSQL text cannot hold it (no stored
 * value could ever match it, and the database would reject the parameter).
 */
function filterText(value: unknown, loc: Loc): Lax<string> {
  const text = laxString(value, loc);
  if (!text.ok) return text;
  if (text.value.length > MAX_FILTER_STRING_LENGTH && [...text.value].length > MAX_FILTER_STRING_LENGTH) {
    return { ok: false, issue: issues.stringTooLong(loc, value, MAX_FILTER_STRING_LENGTH) };
  }
  if (text.value.includes('\u0000')) {
    return { ok: false, issue: issues.valueError(loc, value, 'text values may not contain the NUL character') };
  }
  return text;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const NAIVE = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?$/;

/**
 * An RFC 3339 date-time. A date alone means midnight UTC and a date-time without an offset is
 * read as UTC (both conveniences; pydantic accepts them too).
 */
function dateTimeValue(value: unknown, loc: Loc): Lax<string> {
  if (typeof value !== 'string') return { ok: false, issue: issues.datetimeType(loc, value) };
  let text = value.trim();
  if (DATE_ONLY.test(text)) text = `${text}T00:00:00Z`;
  else if (NAIVE.test(text)) text = `${text}Z`;
  const stored = parseRfc3339(text) ? toStoredTimestamp(text) : undefined;
  if (stored === undefined) {
    return {
      ok: false,
      issue: issues.datetimeParsing(loc, value, 'expected an RFC 3339 date-time such as 2025-03-01T00:00:00Z'),
    };
  }
  return { ok: true, value: stored };
}
