/**
 * Reads an organization's active offers as columns (src/features/offers/facets/columns.ts), with the content
 * version they are current at: one statement, so one snapshot of the database holds both. The
 * columns read are the typed columns marked `memory` (query/typed-columns.ts).
 */
import { sql } from 'kysely';
import { compareBytes, type CodedColumn, type CodedColumnKey, type NumberColumnKey, type OfferColumns } from './columns.js';
import { CODED_COLUMNS, NUMBER_COLUMNS } from '../query/typed-columns.js';
import type { ReadDb } from '../../../db/readonly.js';

/** One row per active offer, each column as `c<i>` (pg and PGlite parse float8 and int4 to numbers, bool to booleans). */
export async function loadOfferColumns(db: ReadDb, organizationId: string, maxRows: number): Promise<OfferColumns | undefined> {
  const names = [...NUMBER_COLUMNS, ...CODED_COLUMNS].map(({ column }) => column.column);
  // The count first and in the same statement: a too large organization is not read at all.
  const result = await sql<Record<string, unknown> & { v: string; n: number; present: boolean | null; offer_id: string }>`
    with v as (select content_version::text as v from content_state where id = 1),
      n as (select count(*)::int as n from offers where organization_id = ${organizationId} and is_active)
    select v.v, n.n, r.*
    from v cross join n
      left join lateral (
        select true as present, o.offer_id, ${sql.join(names.map((name, i) => sql`${sql.ref(`o.${name}`)} as ${sql.ref(`c${i}`)}`))}
        from offers as o where o.organization_id = ${organizationId} and o.is_active and n.n <= ${maxRows}
      ) as r on true`.execute(db);
  const first = result.rows[0];
  if (first === undefined || first.n > maxRows) return undefined;
  const rows = result.rows.filter((row) => row.present === true);
  const numbers = {} as Record<NumberColumnKey, Float64Array>;
  NUMBER_COLUMNS.forEach(({ key }, c) => {
    const values = new Float64Array(rows.length);
    rows.forEach((row, i) => {
      const cell = row[`c${c}`] as number | null;
      values[i] = cell === null ? NaN : Number(cell);
    });
    numbers[key] = values;
  });
  const coded = {} as Record<CodedColumnKey, CodedColumn>;
  CODED_COLUMNS.forEach(({ key }, k) => {
    const name = `c${NUMBER_COLUMNS.length + k}`;
    const distinct = [...new Set(rows.map((row) => row[name] as string | boolean | null))].filter((value) => value !== null);
    // Facet order: text and ids by their bytes, false before true.
    distinct.sort((a, b) => (typeof a === 'boolean' ? Number(a) - Number(b) : compareBytes(a, b as string)));
    const codeOf = new Map<string | boolean, number>(distinct.map((value, code) => [value, code]));
    const codes = new Int32Array(rows.length);
    rows.forEach((row, i) => {
      const cell = row[name] as string | boolean | null;
      codes[i] = cell === null ? -1 : codeOf.get(cell)!;
    });
    coded[key] = { values: distinct, codes };
  });
  return { version: first.v, rows: rows.length, ids: rows.map((row) => row.offer_id), numbers, coded };
}
