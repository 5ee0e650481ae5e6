/**
 * Reads the inputs of the offer operations beyond what their schemas say: `include` values, the
 * sort field, and each filter's field, operator and value against the field's type (CONTRACT 6).
 * Each filter is checked with the schema its operator's record names and its value read with the
 * record's shape (operators.ts). Produces the typed request of src/features/offers/query/language.ts;
 * every problem is reported at the offending item's `field`, `operator` or `value`.
 */
import {
  DISTANCE,
  DISTANCE_SORT_FIELD,
  MAX_SEARCH_LENGTH,
  type GeoPoint,
  filterableFieldNames,
  isSortable,
  MAX_FILTERS,
  OFFER_INCLUDES,
  resolveOfferField,
  sortableFieldNames,
  type OfferField,
  type OfferFilter,
  type OfferInclude,
  type OfferListRequest,
  type OfferSort,
} from './language.js';
import { isFilterOperator, OPERATORS, OPERATORS_BY_KIND, operatorRecord, type FilterOperator } from './operators.js';
import { FILTER_SCHEMAS, PaginationSchema, SortingSchema } from '../schemas.js';
import { issues, type Loc } from '../../../http/validation/issues.js';
import type { InputChecker } from '../../../http/validation/input-checker.js';
import { checkGeoPoint } from './geo-request.js';
import { checkLang, INVALID_LANG } from '../../translations/index.js';
import { withSuggestion } from '../../../text/suggest.js';
import { MAX_SPARSE_FIELDS, selectionOf, SPARSE_FIELD_NAMES, sparseFieldIndex, type FieldSelection } from '../sparse-fields.js';


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
 * The body of an offer POST operation (a list, facets, clusters) as an object; undefined after
 * reporting it missing or not an object, as FastAPI does for a body model.
 */
export function checkBodyObject(check: InputChecker): Record<string, unknown> | undefined {
  const body = check.rawBody;
  if (body === undefined || body === null) {
    check.report(issues.missing(['body'], null));
    return undefined;
  }
  if (!isObject(body)) {
    check.report(issues.modelAttributesType(['body'], body));
    return undefined;
  }
  return body;
}

/**
 * The body of the offer list operations (OfferListRequestBody), read part by part with the schemas of
 * its parts, so that every problem is listed in document order, each filter's own checks right
 * after its shape's.
 */
export function checkOffersBody(check: InputChecker): OfferListRequest | undefined {
  const body = checkBodyObject(check);
  if (!body) return undefined;
  let pagination: { page: number; size: number } | undefined;
  if (Object.hasOwn(body, 'pagination')) {
    pagination = check.check(PaginationSchema, body.pagination, ['body', 'pagination']);
  } else {
    check.report(issues.missing(['body', 'pagination'], body));
  }
  const sort = checkSorting(check, body.sorting);
  const filters = checkFilters(check, body.filters);
  const search = checkSearch(check, body.search);
  const fields = checkBodyFields(check, body.fields);
  const lang = checkLang(check, body.lang, ['body', 'lang']);
  if (!pagination || sort === INVALID || !filters || search === INVALID || fields === INVALID || lang === INVALID_LANG) return undefined;
  return {
    page: pagination.page,
    size: pagination.size,
    sort,
    filters,
    ...(search === undefined ? {} : { search }),
    ...(fields === undefined ? {} : { fields }),
    ...(lang === undefined ? {} : { lang }),
  };
}

/** One `fields` name at `loc`: its catalogue index, or a 422 there with a did-you-mean. */
function checkFieldName(check: InputChecker, name: unknown, loc: Loc): number | undefined {
  if (typeof name !== 'string') {
    check.report(issues.stringType(loc, name));
    return undefined;
  }
  const index = sparseFieldIndex(name);
  if (index === undefined) check.report(issues.valueError(loc, name, withSuggestion(`unknown field '${name}'`, name, SPARSE_FIELD_NAMES)));
  return index;
}

/**
 * Body `fields` (sparse fields, extension E13): null or absent for every field; else a list of 1
 * or more offer_data field names, each a 422 at its index when unknown.
 */
export function checkBodyFields(check: InputChecker, value: unknown): FieldSelection | undefined | typeof INVALID {
  if (value === undefined || value === null) return undefined;
  const loc = ['body', 'fields'];
  if (!Array.isArray(value)) {
    check.report(issues.listType(loc, value));
    return INVALID;
  }
  if (value.length === 0) {
    check.report(issues.tooShort(loc, value, 1, 0));
    return INVALID;
  }
  if (value.length > MAX_SPARSE_FIELDS) {
    check.report(issues.tooLong(loc, value, MAX_SPARSE_FIELDS, value.length));
    return INVALID;
  }
  const indexes = value.map((name, i) => checkFieldName(check, name, [...loc, i]));
  return indexes.every((i) => i !== undefined) ? selectionOf(indexes as number[]) : INVALID;
}

/**
 * Query `fields` (sparse fields on GET): comma-separated and/or repeated, like `include`; each
 * name a 422 at its index among the names given (`?fields=price,cty` reports index 1). Present but
 * naming nothing (`?fields=`) is a 422 too: no field at all is not a request for every field.
 */
export function checkQueryFields(check: InputChecker, values: readonly string[] | undefined): FieldSelection | undefined {
  if (values === undefined) return undefined;
  const names = values.flatMap((value) => value.split(',')).map((name) => name.trim()).filter((name) => name !== '');
  const loc = ['query', 'fields'];
  if (names.length === 0) {
    check.report(issues.tooShort(loc, values, 1, 0));
    return undefined;
  }
  const indexes = names.map((name, i) => checkFieldName(check, name, [...loc, i]));
  return indexes.every((i) => i !== undefined) ? selectionOf(indexes as number[]) : undefined;
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
    // The schema that lists the operator: the original interface's, or an extension's (the
    // geography's operators are not in the original's list); an unknown operator is the original's.
    const schema = FILTER_SCHEMAS[isObject(item) && isFilterOperator(item.operator) ? OPERATORS[item.operator].schema : 'Filter'];
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
  const operator = isFilterOperator(item.operator) ? item.operator : undefined;
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

/** A filter's value, read with its operator's shape (operators.ts). */
function checkFilterValue(check: InputChecker, field: OfferField, operator: FilterOperator, value: unknown, loc: Loc): OfferFilter | undefined {
  const read = operatorRecord(operator).value.read(check, field, value, loc);
  // `read` has the shape of this operator's value.
  return read === undefined ? undefined : ({ field, operator, value: read } as OfferFilter);
}
