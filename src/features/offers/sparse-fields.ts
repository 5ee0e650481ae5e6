/**
 * Sparse fields (extension E13): which offer_data fields a list page or one offer carries when the
 * request names them (`fields`), and how a stored offer_data is cut down to them. Pure.
 *
 * A selection is kept in the field catalogue's order whatever order the request gave, so equal
 * selections render equal bytes (and share response-cache entries by their request only). Cutting
 * is done on an offer's "field texts": each field's `"name":value` JSON text, made once per stored
 * version of an offer (the offer body cache keeps them beside the stored bytes), so a sparse page
 * joins a few short strings per offer instead of parsing 6 KB of JSON on every request.
 */
import { OFFER_DATA_FIELDS } from '../../contract/offer-fields.js';

/** Every name `fields` may use: the offer_data fields, in catalogue order. */
export const SPARSE_FIELD_NAMES: readonly string[] = OFFER_DATA_FIELDS.map((field) => field.name);

const INDEX_BY_NAME: ReadonlyMap<string, number> = new Map(SPARSE_FIELD_NAMES.map((name, i) => [name, i]));

/** Most names in one `fields` (more than the catalogue holds would repeat names). */
export const MAX_SPARSE_FIELDS = SPARSE_FIELD_NAMES.length;

/** A checked `fields`: catalogue indexes, in catalogue order, without repeats. */
export interface FieldSelection {
  readonly names: readonly string[];
  readonly indexes: readonly number[];
  /** The names joined by commas: equal selections, equal keys (fragment caches key on it). */
  readonly key: string;
}

/** The catalogue index of a `fields` name (bare, or as `offer_data.<name>`), or undefined. */
export function sparseFieldIndex(name: string): number | undefined {
  return INDEX_BY_NAME.get(name.startsWith('offer_data.') ? name.slice('offer_data.'.length) : name);
}

/** The selection of these catalogue indexes (any order, repeats allowed). */
export function selectionOf(indexes: Iterable<number>): FieldSelection {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const names = sorted.map((i) => SPARSE_FIELD_NAMES[i]!);
  return { names, indexes: sorted, key: names.join(',') };
}

/**
 * Each catalogue field's `"name":value` text from a stored offer_data JSON text (undefined for a
 * field the stored object lacks). JSON.stringify of a parsed value gives back the stored text of
 * that value, since the stored text was written by JSON.stringify (offer-data.ts).
 */
export function fieldTextsOf(offerDataJson: string): (string | undefined)[] {
  const data = JSON.parse(offerDataJson) as Record<string, unknown>;
  return SPARSE_FIELD_NAMES.map((name) => (Object.hasOwn(data, name) ? `${JSON.stringify(name)}:${JSON.stringify(data[name])}` : undefined));
}

/** The sparse offer_data JSON text of a selection, from an offer's field texts. */
export function sparseJson(texts: readonly (string | undefined)[], selection: FieldSelection): string {
  let out = '{';
  for (const i of selection.indexes) {
    const text = texts[i];
    if (text === undefined) continue;
    if (out.length > 1) out += ',';
    out += text;
  }
  return out + '}';
}

/** The sparse offer_data object of a selection (for XML), keys in catalogue order. */
export function sparseObject(data: Record<string, unknown>, selection: FieldSelection): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of selection.names) if (Object.hasOwn(data, name)) out[name] = data[name];
  return out;
}
