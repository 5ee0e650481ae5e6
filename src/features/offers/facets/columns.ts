/**
 * Facet counts and statistics (extension E3) from an organization's active offers held in memory
 * as columns, for the requests whose every filter, facet and statistic is on a column of the
 * offers table (a typical sidebar: city, price, rooms, market type, balcony). A call then costs one
 * pass over typed arrays instead of several index scans in the database; src/features/offers/facets/facets-read.ts
 * keeps the SQL statement for every other request (search, geo, other offer_data fields, `contains`).
 *
 * The answer is the SQL statement's, rule for rule: SQL's three-valued logic for filters (`ne` and
 * `not_in` leave nulls out), disjunctive facets, values by count then value (text and ids in byte
 * order, numbers numerically, false before true, null last), and min / max / avg / count over the
 * rows that pass every filter.
 */
import type { FacetCount, FacetValue, FieldStats, FilterScalar, OfferFacetsRequest, OfferField, OfferFilter, OfferFacetsView } from '../query/language.js';
import { operatorRecord } from '../query/operators.js';
import { CODED_COLUMNS, columnKey, NUMBER_COLUMNS, type CodedColumnKey, type NumberColumnKey } from '../query/typed-columns.js';
import type { WebsiteScope } from '../../access/index.js';
import { cardBytes, type OfferCards } from '../cards/offer-cards.js';

export type { CodedColumnKey, NumberColumnKey };

/** The fields held as columns, by `source:name` (the typed columns marked `memory`, typed-columns.ts). */
const NUMBER_KEYS: ReadonlySet<string> = new Set(NUMBER_COLUMNS.map((c) => c.key));
const CODED_KEYS: ReadonlySet<string> = new Set(CODED_COLUMNS.map((c) => c.key));
/** uuid columns: SQL compares them without letter case. */
const UUID_KEYS: ReadonlySet<string> = new Set(CODED_COLUMNS.filter((c) => c.column.type === 'uuid').map((c) => c.key));

/**
 * A coded column: each row's value as an index into `values`, -1 for null. `values` is in the order
 * a facet sorts values (byte order for text and ids, false before true), so codes compare as values.
 */
export interface CodedColumn {
  readonly values: readonly (string | boolean)[];
  readonly codes: Int32Array;
}

/** The active offers of one organization as columns, as of one content version. */
export interface OfferColumns {
  readonly version: string;
  readonly rows: number;
  /** Each row's offer_id (a map cluster of one offer names it). */
  readonly ids: readonly string[];
  /** NaN for null (no stored number is NaN: JSON has none). */
  readonly numbers: Readonly<Record<NumberColumnKey, Float64Array>>;
  readonly coded: Readonly<Record<CodedColumnKey, CodedColumn>>;
  /** Each row's card (extension E13: sparse pages and similar offers without bodies); undefined when not held. */
  readonly cards?: OfferCards | undefined;
}

const keyOf = columnKey;
const isNumberKey = (key: string): key is NumberColumnKey => NUMBER_KEYS.has(key);
const isCodedKey = (key: string): key is CodedColumnKey => CODED_KEYS.has(key);
const isColumn = (field: OfferField) => isNumberKey(keyOf(field)) || isCodedKey(keyOf(field));

/** Bytes a snapshot of `rows` offers takes (typed arrays; the dictionaries are small next to them). */
export function columnBytes(rows: number): number {
  // An id: a 36-character string and its slot in the array.
  return rows * (NUMBER_COLUMNS.length * 8 + CODED_COLUMNS.length * 4 + 64) + 1024;
}

/** Bytes a snapshot takes: its columns and, when held, its cards. */
export function snapshotBytes(columns: OfferColumns): number {
  return columnBytes(columns.rows) + (columns.cards ? cardBytes(columns.cards) : 0);
}

/** Whether the filter's operator has a column evaluation (operators.ts) for the form its field is held in. */
export function canEvaluate(filter: OfferFilter): boolean {
  const tests = operatorRecord(filter.operator).columns;
  const key = keyOf(filter.field);
  return isNumberKey(key) ? tests?.numbers !== undefined : isCodedKey(key) ? tests?.coded !== undefined : false;
}

