/**
 * Facet counts and statistics of the offers a list request matches (extension E3): from the
 * organization's offers held as columns in memory when every filter, facet and statistic is on a
 * column field (src/features/offers/facets/columns.ts), else in one statement. A facet counts with every
 * filter but those on its own field (disjunctive facets: with `address_city eq Kraków` chosen, the
 * city facet still counts the other cities), so in the statement each facet on a filtered field is
 * a part of its own; the total, every statistic and the facets on fields that no filter names
 * share one scan with every filter (grouping sets).
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { OfferColumnsCache } from './columns-cache.js';
import { columnsCanAnswer, facetsFromColumns } from './columns.js';
import type { FacetCount, FieldStats, OfferFacetsRequest, OfferFacetsView, OfferField, OfferFilter } from '../query/language.js';
import { offerScopeCondition } from '../../access/index.js';
import type { Visibility } from '../../access/index.js';
import { toApiTimestamp, toMillisZ, toOffsetForm } from '../../../contract/timestamps.js';
import { readContentVersion } from '../../content-version/index.js';
import { offerColumnsLoader } from './columns-read.js';
import { fieldExpression } from '../query/sql.js';
import { filterCondition } from '../query/operators-sql.js';
import { searchCondition } from '../query/search-sql.js';
import type { ReadDb } from '../../../db/readonly.js';

interface PartRow {
  part: 'all' | 'facet';
  name: string | null;
  value: unknown;
  count: number;
  stats: Record<string, { min: unknown; max: unknown; avg: unknown; count: number }> | null;
}

/** The conditions of a request, optionally without the filters on one field. */
function conditions(request: OfferFacetsRequest, organizationId: string, without?: OfferField): RawBuilder<SqlBool> {
  const parts: RawBuilder<SqlBool>[] = request.filters
    .filter((f: OfferFilter) => without === undefined || f.field.name !== without.name)
    .map(filterCondition);
  if (request.search !== undefined) parts.push(searchCondition(request.search, organizationId, request.lang));
  return parts.length === 0 ? sql<SqlBool>`true` : sql<SqlBool>`${sql.join(parts, sql` and `)}`;
}

/** How a facet's values sort among equal counts: byte order for text, numeric, false before true. */
function valueOrder(field: OfferField): RawBuilder<unknown> {
  const expr = fieldExpression(field);
  return field.kind === 'text' || field.kind === 'enum' ? sql`${expr} collate "C"` : expr;
}

/** A statistic's value in the field's own form (date-times as the API writes them). */
function statValue(field: OfferField, value: unknown): number | string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  const text = String(value);
  switch (field.kind) {
    case 'datetime':
      return toApiTimestamp(text);
    case 'datetime_ms':
      return toMillisZ(text) ?? text;
    case 'datetime_offset':
      return toOffsetForm(text) ?? text;
    default:
      return Number(text);
  }
}

function isDateTime(field: OfferField): boolean {
  return field.kind === 'datetime' || field.kind === 'datetime_ms' || field.kind === 'datetime_offset';
}

/**
 * The total, the statistics and the facets `fields` (none of them filtered) from one scan:
 * `grouping sets ((), (f1), (f2), ...)`. grouping(f1, ..., fn) tells the sets apart: all bits set
 * for the empty set (the total), all but field i's bit (value 1 << (n - 1 - i)) for field i. Each
 * facet keeps its `facetSize` most frequent values, in the order a single facet's query gives.
 */
function sharedScan(fields: readonly OfferField[], statsObject: RawBuilder<unknown>, where: RawBuilder<SqlBool>, facetSize: number): RawBuilder<unknown> {
  const exprs = fields.map(fieldExpression);
  const n = fields.length;
  const grouping = sql`grouping(${sql.join(exprs)})`;
  const everything = 2 ** n - 1;
  const setOf = (i: number) => everything - 2 ** (n - 1 - i);
  const name = sql`case ${grouping} ${sql.join(fields.map((field, i) => sql`when ${sql.lit(setOf(i))} then ${sql.lit(field.name)}::text`), sql` `)} end`;
  const value = sql`case ${grouping} ${sql.join(exprs.map((expr, i) => sql`when ${sql.lit(setOf(i))} then to_jsonb(${expr})`), sql` `)} end`;
  const order = sql.join(fields.map((field) => sql`${valueOrder(field)} asc nulls last`));
  return sql`(select part, name, value, count, stats from (
      select case ${grouping} when ${sql.lit(everything)} then 'all' else 'facet' end::text as part, ${name} as name, ${value} as value,
        count(*)::int as count, case ${grouping} when ${sql.lit(everything)} then ${statsObject} end as stats, ${grouping} as grouping_set,
        row_number() over (partition by ${grouping} order by count(*) desc, ${order}) as rank
      from offers as o where ${where}
      group by grouping sets ((), ${sql.join(exprs.map((expr) => sql`(${expr})`))})
    ) as sets where rank <= ${facetSize} order by grouping_set desc, rank)`;
}

