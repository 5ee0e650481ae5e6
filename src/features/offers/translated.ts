/**
 * An offer's offer_data with its translation into the requested language (extension E12): the
 * translated title, description and description_clean_text replace the original ones, field by
 * field; a field the translation lacks keeps the original. Every other byte stays the stored one
 * (keys in the stored order). Pure.
 */
import type { OfferTranslation } from '../translations/index.js';
import { sparseFieldIndex } from './sparse-fields.js';

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
