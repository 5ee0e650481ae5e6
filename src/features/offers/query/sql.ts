/**
 * The offer filter and sort language (src/features/offers/query/language.ts), compiled to SQL. Values reach
 * the database only as bound parameters, and the only names spliced into SQL (`sql.ref` / `sql.lit`) are catalogue names.
 *
 * The request layer (src/features/offers/query/request.ts) checks a request and hands this module
 * values already normalized per kind (see FilterScalar).
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { FilterScalar, OfferField, OfferFilter, OfferSort } from './language.js';
import { distanceFrom, withinBox, withinPolygon, withinRadius } from './geo-sql.js';

/**
 * offer_data fields stored as typed, generated columns of the offers table (and indexed), so that
 * the common filters and sorts use an index instead of reading offer_data.
 */
export const OFFER_DATA_COLUMNS: Readonly<Record<string, string>> = {
  price: 'price',
  price_per_meter: 'price_per_meter',
  property_size: 'property_size',
  rooms: 'rooms',
  offer_type: 'offer_type',
  market_type: 'market_type',
  address_city: 'address_city',
  address_district: 'address_district',
  // Added by migration 2026_11_21_0002: the boolean of the typical listing-page search.
  has_balcony: 'has_balcony',
};

function dataColumn(field: OfferField): string | undefined {
  return field.source === 'offer_data' ? OFFER_DATA_COLUMNS[field.name] : undefined;
}

/** offer_data->>'name': the field as text, NULL for JSON null or absent. */
function dataText(field: OfferField): RawBuilder<string | null> {
  return sql<string | null>`(o.offer_data->>${sql.lit(field.name)})`;
}

/** The SQL value of a field, typed for comparison and ordering. */
export function fieldExpression(field: OfferField): RawBuilder<unknown> {
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
  switch (filter.operator) {
    case 'is_null':
      return isNullCondition(field, filter.value);
    case 'within_radius':
      return withinRadius(filter.value);
    case 'within_bbox':
      return withinBox(filter.value);
    case 'within_polygon':
      return withinPolygon(filter.value);
  }
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

/** The ORDER BY expression of a sort; text sorts in byte order, like the indexes. */
export function sortExpression(sort: OfferSort): RawBuilder<unknown> {
  const { field } = sort;
  if (sort.from) return distanceFrom(sort.from);
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
