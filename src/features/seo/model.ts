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

/** An address with `{slug}` in it, http or https, no spaces or other braces. */
export const URL_TEMPLATE_PATTERN = '^https?://[^\\s{}]*\\{slug\\}[^\\s{}]*$';
const URL_TEMPLATE = new RegExp(URL_TEMPLATE_PATTERN);
/** The sitemaps.org protocol: at most 2,048 characters per address; a template leaves room for the slug. */
export const URL_TEMPLATE_MAX_LENGTH = 1900;

/** A website's URL templates (websites.urls). */
export interface WebsiteUrls {
  readonly offer?: string;
  readonly investment?: string;
}

/** Why a URL template is refused, or undefined when it is fine. */
export function urlTemplateProblem(template: string): string | undefined {
  if (template.length > URL_TEMPLATE_MAX_LENGTH) return `a URL template has at most ${URL_TEMPLATE_MAX_LENGTH} characters`;
  if (!URL_TEMPLATE.test(template)) return `a URL template is an http(s) address with {slug} in it once (e.g. https://www.agency.pl/oferta/{slug}), got "${template}"`;
  return undefined;
}

/** Templates as stored: only those given; none at all is null. */
export function normalizeWebsiteUrls(urls: { offer?: string | null; investment?: string | null } | null | undefined): WebsiteUrls | null {
  if (!urls) return null;
  const out: { offer?: string; investment?: string } = {};
  if (urls.offer) out.offer = urls.offer;
  if (urls.investment) out.investment = urls.investment;
  return out.offer === undefined && out.investment === undefined ? null : out;
}

/** An entity's address: its template with the slug in place of `{slug}` (slugs need no escaping in a URL). */
export const fillUrlTemplate = (template: string, slug: string): string => template.replace('{slug}', slug);

/** The sitemaps.org limit of addresses per sitemap (and of sitemaps per index). */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** How many parts a sitemap of `total` addresses has, `pageSize` each (at least one, maybe empty). */
export const sitemapParts = (total: number, pageSize: number): number => Math.max(1, Math.ceil(total / pageSize));

/** The positions [start, end) of part `page` (1-based) among `total` addresses. */
export function sitemapPartRange(page: number, total: number, pageSize: number): { start: number; end: number } {
  const start = (page - 1) * pageSize;
  return { start, end: Math.min(total, start + pageSize) };
}
