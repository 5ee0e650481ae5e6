/**
 * Slugs, URL templates and the sitemap's rules (extension E12): pure, no I/O.
 */

/** The kinds of entity that have a slug (the `{kind}` of GET /api/v1/slugs/{kind}/{slug}). */
export const SLUG_KINDS = ['offer', 'investment'] as const;
export type SlugKind = (typeof SLUG_KINDS)[number];

/**
 * Hex digits of the entity's id appended to a made slug that is taken, round after round: 0 (the
 * plain slug), then 6 (16.7 million per slug: enough for any organization), 12, and all 32 (unique
 * unless a record gave exactly that slug to another entity).
 */
export const SUFFIX_LENGTHS = [0, 6, 12, 32] as const;

/** The answer of GET /api/v1/slugs/{kind}/{slug}: the entity and its current slug. */
export interface SlugAnswer {
  readonly kind: SlugKind;
  readonly id: string;
  readonly slug: string;
}
