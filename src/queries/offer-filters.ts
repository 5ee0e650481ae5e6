/**
 * The offer filter and sort language, compiled to SQL. Fields come from the field catalogue
 * (src/domain/offer-fields.ts); values reach the database only as bound parameters, and the only
 * names spliced into SQL (`sql.ref` / `sql.lit`) are catalogue names.
 *
 * The request layer (src/http/validation/offer-request.ts) checks a request and hands this module
 * values already normalized per kind (see FilterScalar).
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import {
  OFFER_DATA_COLUMNS,
  OFFER_DATA_FIELD_BY_NAME,
  OFFER_TOP_FIELDS,
  type FieldKind,
} from '../domain/offer-fields.js';

export const FILTER_OPERATORS = [
  'eq',
  'ne',
  'gt',
  'gte',
  'lt',
  'lte',
  'between',
  'in',
  'not_in',
  'is_null',
  'contains',
  'starts_with',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

const ORDERED: readonly FilterOperator[] = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'not_in', 'is_null'];
const EQUALITY: readonly FilterOperator[] = ['eq', 'ne', 'in', 'not_in', 'is_null'];

/** Which operators each kind of field takes (CONTRACT 6). */
export const OPERATORS_BY_KIND: Readonly<Record<FieldKind, readonly FilterOperator[]>> = {
  number: ORDERED,
  integer: ORDERED,
  datetime: ORDERED,
  datetime_ms: ORDERED,
  datetime_offset: ORDERED,
  text: ['eq', 'ne', 'in', 'not_in', 'contains', 'starts_with', 'is_null'],
  enum: EQUALITY,
  uuid: EQUALITY,
  boolean: ['eq', 'ne', 'is_null'],
  url_list: ['is_null'],
};

/** Offer-level fields that may be sorted on (the others are ids, and offer_id breaks ties anyway). */
const SORTABLE_TOP_FIELDS: ReadonlySet<string> = new Set(['created_at', 'updated_at', 'version', 'external_id']);
const SORTABLE_DATA_KINDS: ReadonlySet<FieldKind> = new Set([
  'number',
  'integer',
  'text',
  'enum',
  'uuid',
  'datetime_ms',
  'datetime_offset',
]);

export interface OfferField {
  readonly name: string;
  readonly kind: FieldKind;
  /** 'offer': a column of the offers table; 'offer_data': a field of offer_data. */
  readonly source: 'offer' | 'offer_data';
}

const TOP_FIELD_BY_NAME: ReadonlyMap<string, OfferField> = new Map(
  OFFER_TOP_FIELDS.map((field) => [field.name, { name: field.name, kind: field.kind, source: 'offer' as const }]),
);

/**
 * A field name of a filter or sort: an offer-level field, or an offer_data field by its bare name
 * or as `offer_data.<name>`. Offer-level names win (`external_id` is the offer's, which equals
 * offer_data.external_id anyway).
 */
export function resolveOfferField(name: string): OfferField | undefined {
  const bare = name.startsWith('offer_data.') ? name.slice('offer_data.'.length) : undefined;
  if (bare === undefined) {
    const top = TOP_FIELD_BY_NAME.get(name);
    if (top) return top;
  }
  const data = OFFER_DATA_FIELD_BY_NAME.get(bare ?? name);
  return data ? { name: data.name, kind: data.kind, source: 'offer_data' } : undefined;
}

export function isSortable(field: OfferField): boolean {
  return field.source === 'offer' ? SORTABLE_TOP_FIELDS.has(field.name) : SORTABLE_DATA_KINDS.has(field.kind);
}

/** Every name a sort may use, for the docs and error messages. */
export function sortableFieldNames(): string[] {
  const names = [...SORTABLE_TOP_FIELDS];
  for (const field of OFFER_DATA_FIELD_BY_NAME.values()) {
    if (SORTABLE_DATA_KINDS.has(field.kind) && !SORTABLE_TOP_FIELDS.has(field.name)) names.push(field.name);
  }
  return names;
}

/**
 * A filter value normalized by the request layer for the field's kind:
 * number / integer -> number; text / enum -> string; uuid -> lower-case hyphenated string;
 * boolean -> boolean; date-times -> UTC text with microseconds ('2025-01-31T09:15:00.000000Z').
 */
export type FilterScalar = number | string | boolean;

