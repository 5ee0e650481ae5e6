/**
 * Offer cards (extension E13): what a list page or a "similar offers" block shows of each offer,
 * kept in memory beside the organization's offer columns (facets/columns.ts), so that a sparse
 * answer whose fields are all on the card is assembled without reading a single offer body. Pure.
 *
 * A card holds an offer's top-level texts (external_id, created_at and updated_at as the database
 * returns them) and the `"name":value` texts of the card fields, cut from the stored offer_data by
 * fieldTextsOf (sparse-fields.ts), the very function the body path cuts with: equal stored bytes,
 * equal texts, so both paths answer the same bytes. All cards of a snapshot live in one UTF-8
 * buffer with one offset per text; a card costs its texts' bytes plus 4 bytes an offset and the
 * row version token it was cut at (docs/performance.md gives the figures).
 */
import { fieldTextsOf, SPARSE_FIELD_NAMES, sparseFieldIndex, type FieldSelection } from '../sparse-fields.js';

/** The offer_data fields a card holds: a listing card's and a map pin's (catalogue names). */
export const CARD_FIELD_NAMES = [
  'price',
  'price_currency',
  'price_per_meter',
  'property_size',
  'rooms',
  'market_type',
  'address_city',
  'address_district',
  'location_latitude',
  'location_longitude',
  'title',
  'offer_type',
  'photos_urls',
] as const;

/** Slots before the field texts: external_id, created_at, updated_at. */
const TOP_SLOTS = 3;
const SLOTS = TOP_SLOTS + CARD_FIELD_NAMES.length;

/** Catalogue index -> slot of that field's text on a card (-1: not on the card). */
const SLOT_OF_FIELD: Int32Array = (() => {
  const slots = new Int32Array(SPARSE_FIELD_NAMES.length).fill(-1);
  CARD_FIELD_NAMES.forEach((name, i) => {
    const index = sparseFieldIndex(name);
    if (index === undefined) throw new Error(`card field ${name} is not an offer_data field`);
    slots[index] = TOP_SLOTS + i;
  });
  return slots;
})();

/** Whether every field of the selection is on the card. */
export function cardHolds(selection: FieldSelection): boolean {
  return selection.indexes.every((index) => SLOT_OF_FIELD[index]! >= 0);
}

/** What a card is made from: the row's columns, and the stored offer_data text when it was read. */
export interface CardSource {
  readonly version: number;
  readonly created_micros: number;
  readonly external_id: string;
  readonly created_at: string;
  readonly updated_at: string;
  /** The row version token (xmin/version/updated_at) the columns were read at. */
  readonly token: string;
  /** The card field texts (`"name":value`, undefined when absent), in CARD_FIELD_NAMES order; undefined: no body was read. */
  readonly texts: readonly (string | undefined)[] | undefined;
}

/** The cards of a snapshot's rows, in row order. */
export interface OfferCards {
  /** Each row's version (the answer's `version`). */
  readonly versions: Int32Array;
  /** Each row's created_at in microseconds since 1970 (the default order, newest first). */
  readonly createdMicros: Float64Array;
  /** Every text of every card, UTF-8, one after another. */
  readonly bytes: Buffer;
  /** Text `s` of row `i` is bytes[offsets[i * SLOTS + s] .. offsets[i * SLOTS + s + 1]). */
  readonly offsets: Int32Array;
  /** The token each row's field texts were cut at; undefined when the row has none (its body was not read). */
  readonly tokens: readonly (string | undefined)[];
}

/** The card field texts of a stored offer_data text (CARD_FIELD_NAMES order). */
export function cardTextsOf(offerDataJson: string): (string | undefined)[] {
  const all = fieldTextsOf(offerDataJson);
  return CARD_FIELD_NAMES.map((name) => all[sparseFieldIndex(name)!]);
}

/** The card field texts of a row of `cards`, if it has them (to reuse at a reload when the token is unchanged). */
export function cardTextsAt(cards: OfferCards, row: number, token: string): (string | undefined)[] | undefined {
  if (cards.tokens[row] !== token) return undefined;
  const texts: (string | undefined)[] = [];
  for (let s = TOP_SLOTS; s < SLOTS; s++) {
    const start = cards.offsets[row * SLOTS + s]!;
    const end = cards.offsets[row * SLOTS + s + 1]!;
    texts.push(end > start ? cards.bytes.toString('utf8', start, end) : undefined);
  }
  return texts;
}

export function buildCards(sources: readonly CardSource[]): OfferCards {
  const offsets = new Int32Array(sources.length * SLOTS + 1);
  const parts: string[] = [];
  let at = 0;
  let slot = 0;
  const push = (text: string | undefined) => {
    offsets[slot++] = at;
    if (text !== undefined && text !== '') {
      parts.push(text);
      at += Buffer.byteLength(text, 'utf8');
    }
  };
  for (const source of sources) {
    push(source.external_id);
    push(source.created_at);
    push(source.updated_at);
    for (let f = 0; f < CARD_FIELD_NAMES.length; f++) push(source.texts?.[f]);
  }
  offsets[slot] = at;
  const bytes = Buffer.from(parts.join(''), 'utf8');
  return {
    versions: Int32Array.from(sources, (source) => source.version),
    createdMicros: Float64Array.from(sources, (source) => source.created_micros),
    bytes,
    offsets,
    tokens: sources.map((source) => (source.texts === undefined ? undefined : source.token)) };
}

/** Bytes the cards take (the buffer, the offsets, and each token string with its slot). */
export function cardBytes(cards: OfferCards): number {
  return (
    cards.versions.byteLength +
    cards.createdMicros.byteLength +
    cards.bytes.length +
    cards.offsets.byteLength +
    cards.tokens.reduce((n, token) => n + 16 + (token?.length ?? 0), 0)
  );
}

function text(cards: OfferCards, row: number, slot: number): string {
  return cards.bytes.toString('utf8', cards.offsets[row * SLOTS + slot]!, cards.offsets[row * SLOTS + slot + 1]!);
}

/** The top-level texts of a row's offer. */
export function cardTop(cards: OfferCards, row: number): { external_id: string; created_at: string; updated_at: string } {
  return { external_id: text(cards, row, 0), created_at: text(cards, row, 1), updated_at: text(cards, row, 2) };
}

/**
 * The sparse offer_data JSON of a row for a selection the card holds (cardHolds), as UTF-8 bytes:
 * sparseJson's text (sparse-fields.ts) from the card's slices.
 */
export function cardSparseJson(cards: OfferCards, row: number, selection: FieldSelection): Buffer {
  let length = 2;
  let count = 0;
  for (const index of selection.indexes) {
    const slot = row * SLOTS + SLOT_OF_FIELD[index]!;
    const size = cards.offsets[slot + 1]! - cards.offsets[slot]!;
    if (size === 0) continue;
    length += size + (count > 0 ? 1 : 0);
    count++;
  }
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  out[at++] = 0x7b; // {
  let first = true;
  for (const index of selection.indexes) {
    const slot = row * SLOTS + SLOT_OF_FIELD[index]!;
    const start = cards.offsets[slot]!;
    const end = cards.offsets[slot + 1]!;
    if (end === start) continue;
    if (!first) out[at++] = 0x2c; // ,
    first = false;
    at += cards.bytes.copy(out, at, start, end);
  }
  out[at] = 0x7d; // }
  return out;
}
