/**
 * An offer's offer_data with its translation into the requested language (extension E12): the
 * translated title, description and description_clean_text replace the original ones, field by
 * field; a field the translation lacks keeps the original. Every other byte stays the stored one
 * (keys in the stored order). Pure.
 */
import type { OfferTranslation } from '../translations/index.js';
import { selectionOf, SPARSE_FIELD_NAMES, sparseFieldIndex, sparseJson } from './sparse-fields.js';

const TRANSLATED_FIELDS = ['title', 'description', 'description_clean_text'] as const;
const TRANSLATED_INDEXES = TRANSLATED_FIELDS.map((name) => sparseFieldIndex(name)!);

/** The stored offer_data JSON bytes with the translation's fields in place of the original ones. */
export function translatedOfferData(stored: Buffer, translation: OfferTranslation): Buffer {
  const data = JSON.parse(stored.toString('utf8')) as Record<string, unknown>;
  for (const field of TRANSLATED_FIELDS) {
    const text = translation[field];
    if (text !== undefined && Object.hasOwn(data, field)) data[field] = text;
  }
  return Buffer.from(JSON.stringify(data));
}

/** Every catalogue field: an offer_data written whole from its field texts. */
const WHOLE = selectionOf(SPARSE_FIELD_NAMES.keys());

/**
 * translatedOfferData without parsing the offer: from its field texts (which the offer body cache
 * keeps per stored version), when they join back to exactly the stored bytes, which they do for an
 * offer_data the import wrote (every field, in catalogue order: offer-data.ts). Undefined when they
 * do not; then translatedOfferData gives the answer. The same bytes either way (a property test).
 */
export function translatedOfferDataFromTexts(stored: Buffer, texts: readonly (string | undefined)[], translation: OfferTranslation): Buffer | undefined {
  if (!stored.equals(Buffer.from(sparseJson(texts, WHOLE)))) return undefined;
  return Buffer.from(sparseJson(translatedFieldTexts(texts, translation), WHOLE));
}

/** An offer's field texts (sparse-fields.ts) with the translation's fields in place of the original ones. */
export function translatedFieldTexts(texts: readonly (string | undefined)[], translation: OfferTranslation): (string | undefined)[] {
  const out = [...texts];
  TRANSLATED_FIELDS.forEach((field, i) => {
    const text = translation[field];
    const index = TRANSLATED_INDEXES[i]!;
    if (text !== undefined && out[index] !== undefined) out[index] = `${JSON.stringify(field)}:${JSON.stringify(text)}`;
  });
  return out;
}
