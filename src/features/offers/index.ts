/**
 * The offers wing: one offer and the offer lists (JSON and XML), the query language (filters,
 * sorting, search, geography: query/), facets and statistics (facets/), the field catalogue
 * (meta/), offer_data as stored, and the import's writes. Its operations are http.ts,
 * facets/facets-http.ts and meta/meta-http.ts.
 */
export { OfferBodyCache } from './body-cache.js';
export { OfferColumnsCache } from './facets/columns-cache.js';
export { OfferColumnsWarmer } from './facets/columns-warmer.js';
export { FacetsResponseSchema, FieldCatalogueSchema } from './facets/facets-schemas.js';
export { htmlToCleanText } from './clean-text.js';
export { normalizeOfferData, renderOfferDataJson } from './offer-data.js';
export { offerSearchWords, searchVector } from './query/search-text.js';
export { OfferReader } from './read.js';
export { BboxSchema, ClusterSchema, ClustersResponseSchema } from './clusters/clusters-schemas.js';
export { SimilarOfferSchema, SimilarOffersSchema } from './similar/similar-schemas.js';
export { SparseOfferDataSchema, SparseOfferSchema, SparseOffersPageSchema } from './schemas.js';
export { OfferIdParams } from './schemas.js';
export { addSearchLexemes, upsertOffers } from './write.js';
export type { OfferRowDraft, OfferWriteCounts } from './write.js';
export { OFFER_DATA_FRAGMENT_CHARS } from './xml.js';
