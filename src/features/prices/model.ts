/**
 * Price history (extension E10), pure: the shape of an entry, the ancillary prices a bundle may
 * give, and the rule that turns an offer record's prices into the entry the import compares with
 * the offer's latest one.
 *
 * Prices travel and are stored as decimal text (numeric in the database), so that "identical"
 * means the same number as written (850000 and 850000.0 are identical) and a percent change is
 * computed exactly in decimal arithmetic, not in binary floating point.
 */

/** The kinds of ancillary price (a parking space, a garage, a storage room, anything else). */
export const ANCILLARY_KINDS = ['parking', 'garage', 'storage', 'other'] as const;
export type AncillaryKind = (typeof ANCILLARY_KINDS)[number];

/** At most this many ancillary prices per offer. */
export const MAX_ANCILLARY = 50;

export interface AncillaryPrice {
  /** One of ANCILLARY_KINDS (the import schema checks it). */
  readonly kind: string;
  readonly label: string | null;
  readonly price: number;
}

/** What a record of the bundle says about its prices (offer_data's three fields and the record's ancillary). */
export interface OfferPricesInput {
  readonly price?: number | null | undefined;
  readonly price_per_meter?: number | null | undefined;
  readonly price_currency?: string | null | undefined;
  readonly ancillary?: ReadonlyArray<{ kind: string; label?: string | null | undefined; price: number }> | null | undefined;
}

/** One offer's prices as the import compares and appends them. */
export interface PriceEntryDraft {
  readonly offer_id: string;
  readonly organization_id: string;
  readonly price: string | null;
  readonly price_per_meter: string | null;
  readonly price_currency: string | null;
  /** The normalized ancillary prices as JSON text ('[]' when none). */
  readonly ancillary_json: string;
  /** The record's prices_valid_from (stored form), or null: the time of the import. */
  readonly valid_from: string | null;
}

/** One entry as the API answers it. */
export interface PriceEntryView {
  readonly valid_from: string;
  readonly price: number | null;
  readonly price_per_meter: number | null;
  readonly price_currency: string | null;
  readonly ancillary: AncillaryPrice[];
}

/** A JSON number as decimal text for a numeric column (JavaScript's shortest round-trip form). */
export const decimalText = (value: number | null | undefined): string | null => (value === null || value === undefined ? null : String(value));

/** Ancillary prices with every key present (label null when absent), in the bundle's order. */
export function normalizeAncillary(ancillary: OfferPricesInput['ancillary']): AncillaryPrice[] {
  return (ancillary ?? []).map((a) => ({ kind: a.kind, label: a.label ?? null, price: a.price }));
}

/** Ancillary prices as the normalized JSON text the history and the offer row keep. */
export const ancillaryJson = (ancillary: OfferPricesInput['ancillary']): string => JSON.stringify(normalizeAncillary(ancillary));

/** The entry an offer record would append. */
export function priceEntryDraft(
  offerId: string,
  organizationId: string,
  prices: OfferPricesInput,
  validFrom: string | null,
): PriceEntryDraft {
  return {
    offer_id: offerId,
    organization_id: organizationId,
    price: decimalText(prices.price),
    price_per_meter: decimalText(prices.price_per_meter),
    price_currency: prices.price_currency ?? null,
    ancillary_json: ancillaryJson(prices.ancillary),
    valid_from: validFrom,
  };
}
