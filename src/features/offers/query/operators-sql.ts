/**
 * The SQL half of the operator table (operators.ts): each operator's condition, keyed by operator,
 * so that a new operator without its SQL does not compile. Kept apart from the table because SQL
 * lives in files named for it. A condition compares the field's typed expression (sql.ts) with
 * bound values cast to match it; geography is in geo-sql.ts.
 *
 * `ne` and `not_in` leave nulls out (SQL's three-valued logic does exactly that); `contains` /
 * `starts_with` ignore letter case.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { FilterScalar, OfferField } from './values.js';
import type { FilterOperator, OfferFilter, OperatorFilter, OperatorValue } from './operators.js';
import { dataText, escapeLike, fieldExpression, param } from './sql.js';
import { fieldColumn } from './typed-columns.js';
import { withinBox, withinPolygon, withinRadius } from './geo-sql.js';

type Condition<K extends FilterOperator> = (field: OfferField, value: OperatorValue<K>) => RawBuilder<SqlBool>;

/** A comparison of the field's expression with one bound value. */
const compare =
  (op: '=' | '<>' | '>' | '>=' | '<' | '<=') =>
  (field: OfferField, value: FilterScalar): RawBuilder<SqlBool> =>
    sql<SqlBool>`${fieldExpression(field)} ${sql.raw(op)} ${param(field, value)}`;

/** Lower-cased LIKE with the user's text escaped: `%` and `_` match themselves. */
const like = (field: OfferField, pattern: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`lower(${fieldExpression(field)}) like lower(${pattern}::text)`;

const list = (field: OfferField, values: readonly FilterScalar[]) => sql.join(values.map((value) => param(field, value)));

function isNull(field: OfferField, isNull: boolean): RawBuilder<SqlBool> {
  if (field.kind === 'url_list') {
    // An array field is "null" when absent, JSON null or empty.
    const value = sql`o.offer_data->${sql.lit(field.name)}`;
    const length = sql`coalesce(jsonb_array_length(case when jsonb_typeof(${value}) = 'array' then ${value} end), 0)`;
    return isNull ? sql<SqlBool>`${length} = 0` : sql<SqlBool>`${length} > 0`;
  }
  // Without a typed column, the text is null exactly when the value is (no cast needed).
  const expr = fieldColumn(field) ? fieldExpression(field) : dataText(field);
  return isNull ? sql<SqlBool>`${expr} is null` : sql<SqlBool>`${expr} is not null`;
}

/** Each operator's condition (geography ignores the field: it is always `location`). */
export const OPERATOR_SQL: { readonly [K in FilterOperator]: Condition<K> } = {
  eq: compare('='),
  ne: compare('<>'),
  gt: compare('>'),
  gte: compare('>='),
  lt: compare('<'),
  lte: compare('<='),
  between: (field, [low, high]) => sql<SqlBool>`${fieldExpression(field)} between ${param(field, low)} and ${param(field, high)}`,
  in: (field, values) => sql<SqlBool>`${fieldExpression(field)} in (${list(field, values)})`,
  not_in: (field, values) => sql<SqlBool>`${fieldExpression(field)} not in (${list(field, values)})`,
  contains: (field, value) => like(field, `%${escapeLike(String(value))}%`),
  starts_with: (field, value) => like(field, `${escapeLike(String(value))}%`),
  is_null: isNull,
  within_radius: (_field, circle) => withinRadius(circle),
  within_bbox: (_field, box) => withinBox(box),
  within_polygon: (_field, polygon) => withinPolygon(polygon),
};

function conditionOf<K extends FilterOperator>(filter: OperatorFilter<K>): RawBuilder<SqlBool> {
  const condition: Condition<K> = OPERATOR_SQL[filter.operator];
  return condition(filter.field, filter.value);
}

/** One filter as a SQL condition. */
export function filterCondition(filter: OfferFilter): RawBuilder<SqlBool> {
  return conditionOf(filter);
}
