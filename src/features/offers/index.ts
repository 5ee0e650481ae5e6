/** The offers wing's public surface: what other wings and the shared plumbing may use. */
export { OfferBodyCache } from './body-cache.js';
export { OfferColumnsCache } from './facets/columns-cache.js';
export { FacetsResponseSchema, FieldCatalogueSchema } from './facets/facets-schemas.js';
export { normalizeOfferData, renderOfferDataJson } from './offer-data.js';
export { offerSearchWords, searchVector } from './query/search-text.js';
export { OfferReader } from './read.js';
export { addSearchLexemes, upsertOffers } from './write.js';
export type { OfferRowDraft } from './write.js';
export { OFFER_DATA_FRAGMENT_CHARS } from './xml.js';
