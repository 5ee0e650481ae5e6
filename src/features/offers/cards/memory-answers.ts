/**
 * Sparse answers from memory (extension E13): a list page, or the offers of a "similar offers"
 * block, whose selected fields are all on the offer cards (offer-cards.ts), found, counted, ordered
 * and cut from the organization's snapshot of columns and cards, without a statement for the count
 * or the page and without reading a body. Pure: the snapshot is of the content version the database
 * holds at the call (facets/columns-cache.ts), as the facets' is.
 *
 * The rules are the body path's (read.ts), rule for rule: the same rows (active offers of the
 * organization, the website's scope, the investment, every filter with SQL's meaning:
 * facets/columns.ts), the same order (newest first, or the sort field with nulls last; offer_id
 * breaks ties), the same total, and the same bytes (the card's texts are cut by the body path's
 * function). A request the memory cannot answer exactly is left to the body path: see
 * memoryCanAnswer, the one entry condition.
 */
import { columnKey, fieldColumn } from '../query/typed-columns.js';
import type { OfferFilter, OfferSort } from '../query/language.js';
import type { FieldSelection } from '../sparse-fields.js';
import { canEvaluate, matchingRows, type ColumnBase, type NumberColumnKey, type OfferColumns } from '../facets/columns.js';
import { cardHolds, cardSparseJson, cardTop, type OfferCards } from './offer-cards.js';

/** What decides whether memory may answer: the parts of a list request or a similar block that matter. */
export interface MemoryRequest {
  readonly fields?: FieldSelection | undefined;
  readonly search?: string | undefined;
  readonly filters?: readonly OfferFilter[] | undefined;
  readonly sort?: OfferSort | undefined;
  /** A translation asked for (E12): the cards hold the original texts only. */
  readonly lang?: string | undefined;
}

/**
 * The fast path's entry condition: sparse fields all on the card, no search, every filter answered
 * by the columns, and an order the columns hold (newest first, created_at, or a number column the
 * sort reads), and no `lang` (the cards hold the original texts; translations are applied on the
 * body path). Anything else takes the body path.
 */
export function memoryCanAnswer(request: MemoryRequest): request is MemoryRequest & { fields: FieldSelection } {
  if (request.fields === undefined || !cardHolds(request.fields)) return false;
  if (request.search !== undefined || request.lang !== undefined) return false;
  if (!(request.filters ?? []).every(canEvaluate)) return false;
  return request.sort === undefined || sortValues(request.sort) !== undefined;
}

/** An offer row as the body path's views are built from it, with its sparse offer_data bytes. */
export interface CardRow {
  offer_id: string;
  external_id: string;
  created_at: string;
  updated_at: string;
  row_token: string;
  version: number;
  agent_id: string | null;
  branch_id: string | null;
  investment_id: string | null;
  offer_data_bytes: Buffer;
}

type SortValues = (columns: OfferColumns, cards: OfferCards) => Float64Array;

/** The values an explicit sort orders by, when the columns hold them exactly as SQL sorts them. */
function sortValues(sort: OfferSort): SortValues | undefined {
  const key = columnKey(sort.field);
  if (key === 'offer:created_at') return (_columns, cards) => cards.createdMicros;
  // A number column the sort itself reads (not the geography's, whose field sorts read offer_data).
  if (fieldColumn(sort.field)?.memory === 'number') return (columns) => columns.numbers[key as NumberColumnKey];
  return undefined;
}

/** Row orders made per snapshot (4 bytes a row each), by order name. */
const ORDERS = new WeakMap<OfferColumns, Map<string, Int32Array>>();

/** The snapshot's rows in an order: by `values` (NaN last, in either direction), then offer_id. */
function orderOf(columns: OfferColumns, name: string, values: Float64Array, descending: boolean): Int32Array {
  let orders = ORDERS.get(columns);
  if (orders === undefined) ORDERS.set(columns, (orders = new Map()));
  let order = orders.get(name);
  if (order !== undefined) return order;
  const ids = columns.ids;
  const sign = descending ? -1 : 1;
  order = Int32Array.from({ length: columns.rows }, (_, i) => i).sort((a, b) => {
    const x = values[a]!;
    const y = values[b]!;
    const xNull = x !== x;
    const yNull = y !== y;
    if (xNull !== yNull) return xNull ? 1 : -1;
    if (!xNull && x !== y) return x < y ? -sign : sign;
    return ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0;
  });
  orders.set(name, order);
  return order;
}

function cardRow(columns: OfferColumns, cards: OfferCards, row: number, selection: FieldSelection): CardRow | undefined {
  const token = cards.tokens[row];
  if (token === undefined) return undefined;
  const code = (key: 'offer:agent_id' | 'offer:branch_id' | 'offer:investment_id') => {
    const column = columns.coded[key];
    const c = column.codes[row]!;
    return c < 0 ? null : (column.values[c] as string);
  };
  return {
    offer_id: columns.ids[row]!,
    ...cardTop(cards, row),
    row_token: token,
    version: cards.versions[row]!,
    agent_id: code('offer:agent_id'),
    branch_id: code('offer:branch_id'),
    investment_id: code('offer:investment_id'),
    offer_data_bytes: cardSparseJson(cards, row, selection),
  };
}

/**
 * One page of a list request that memoryCanAnswer accepted, and its total; undefined when the
 * snapshot has no cards or a row of the page has none (the body path answers then).
 */
export function pageFromMemory(
  columns: OfferColumns,
  base: ColumnBase,
  request: MemoryRequest & { readonly fields: FieldSelection; readonly page: number; readonly size: number },
): { rows: CardRow[]; total: number } | undefined {
  const cards = columns.cards;
  if (cards === undefined) return undefined;
  const mask = matchingRows(columns, request.filters ?? [], base);
  let total = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] === 0) total++;
  const sort = request.sort;
  const order =
    sort === undefined
      ? orderOf(columns, 'created_at:desc', cards.createdMicros, true)
      : orderOf(columns, `${columnKey(sort.field)}:${sort.direction}`, sortValues(sort)!(columns, cards), sort.direction === 'desc');
  const offset = (request.page - 1) * request.size;
  const rows: CardRow[] = [];
  if (offset < total) {
    let seen = 0;
    for (let k = 0; k < order.length && rows.length < request.size; k++) {
      const row = order[k]!;
      if (mask[row] !== 0) continue;
      if (seen++ < offset) continue;
      const found = cardRow(columns, cards, row, request.fields);
      if (found === undefined) return undefined;
      rows.push(found);
    }
  }
  return { rows, total };
}

/** Row of each offer id, per snapshot. */
const ROWS_BY_ID = new WeakMap<OfferColumns, Map<string, number>>();

/**
 * The rows of these offers that the caller may see (the base: the website's scope), in no
 * particular order; undefined when the snapshot has no cards or one of them has none.
 */
export function rowsFromMemory(columns: OfferColumns, base: ColumnBase, offerIds: readonly string[], selection: FieldSelection): CardRow[] | undefined {
  const cards = columns.cards;
  if (cards === undefined) return undefined;
  let rowOf = ROWS_BY_ID.get(columns);
  if (rowOf === undefined) ROWS_BY_ID.set(columns, (rowOf = new Map(columns.ids.map((id, i) => [id, i]))));
  const visible = matchingRows(columns, [], base);
  const rows: CardRow[] = [];
  for (const id of offerIds) {
    const row = rowOf.get(id.toLowerCase());
    if (row === undefined || visible[row] !== 0) continue;
    const found = cardRow(columns, cards, row, selection);
    if (found === undefined) return undefined;
    rows.push(found);
  }
  return rows;
}