type FacetsRequest = OfferFacetsRequest & { investmentId?: string | undefined };

/**
 * The facets answer: from the organization's offer columns held in memory when `columns` is given
 * and they can answer the request (src/features/offers/facets/columns.ts), else from one SQL statement. The
 * columns are of the content version the database holds at the call, so both give the same counts.
 */
export async function offerFacets(db: ReadDb, visibility: Visibility, request: FacetsRequest, columns?: OfferColumnsCache): Promise<OfferFacetsView> {
  const version = columns !== undefined && columnsCanAnswer(request) ? await readContentVersion(db) : undefined;
  if (columns !== undefined && version !== undefined) {
    const snapshot = await columns.get(visibility.organizationId, version, offerColumnsLoader(db));
    if (snapshot !== undefined) return facetsFromColumns(snapshot, request, { scope: visibility.scope, investmentId: request.investmentId });
  }
  return offerFacetsSql(db, visibility, request);
}

/** The facets answer from one SQL statement (every request can be answered so). */
export async function offerFacetsSql(db: ReadDb, visibility: Visibility, request: FacetsRequest): Promise<OfferFacetsView> {
  const inScope = offerScopeCondition(visibility.scope, 'o');
  const base = sql<SqlBool>`o.organization_id = ${visibility.organizationId} and o.is_active${
    request.investmentId === undefined ? sql`` : sql` and o.investment_id = ${request.investmentId}`
  }${inScope ? sql` and ${inScope}` : sql``}`;
  const statsObject =
    request.stats.length === 0
      ? sql`null::jsonb`
      : sql`jsonb_build_object(${sql.join(
          request.stats.map((field) => {
            const x = fieldExpression(field);
            const avg = isDateTime(field) ? sql`to_timestamp(avg(extract(epoch from ${x})))` : sql`avg(${x})`;
            return sql`${sql.lit(field.name)}::text, jsonb_build_object('min', min(${x}), 'max', max(${x}), 'avg', ${avg}, 'count', count(${x}))`;
          }),
        )})`;
  const where = sql<SqlBool>`${base} and ${conditions(request, visibility.organizationId)}`;
  // A facet on a field that no filter names counts under every filter, as the total does: one scan
  // of the matching offers serves the total, the statistics and all such facets.
  const isFiltered = (field: OfferField) => request.filters.some((f) => f.field.name === field.name);
  const shared = request.facets.filter((field) => !isFiltered(field));
  const all =
    shared.length === 0
      ? sql`select 'all'::text as part, null::text as name, null::jsonb as value, count(*)::int as count, ${statsObject} as stats
    from offers as o where ${where}`
      : sharedScan(shared, statsObject, where, request.facetSize);
  const facetParts = request.facets.filter(isFiltered).map((field) => {
    const expr = fieldExpression(field);
    return sql`(select 'facet'::text as part, ${sql.lit(field.name)}::text as name, to_jsonb(${expr}) as value, count(*)::int as count, null::jsonb as stats
      from offers as o where ${base} and ${conditions(request, visibility.organizationId, field)}
      group by ${expr} order by count(*) desc, ${valueOrder(field)} asc nulls last limit ${request.facetSize})`;
  });
  const statement = sql<PartRow>`${sql.join([all, ...facetParts], sql` union all `)}`;
  const rows = (await statement.execute(db)).rows;

  const view: OfferFacetsView = { total: 0, facets: {}, stats: {} };
  for (const field of request.facets) view.facets[field.name] = [];
  for (const row of rows) {
    if (row.part === 'all') {
      view.total = row.count;
      for (const field of request.stats) {
        const s = row.stats?.[field.name];
        const stats: FieldStats = {
          min: statValue(field, s?.min),
          max: statValue(field, s?.max),
          avg: statValue(field, s?.avg),
          count: s?.count ?? 0,
        };
        view.stats[field.name] = stats;
      }
    } else {
      const count: FacetCount = { value: facetValue(row.value), count: row.count };
      view.facets[row.name!]!.push(count);
    }
  }
  return view;
}

/** jsonb numbers come back as JS numbers; strings, booleans and null as they are. */
function facetValue(value: unknown): FacetCount['value'] {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return String(value);
}
