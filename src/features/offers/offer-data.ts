/**
 * offer_data as stored: every field of the interface in table order, with null where the import
 * gave nothing, date-times in their contract forms, description_clean_text derived when absent,
 * and id / external_id equal to the offer's. Built once on import; responses splice the stored
 * JSON text instead of rebuilding it.
 */
import { htmlToCleanText } from './clean-text.js';
import { OFFER_DATA_FIELDS } from '../../contract/offer-fields.js';
import { toMillisZ, toOffsetForm } from '../../contract/timestamps.js';

export type StoredOfferData = Record<string, unknown>;

/**
 * Normalizes an already validated offer_data object (types checked by the import schema).
 * Throws only on values the schema let through but the forms reject (impossible dates).
 */
export function normalizeOfferData(
  input: Record<string, unknown>,
  offer: { offer_id: string; external_id: string },
): StoredOfferData {
  const out: StoredOfferData = {};
  for (const field of OFFER_DATA_FIELDS) {
    let value = input[field.name] ?? null;
    if (value !== null) {
      if (field.kind === 'datetime_ms') value = toMillisZ(value as string) ?? null;
      else if (field.kind === 'datetime_offset') value = toOffsetForm(value as string) ?? null;
    }
    out[field.name] = value;
  }
  out.id = offer.offer_id;
  out.external_id = offer.external_id;
  if (out.description_clean_text === null && typeof out.description === 'string') {
    out.description_clean_text = htmlToCleanText(out.description);
  }
  return out;
}

/** The JSON text stored beside offer_data and spliced into responses (keys in table order). */
export function renderOfferDataJson(data: StoredOfferData): string {
  return JSON.stringify(data);
}
