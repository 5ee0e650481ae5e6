/**
 * Reads an organization's active offers as columns (src/features/offers/facets/columns.ts), with the content
 * version they are current at: one statement, so one snapshot of the database holds both. The
 * columns read are the typed columns marked `memory` (query/typed-columns.ts).
 *
 * With `cards` (extension E13) each offer's card (cards/offer-cards.ts) is made too: the top-level
 * columns come with the same statement; the card field texts are cut from the stored offer_data,
 * read only for the offers whose row version token differs from the previous snapshot's (so a
 * reload after an import reads the bodies of the offers it changed, not all of them).
 */
import { sql } from 'kysely';
import { compareBytes, type CodedColumn, type CodedColumnKey, type NumberColumnKey, type OfferColumns } from './columns.js';
import { CODED_COLUMNS, NUMBER_COLUMNS } from '../query/typed-columns.js';
import type { ReadDb } from '../../../db/readonly.js';
import type { ColumnLoader } from './columns-cache.js';
import { buildCards, cardTextsAt, cardTextsOf, type CardSource } from '../cards/offer-cards.js';

export interface LoadOptions {
  /** Make the cards too. */
  readonly cards?: boolean;
  /** The organization's snapshot held before (stale): cards of unchanged offers are taken from it. */
  readonly previous?: OfferColumns | undefined;
}

interface ColumnRow extends Record<string, unknown> {
  v: string;
  n: number;
  present: boolean | null;
  offer_id: string;
  external_id: string;
  created_at: string;
  updated_at: string;
  created_micros: number;
  version: number;
  row_token: string;
}

/** Bodies read per statement while making cards. */
const BODIES_PER_READ = 500;

/** One row per active offer, each column as `c<i>` (pg and PGlite parse float8 and int4 to numbers, bool to booleans). */
export async function loadOfferColumns(db: ReadDb, organizationId: string, maxRows: number, options: LoadOptions = {}): Promise<OfferColumns | undefined> {
  const names = [...NUMBER_COLUMNS, ...CODED_COLUMNS].map(({ column }) => column.column);
  // The top-level columns of an answer, for the cards only (the facets do not read them).
  const top = options.cards
    ? sql`, o.external_id, o.created_at, o.updated_at, o.version, (extract(epoch from o.created_at) * 1000000)::float8 as created_micros,
        concat(o.xmin, '/', o.version, '/', o.updated_at) as row_token`
    : sql``;
  // The count first and in the same statement: a too large organization is not read at all.
  const result = await sql<ColumnRow>`
    with v as (select content_version::text as v from content_state where id = 1),
      n as (select count(*)::int as n from offers where organization_id = ${organizationId} and is_active)
    select v.v, n.n, r.*
    from v cross join n
      left join lateral (
        select true as present, o.offer_id, ${sql.join(names.map((name, i) => sql`${sql.ref(`o.${name}`)} as ${sql.ref(`c${i}`)}`))} ${top}
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
  const columns: OfferColumns = { version: first.v, rows: rows.length, ids: rows.map((row) => row.offer_id), numbers, coded };
  if (!options.cards) return columns;
  return { ...columns, cards: buildCards(await cardSources(db, organizationId, rows, options.previous)) };
}

/** Each row's card source: field texts from the previous snapshot when its token is unchanged, else from the body. */
async function cardSources(db: ReadDb, organizationId: string, rows: readonly ColumnRow[], previous: OfferColumns | undefined): Promise<CardSource[]> {
  const before = previous?.cards;
  const rowBefore = before ? new Map(previous.ids.map((id, i) => [id, i])) : undefined;
  const sources: (CardSource & { texts: (string | undefined)[] | undefined })[] = rows.map((row) => {
    const at = rowBefore?.get(row.offer_id);
    return {
      external_id: row.external_id,
      created_at: row.created_at,
      updated_at: row.updated_at,
      version: row.version,
      created_micros: Number(row.created_micros),
      token: row.row_token,
      texts: before !== undefined && at !== undefined ? cardTextsAt(before, at, row.row_token) : undefined,
    };
  });
  const missing = sources.map((source, i) => (source.texts === undefined ? i : -1)).filter((i) => i >= 0);
  for (let from = 0; from < missing.length; from += BODIES_PER_READ) {
    const batch = missing.slice(from, from + BODIES_PER_READ);
    const read = (
      await sql<{ offer_id: string; row_token: string; body: string }>`
        select o.offer_id, concat(o.xmin, '/', o.version, '/', o.updated_at) as row_token, o.offer_data_json as body
        from offers as o
        where o.organization_id = ${organizationId} and o.offer_id = any(${batch.map((i) => rows[i]!.offer_id)}::uuid[])`.execute(db)
    ).rows;
    const byId = new Map(read.map((r) => [r.offer_id, r]));
    for (const i of batch) {
      const found = byId.get(rows[i]!.offer_id);
      // Changed by an import since the columns were read: no card; answers that need it take the body path.
      if (found !== undefined && found.row_token === sources[i]!.token) sources[i]!.texts = cardTextsOf(found.body);
    }
  }
  return sources;
}

/**
 * The loader the service's column cache reads with: columns and cards, reusing the cards of the
 * offers an import left as they were.
 */
export function offerColumnsLoader(db: ReadDb): ColumnLoader {
  return (organizationId, maxRows, previous) => loadOfferColumns(db, organizationId, maxRows, { cards: true, previous });
}

/** The organizations with active offers and how many, largest first (what the warmer loads at start). */
export async function activeOrganizations(db: ReadDb): Promise<{ id: string; rows: number }[]> {
  return (
    await sql<{ id: string; rows: number }>`select organization_id as id, count(*)::int as rows from offers
      where is_active group by organization_id order by count(*) desc, organization_id`.execute(db)
  ).rows;
}
