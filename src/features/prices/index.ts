/**
 * The prices wing (extension E10): the offers' price history (appended by the import, write.ts;
 * read by GET /api/v1/offers/{offer_id}/price-history, http.ts) and the latest price change kept
 * on the offer row for the query language.
 */
export { ancillaryJson, ANCILLARY_KINDS, MAX_ANCILLARY, priceEntryDraft } from './model.js';
export type { PriceEntryDraft } from './model.js';
export { AncillaryPriceSchema, PriceEntrySchema, PriceHistorySchema } from './schemas.js';
export { appendPriceHistory, firstPriceEntries, priceChangePct, priceHistoryIsEmpty, ROW_PRICES } from './write.js';
