/**
 * What a filter compares a field with: the kinds of field, the forms their values take once read,
 * the bounds of a value, and the value shapes an operator takes (one value, a pair, a list, a
 * flag; the geographic shapes are in geo-request.ts), each with the checker that reads it and
 * reports every problem at its place, FastAPI style. The operator table (operators.ts) names a
 * shape per operator; nothing here knows the operators.
 */
import type { FieldKind } from '../../../contract/offer-fields.js';
import { parseRfc3339, toStoredTimestamp } from '../../../contract/timestamps.js';
import { issues, type Loc, type ValidationIssue } from '../../../http/validation/issues.js';
import { laxBool, laxFloat, laxInt, laxString, type Lax } from '../../../http/validation/lax.js';
import { parseUuid } from '../../../http/validation/uuid.js';

/** A field kind of the query language: the stored kinds, and the offer's position (virtual). */
export type QueryFieldKind = FieldKind | 'geo_point';

export interface OfferField {
  readonly name: string;
  readonly kind: QueryFieldKind;
  /** 'offer': a column of the offers table; 'offer_data': a field of offer_data; 'virtual': location, distance. */
  readonly source: 'offer' | 'offer_data' | 'virtual';
}

/**
 * A filter value normalized by the request layer for the field's kind:
 * number / integer -> number; text / enum -> string; uuid -> lower-case hyphenated string;
 * boolean -> boolean; date-times -> UTC text with microseconds ('2025-01-31T09:15:00.000000Z').
 */
export type FilterScalar = number | string | boolean;

export interface GeoPoint {
  readonly lat: number;
  readonly lon: number;
}
export interface GeoRadius extends GeoPoint {
  readonly km: number;
}
export interface GeoBox {
  readonly south: number;
  readonly west: number;
  readonly north: number;
  readonly east: number;
}
/** [latitude, longitude] points; the polygon closes by itself. */
export type GeoPolygon = ReadonlyArray<readonly [number, number]>;

/** Most values of an `in` / `not_in` filter. */
export const MAX_LIST_VALUES = 1000;
/** Longest text value a filter may compare with (no stored field needs more to match). */
export const MAX_FILTER_STRING_LENGTH = 1000;
/** Points of a `within_polygon` value (extension E2). */
export const MIN_POLYGON_POINTS = 3;
export const MAX_POLYGON_POINTS = 1000;
/** Largest `within_radius` radius, in kilometres. */
export const MAX_RADIUS_KM = 1000;

/** Where problems go (the request's InputChecker). */
export interface IssueSink {
  report(issue: ValidationIssue): void;
}

/** A form of filter value: how it is read for a field, and how the docs name it. */
export interface ValueShape<V> {
  /** The value read for `field` (normalized, see FilterScalar); undefined when it has problems (all reported). */
  read(check: IssueSink, field: OfferField, value: unknown, loc: Loc): V | undefined;
  /** The Filter schema's words for it (`[low, high]`); undefined: one value of the field's type. */
  readonly doc: string | undefined;
}

function take<T>(check: IssueSink, result: Lax<T>): T | undefined {
  if (result.ok) return result.value;
  check.report(result.issue);
  return undefined;
}

/** One value of the field's type. */
export const SCALAR: ValueShape<FilterScalar> = {
  read: (check, field, value, loc) => take(check, scalarFor(field, value, loc)),
  doc: undefined,
};

/** `[low, high]`: two values of the field's type. */
export const PAIR: ValueShape<readonly [FilterScalar, FilterScalar]> = {
  read(check, field, value, loc) {
    const list = checkList(check, value, loc, 2, 2);
    if (!list) return undefined;
    const low = take(check, scalarFor(field, list[0], [...loc, 0]));
    const high = take(check, scalarFor(field, list[1], [...loc, 1]));
    return low === undefined || high === undefined ? undefined : [low, high];
  },
  doc: '`[low, high]`',
};

/** A list of `min` to `max` values of the field's type. */
export function listShape(min: number, max: number): ValueShape<readonly FilterScalar[]> {
  return {
    read(check, field, value, loc) {
      const list = checkList(check, value, loc, min, max);
      if (!list) return undefined;
      const values = list.map((v, i) => take(check, scalarFor(field, v, [...loc, i])));
      return values.every((v) => v !== undefined) ? (values as FilterScalar[]) : undefined;
    },
    doc: `a list of ${min} to ${max} values`,
  };
}

/** `true` or `false`, whatever the field's type. */
export const FLAG: ValueShape<boolean> = {
  read: (check, _field, value, loc) => take(check, laxBool(value, loc)),
  doc: '`true` or `false`',
};

function checkList(check: IssueSink, value: unknown, loc: Loc, min: number, max: number): unknown[] | undefined {
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
function scalarFor(field: OfferField, value: unknown, loc: Loc): Lax<FilterScalar> {
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
