/**
 * The SEO wing (extension E12): slugs of offers and investments (made and kept by the import,
 * resolved by GET /api/v1/slugs/{kind}/{slug}). Its operations are http.ts.
 */
export { SLUG_KINDS } from './model.js';
export type { SlugKind } from './model.js';
export { SlugSchema } from './schemas.js';
export { assignSlugs, createGivenSlugsTable, makeMissingSlugs, noteGivenSlugs } from './write.js';
export type { GivenSlug, SlugProblem, SlugsSettled } from './write.js';