export type OfferFilter =
  | { field: OfferField; operator: 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains' | 'starts_with'; value: FilterScalar }
  | { field: OfferField; operator: 'between'; value: readonly [FilterScalar, FilterScalar] }
  | { field: OfferField; operator: 'in' | 'not_in'; value: readonly FilterScalar[] }
  | { field: OfferField; operator: 'is_null'; value: boolean };

export interface OfferSort {
  field: OfferField;
  direction: 'asc' | 'desc';
}

function dataColumn(field: OfferField): string | undefined {
  return field.source === 'offer_data' ? OFFER_DATA_COLUMNS[field.name] : undefined;
}

/** offer_data->>'name': the field as text, NULL for JSON null or absent. */
function dataText(field: OfferField): RawBuilder<string | null> {
  return sql<string | null>`(o.offer_data->>${sql.lit(field.name)})`;
}

/** The SQL value of a field, typed for comparison and ordering. */
function fieldExpression(field: OfferField): RawBuilder<unknown> {
  if (field.source === 'offer') return sql.ref(`o.${field.name}`);
  const column = dataColumn(field);
  if (column) return sql.ref(`o.${column}`);
  switch (field.kind) {
    // numeric holds every JSON number exactly (jsonb stores them as numeric).
    case 'number':
    case 'integer':
      return sql`${dataText(field)}::numeric`;
    case 'boolean':
      return sql`${dataText(field)}::boolean`;
    case 'datetime':
    case 'datetime_ms':
    case 'datetime_offset':
      return sql`${dataText(field)}::timestamptz`;
    default:
      return dataText(field);
  }
}

/** A bound parameter cast to the type of the field's expression, so no value can change its type. */
function param(field: OfferField, value: FilterScalar): RawBuilder<unknown> {
  const typed = field.source === 'offer' || dataColumn(field) !== undefined;
  switch (field.kind) {
    case 'number':
      return typed ? sql`${value}::float8` : sql`${value}::numeric`;
    case 'integer':
      // int4 columns compare with int8 through the same index operator family.
      return typed ? sql`${value}::int8` : sql`${value}::numeric`;
    case 'boolean':
      return sql`${value}::boolean`;
    case 'uuid':
      return field.source === 'offer' ? sql`${value}::uuid` : sql`${value}::text`;
    case 'datetime':
    case 'datetime_ms':
    case 'datetime_offset':
      return sql`${value}::timestamptz`;
    default:
      return sql`${value}::text`;
  }
}

/** Escapes LIKE wildcards so that a user's `%` or `_` matches itself (backslash is the escape). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function isNullCondition(field: OfferField, isNull: boolean): RawBuilder<SqlBool> {
  if (field.kind === 'url_list') {
    // An array field is "null" when absent, JSON null or empty.
    const value = sql`o.offer_data->${sql.lit(field.name)}`;
    const length = sql`coalesce(jsonb_array_length(case when jsonb_typeof(${value}) = 'array' then ${value} end), 0)`;
    return isNull ? sql<SqlBool>`${length} = 0` : sql<SqlBool>`${length} > 0`;
  }
  const expr = field.source === 'offer' || dataColumn(field) ? fieldExpression(field) : dataText(field);
  return isNull ? sql<SqlBool>`${expr} is null` : sql<SqlBool>`${expr} is not null`;
}

/**
 * One filter as a SQL condition. `ne` and `not_in` leave nulls out (SQL's three-valued logic does
 * exactly that); `contains` / `starts_with` ignore letter case.
 */
export function filterCondition(filter: OfferFilter): RawBuilder<SqlBool> {
  const { field } = filter;
  if (filter.operator === 'is_null') return isNullCondition(field, filter.value);
  const expr = fieldExpression(field);
  const p = (value: FilterScalar) => param(field, value);
  switch (filter.operator) {
    case 'eq':
      return sql<SqlBool>`${expr} = ${p(filter.value)}`;
    case 'ne':
      return sql<SqlBool>`${expr} <> ${p(filter.value)}`;
    case 'gt':
      return sql<SqlBool>`${expr} > ${p(filter.value)}`;
    case 'gte':
      return sql<SqlBool>`${expr} >= ${p(filter.value)}`;
    case 'lt':
      return sql<SqlBool>`${expr} < ${p(filter.value)}`;
    case 'lte':
      return sql<SqlBool>`${expr} <= ${p(filter.value)}`;
    case 'between':
      return sql<SqlBool>`${expr} between ${p(filter.value[0])} and ${p(filter.value[1])}`;
    case 'in':
      return sql<SqlBool>`${expr} in (${sql.join(filter.value.map(p))})`;
    case 'not_in':
      return sql<SqlBool>`${expr} not in (${sql.join(filter.value.map(p))})`;
    case 'contains':
      return sql<SqlBool>`lower(${expr}) like lower(${`%${escapeLike(String(filter.value))}%`}::text)`;
    case 'starts_with':
      return sql<SqlBool>`lower(${expr}) like lower(${`${escapeLike(String(filter.value))}%`}::text)`;
  }
}

/** The ORDER BY expression of a sortable field; text sorts in byte order, like the indexes. */
export function sortExpression(field: OfferField): RawBuilder<unknown> {
  const expr = fieldExpression(field);
  switch (field.kind) {
    case 'text':
    case 'enum':
      return sql`${expr} collate "C"`;
    case 'uuid':
      // uuid columns order by their bytes already; offer_data.id is text.
      return field.source === 'offer' ? expr : sql`${expr} collate "C"`;
    default:
      return expr;
  }
}
