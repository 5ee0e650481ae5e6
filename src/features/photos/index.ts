/**
 * The photos wing (extension E11): the sources of offers' photos, noted by the import and
 * queued by the fetcher (write.ts), fetched in the background within the limits (photo-fetcher.ts, source-fetch.ts),
 * variants rendered once with sharp and kept in IMAGE_CACHE_DIR (image-processing.ts,
 * image-store.ts), behind signed public URLs (url-signing.ts), recently served URLs answered from
 * memory (variant-memory.ts). PhotoService is what a running instance holds; its operations are
 * http.ts.
 */
export { anyUnavailableSources, enqueuePhotoSources, expandNotedPhotoOffers, notePhotoOffers, retryUnavailableSources, type Expansion } from './write.js';
export { photoUrlsOf } from './model.js';
export { DEMO_PHOTO_COUNT, DEMO_PLAN_COUNT, demoPhotoUrl } from './demo-photos.js';
export { PhotoService } from './photo-service.js';
export { OfferPhotosSchema, PhotoSchema, PhotoVariantSchema } from './schemas.js';
