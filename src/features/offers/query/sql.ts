/**
 * The SQL of an offer field and of a sort: the field's typed expression (a typed column of the
 * offers table where there is one, typed-columns.ts; else offer_data cast for its kind), a bound
 * value cast to match it, and the ORDER BY of a sort. The operators' conditions built on these are
 * in operators-sql.ts. Values reach the database only as bound parameters, and the only names
 * spliced into SQL (`sql.ref` / `sql.lit`) are catalogue names.
 *
 * The request layer (src/features/offers/query/request.ts) checks a request and hands this module
 * values already normalized per kind (see FilterScalar).
 */
import { sql, type RawBuilder } from 'kysely';
import type { FilterScalar, OfferField, OfferSort } from './language.js';
import { distanceFrom } from './geo-sql.js';
import { fieldColumn } from './typed-columns.js';

/** offer_data->>'name': the field as text, NULL for JSON null or absent. */
export function dataText(field: OfferField): RawBuilder<string | null> {
  return sql<string | null>`(o.offer_data->>${sql.lit(field.name)})`;
}

/** The SQL value of a field, typed for comparison and ordering. */
export function fieldExpression(field: OfferField): RawBuilder<unknown> {
  const column = fieldColumn(field);
  if (column) return sql.ref(`o.${column.column}`);
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
export function param(field: OfferField, value: FilterScalar): RawBuilder<unknown> {
  const column = fieldColumn(field);
  const typed = column !== undefined;
  switch (field.kind) {
    case 'number':
      return typed ? sql`${value}::float8` : sql`${value}::numeric`;
    case 'integer':
      // int4 columns compare with int8 through the same index operator family.
      return typed ? sql`${value}::int8` : sql`${value}::numeric`;
    case 'boolean':
      return sql`${value}::boolean`;
    case 'uuid':
      return column?.type === 'uuid' ? sql`${value}::uuid` : sql`${value}::text`;
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
      return fieldColumn(field)?.type === 'uuid' ? expr : sql`${expr} collate "C"`;
    default:
      return expr;
  }
}
