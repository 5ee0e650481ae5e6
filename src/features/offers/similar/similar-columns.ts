/**
 * "Similar offers" (extension E13) from the organization's offers held in memory as columns (the
 * facets' columns, facets/columns.ts, which hold every field the score reads): the same facts as
 * similar-read.ts reads from the database, without reading thousands of table rows per call.
 * Pure: the columns are a snapshot of the content version the database holds now.
 */
import type { Visibility } from '../../access/index.js';
import { matchingRows, type OfferColumns } from '../facets/columns.js';
import { similarityScore, type ScoredOffer, type SimilarityFacts } from './similar-score.js';

const orNull = (x: number) => (x !== x ? null : x);

/**
 * The offer and its same-type neighbours the caller may see (active, in the website's scope), as
 * the score reads them; undefined when the caller cannot see the offer.
 */
export function similarityFactsFromColumns(
  columns: OfferColumns,
  visibility: Visibility,
  offerId: string,
): { base: SimilarityFacts; candidates: SimilarityFacts[] } | undefined {
  const wanted = offerId.toLowerCase();
  const visible = matchingRows(columns, [], { scope: visibility.scope });
  const index = columns.ids.indexOf(wanted);
  if (index < 0 || visible[index] !== 0) return undefined;
  const types = columns.coded['offer_data:offer_type'].codes;
  const investments = columns.coded['offer:investment_id'];
  const n = columns.numbers;
  const facts = (i: number): SimilarityFacts => {
    const investment = investments.codes[i]!;
    return {
      offer_id: columns.ids[i]!,
      investment_id: investment < 0 ? null : (investments.values[investment] as string),
      latitude: orNull(n['offer_data:location_latitude'][i]!),
      longitude: orNull(n['offer_data:location_longitude'][i]!),
      price: orNull(n['offer_data:price'][i]!),
      rooms: orNull(n['offer_data:rooms'][i]!),
      property_size: orNull(n['offer_data:property_size'][i]!),
    };
  };
  // Equal codes, equal types (-1: no type, as the others without one).
  const type = types[index]!;
  const candidates: SimilarityFacts[] = [];
  for (let i = 0; i < columns.rows; i++) if (i !== index && visible[i] === 0 && types[i] === type) candidates.push(facts(i));
  return { base: facts(index), candidates };
}

/** Rows of each offer type code (index: code + 1, 0 for none), per snapshot: a block reads only its type's rows. */
const ROWS_BY_TYPE = new WeakMap<OfferColumns, Int32Array[]>();
/** Row of each offer id, per snapshot. */
const ROW_OF_ID = new WeakMap<OfferColumns, Map<string, number>>();

function rowsByType(columns: OfferColumns): Int32Array[] {
  let byType = ROWS_BY_TYPE.get(columns);
  if (byType === undefined) {
    const column = columns.coded['offer_data:offer_type'];
    const lists: number[][] = Array.from({ length: column.values.length + 1 }, () => []);
    for (let i = 0; i < columns.rows; i++) lists[column.codes[i]! + 1]!.push(i);
    byType = lists.map((list) => Int32Array.from(list));
    ROWS_BY_TYPE.set(columns, byType);
  }
  return byType;
}

/**
 * The `size` best neighbours of an offer, as rankSimilar ranks similarityFactsFromColumns' facts
 * (the same score function, the same order: score descending, then offer_id), in one pass over
 * the rows of its type that keeps only the best `size`; undefined when the caller cannot see the
 * offer. A website scope is tested per row from the snapshot's mask.
 */
export function rankSimilarFromColumns(columns: OfferColumns, visibility: Visibility, offerId: string, size: number): ScoredOffer[] | undefined {
  let rowOf = ROW_OF_ID.get(columns);
  if (rowOf === undefined) ROW_OF_ID.set(columns, (rowOf = new Map(columns.ids.map((id, i) => [id, i]))));
  const index = rowOf.get(offerId.toLowerCase());
  if (index === undefined) return undefined;
  const visible = visibility.scope ? matchingRows(columns, [], { scope: visibility.scope }) : undefined;
  if (visible !== undefined && visible[index] !== 0) return undefined;
  const investments = columns.coded['offer:investment_id'];
  const n = columns.numbers;
  const [lats, lons, prices, rooms, sizes] = [
    n['offer_data:location_latitude'],
    n['offer_data:location_longitude'],
    n['offer_data:price'],
    n['offer_data:rooms'],
    n['offer_data:property_size'],
  ];
  const factsAt = (i: number, into: { -readonly [K in keyof SimilarityFacts]: SimilarityFacts[K] }) => {
    const investment = investments.codes[i]!;
    into.offer_id = columns.ids[i]!;
    into.investment_id = investment < 0 ? null : (investments.values[investment] as string);
    into.latitude = orNull(lats[i]!);
    into.longitude = orNull(lons[i]!);
    into.price = orNull(prices[i]!);
    into.rooms = orNull(rooms[i]!);
    into.property_size = orNull(sizes[i]!);
    return into;
  };
  const base = factsAt(index, {} as SimilarityFacts);
  // One facts object, refilled per row: no allocation per candidate.
  const other = {} as SimilarityFacts;
  const best: ScoredOffer[] = [];
  const before = (a: ScoredOffer, b: ScoredOffer) => a.score > b.score || (a.score === b.score && a.offer_id < b.offer_id);
  for (const i of rowsByType(columns)[columns.coded['offer_data:offer_type'].codes[index]! + 1]!) {
    if (i === index || (visible !== undefined && visible[i] !== 0)) continue;
    const candidate = { offer_id: columns.ids[i]!, score: similarityScore(base, factsAt(i, other)) };
    if (best.length === size && !before(candidate, best[size - 1]!)) continue;
    let at = best.length === size ? size - 1 : best.length;
    while (at > 0 && before(candidate, best[at - 1]!)) {
      best[at] = best[at - 1]!;
      at--;
    }
    best[at] = candidate;
  }
  return best;
}