/** Whether the columns can answer this request exactly (no search, no geo, only column fields and operators). */
export function columnsCanAnswer(request: OfferFacetsRequest): boolean {
  if (request.search !== undefined) return false;
  if (!request.filters.every(canEvaluate)) return false;
  if (!request.facets.every(isColumn)) return false;
  return request.stats.every((field) => isNumberKey(keyOf(field)));
}

/** The byte order of two strings (a facet's tie order, `collate "C"`). */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/*
 * Evaluation goes a column at a time: each filter sets its field's bit in a per-row mask of failed
 * fields (one tight loop per filter, no per-row calls), then each facet and statistic reads the
 * masks. A row counts for the total, the statistics and every facet when its mask is 0, and for a
 * facet on field F also when F's bit is the only one set (disjunctive counts). A field's bit and
 * the base's fit in 16 while there are at most 15 column fields (checked here).
 */

/** The bit of rows outside the website's scope or the request's investment: they never count. */
const BASE_BIT = 1 << 15;
if (NUMBER_COLUMNS.length + CODED_COLUMNS.length > 15) throw new Error('more column fields than the 16-bit row masks hold: widen them');

/**
 * Sets `bit` in `mask` for every row where the filter does not hold, with SQL's meaning: the
 * operator's column evaluation (operators.ts) for the form the field is held in.
 */
function markFailures(mask: Uint16Array, bit: number, columns: OfferColumns, filter: OfferFilter): void {
  const key = keyOf(filter.field);
  const tests = operatorRecord(filter.operator).columns;
  if (isNumberKey(key) && tests?.numbers) {
    tests.numbers(columns.numbers[key], filter.value, mask, bit);
    return;
  }
  if (isCodedKey(key) && tests?.coded) {
    const column = columns.coded[key];
    // passes[code + 1]: whether a row with that code passes (index 0: null).
    const passes = new Uint8Array(column.values.length + 1);
    tests.coded(passes, filter.value, (values) => codesOf(key, column, values));
    markCodes(mask, bit, column.codes, passes);
    return;
  }
  throw new Error(`filter ${filter.field.name} ${filter.operator} is not answered from columns`);
}

/**
 * The codes of the values that some row of the column holds (a value no row holds has none). UUIDs
 * compare without case in SQL, and the column holds them in lower case.
 */
function codesOf(key: CodedColumnKey, column: CodedColumn, values: readonly FilterScalar[]): number[] {
  const uuid = UUID_KEYS.has(key);
  return values.map((value) => column.values.indexOf(uuid ? (value as string).toLowerCase() : (value as string | boolean))).filter((code) => code >= 0);
}

/** Sets `bit` in `mask` for every row whose code does not pass (`passes[code + 1]`, index 0 for null). */
function markCodes(mask: Uint16Array, bit: number, codes: Int32Array, passes: Uint8Array): void {
  for (let i = 0; i < codes.length; i++) if (!passes[codes[i]! + 1]) mask[i]! |= bit;
}

/** Marks the rows whose value in a coded column is none of `values` (the website scope's `= any(...)`). */
function markOutside(mask: Uint16Array, columns: OfferColumns, key: CodedColumnKey, values: readonly string[]): void {
  const column = columns.coded[key];
  const passes = new Uint8Array(column.values.length + 1);
  for (const code of codesOf(key, column, values)) passes[code + 1] = 1;
  markCodes(mask, BASE_BIT, column.codes, passes);
}

/** What limits the rows before any filter: the website's scope and the investment of the request. */
export interface ColumnBase {
  readonly scope?: WebsiteScope | null | undefined;
  readonly investmentId?: string | undefined;
}

function markBase(mask: Uint16Array, columns: OfferColumns, base: ColumnBase): void {
  const { scope, investmentId } = base;
  if (investmentId !== undefined) markOutside(mask, columns, 'offer:investment_id', [investmentId]);
  if (scope?.investment_ids) markOutside(mask, columns, 'offer:investment_id', scope.investment_ids);
  if (scope?.branch_ids) markOutside(mask, columns, 'offer:branch_id', scope.branch_ids);
  if (scope?.offer_types) markOutside(mask, columns, 'offer_data:offer_type', scope.offer_types);
}

