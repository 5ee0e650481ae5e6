/**
 * The SEO wing (extension E12): slugs of offers and investments (made and kept by the import,
 * resolved by GET /api/v1/slugs/{kind}/{slug}), URL templates per website (the bundle and
 * `websites urls`) and the sitemap made from them (GET /api/v1/sitemap.xml). Its operations are
 * http.ts, its command cli.ts.
 */
export { normalizeWebsiteUrls, SLUG_KINDS, URL_TEMPLATE_MAX_LENGTH, URL_TEMPLATE_PATTERN } from './model.js';
export type { SlugKind, WebsiteUrls } from './model.js';
export { SlugSchema } from './schemas.js';
export { madeOfferSlug, suffixedMadeSlug } from './made-slug.js';
export { assignSlugs, createImportSlugTables, madeSlugsAgree, makeMissingSlugs, madeSlug, noteGivenSlugs, noteMadeSlugs, writeImportedWebsiteUrls } from './write.js';
export type { GivenSlug, ImportedWebsiteUrls, SlugProblem, SlugsSettled } from './write.js';