/** A facet's values by count, ties in value order (`ordered` is in value order), null last. */
function topValues(ordered: FacetCount[], nulls: number, size: number): FacetCount[] {
  if (nulls > 0) ordered.push({ value: null, count: nulls });
  // Array sort is stable: equal counts keep the value order.
  return ordered.sort((a, b) => b.count - a.count).slice(0, size);
}

/** Counts of a facet over the rows whose mask has no bit but `own` (the facet's own field). */
function countFacet(mask: Uint16Array, own: number, columns: OfferColumns, field: OfferField, size: number): FacetCount[] {
  const key = keyOf(field);
  const ignore = ~own & 0xffff;
  if (isNumberKey(key)) {
    const x = columns.numbers[key];
    const counts = new Map<number, number>();
    let nulls = 0;
    for (let i = 0; i < columns.rows; i++) {
      if ((mask[i]! & ignore) !== 0) continue;
      const v = x[i]!;
      if (v !== v) nulls++;
      else counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    const ordered = [...counts].sort((a, b) => a[0] - b[0]).map(([value, count]): FacetCount => ({ value, count }));
    return topValues(ordered, nulls, size);
  }
  const column = columns.coded[key as CodedColumnKey];
  const counts = new Int32Array(column.values.length + 1);
  const codes = column.codes;
  for (let i = 0; i < columns.rows; i++) if ((mask[i]! & ignore) === 0) counts[codes[i]! + 1]!++;
  const ordered: FacetCount[] = [];
  column.values.forEach((value: FacetValue, code) => counts[code + 1]! > 0 && ordered.push({ value, count: counts[code + 1]! }));
  return topValues(ordered, counts[0]!, size);
}

/** min, max, mean and count of a column over the rows with an empty mask; the sum is compensated (Neumaier). */
function columnStats(mask: Uint16Array, x: Float64Array): FieldStats {
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  let compensation = 0;
  let count = 0;
  for (let i = 0; i < x.length; i++) {
    const v = x[i]!;
    if (mask[i] !== 0 || v !== v) continue;
    if (v < min) min = v;
    if (v > max) max = v;
    const next = sum + v;
    compensation += Math.abs(sum) >= Math.abs(v) ? sum - next + v : v - next + sum;
    sum = next;
    count++;
  }
  return count === 0 ? { min: null, max: null, avg: null, count: 0 } : { min, max, avg: (sum + compensation) / count, count };
}

/** Whether the columns can tell which rows match these filters (no search, every filter on a column). */
export function columnsCanFilter(filters: readonly OfferFilter[], search: string | undefined): boolean {
  return search === undefined && filters.every(canEvaluate);
}

/**
 * Which rows match the base and every filter (columnsCanFilter must hold): a mask, 0 for a match.
 * The map's clusters (extension E13) read it.
 */
export function matchingRows(columns: OfferColumns, filters: readonly OfferFilter[], base: ColumnBase): Uint16Array {
  const mask = new Uint16Array(columns.rows);
  markBase(mask, columns, base);
  for (const filter of filters) markFailures(mask, 1, columns, filter);
  return mask;
}

/** The facets answer of `request` (columnsCanAnswer must hold) over `columns`. */
export function facetsFromColumns(columns: OfferColumns, request: OfferFacetsRequest, base: ColumnBase): OfferFacetsView {
  const mask = new Uint16Array(columns.rows);
  markBase(mask, columns, base);
  // One bit per filtered field name (as the SQL statement groups them): a facet ignores its own.
  const bits = new Map<string, number>();
  for (const filter of request.filters) {
    let bit = bits.get(filter.field.name);
    if (bit === undefined) bits.set(filter.field.name, (bit = 1 << bits.size));
    markFailures(mask, bit, columns, filter);
  }
  let total = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] === 0) total++;
  const view: OfferFacetsView = { total, facets: {}, stats: {} };
  for (const field of request.facets) view.facets[field.name] = countFacet(mask, bits.get(field.name) ?? 0, columns, field, request.facetSize);
  for (const field of request.stats) view.stats[field.name] = columnStats(mask, columns.numbers[keyOf(field) as NumberColumnKey]);
  return view;
}
