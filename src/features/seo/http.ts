/**
 * The SEO wing's operations (extension E12): GET /api/v1/slugs/{kind}/{slug}, a slug (current or
 * old) to its entity and current slug; GET /api/v1/sitemap.xml, the sitemaps.org sitemap of what
 * the website sees, at the addresses its URL templates make, written as it is read;
 * GET /api/v1/offers/{offer_id}/structured-data, the offer as schema.org JSON-LD.
 */
import { Readable } from 'node:stream';
import Type from 'typebox';
import type { ReadDb } from '../../db/readonly.js';
import { XML_TYPE } from '../../http/content-types.js';
import { keyedOperation, sendDetail } from '../../http/operation.js';
import { errorResponses } from '../../http/schemas/error-responses.js';
import type { Visibility } from '../access/index.js';
import {
  fillUrlTemplate,
  SITEMAP_NAMESPACE,
  sitemapPartRange,
  sitemapParts,
  type SlugKind,
  type WebsiteUrls,
} from './model.js';
import { countSitemapEntries, readStructuredDataSource, readWebsiteUrls, resolveSlug, sitemapEntries } from './read.js';
import { OfferIdParams, SitemapQuery, SlugParams, StructuredDataSchema } from './schemas.js';
import { offerStructuredData } from './structured-data.js';
import { toApiTimestamp } from '../../contract/timestamps.js';
import { escapeXmlText } from '../../xml/escape.js';

export const SLUG_NOT_FOUND = 'Slug not found';

export const resolveSlugOperation = keyedOperation({
  operationId: 'resolve_slug',
  summary: 'An offer or investment by its slug',
  description:
    'The entity a slug names, with its current slug. Every slug an entity ever had keeps resolving: when `slug` in the ' +
    'answer differs from the one asked for, the page moved (a website answers 301 to the current URL). An unknown slug, ' +
    'or one of an entity you do not see (an inactive offer, out of your website\'s scope): 404.',
  tags: ['seo'],
  params: SlugParams,
  responses: {
    200: { description: 'The entity and its current slug', content: { 'application/json': { schema: Type.Ref('Slug') } } },
    ...errorResponses(SLUG_NOT_FOUND),
  },
  async handle({ params }, { db, caller, reply }) {
    const found = await resolveSlug(db, caller, params.kind as SlugKind, params.slug);
    return found ?? sendDetail(reply, 404, SLUG_NOT_FOUND);
  },
});

export const NO_URL_TEMPLATES =
  "This website has no URL templates: set them with `websites urls --website <website_id> --offer 'https://www.example.pl/oferta/{slug}' " +
  "--investment 'https://www.example.pl/inwestycja/{slug}'` (or the website record's `urls` in the bundle)";
export const SITEMAP_PAGE_NOT_FOUND = 'Sitemap page not found';

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** One part of the sitemap: offers first, then investments, each in id order, chunk by chunk. */
async function* sitemapPart(
  db: ReadDb,
  caller: Visibility,
  urls: WebsiteUrls,
  counts: Readonly<Record<SlugKind, number>>,
  range: { start: number; end: number },
): AsyncGenerator<string> {
  yield `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NAMESPACE}">\n`;
  let position = 0;
  for (const kind of ['offer', 'investment'] as const) {
    const template = urls[kind];
    if (template === undefined) continue;
    // This kind's positions [position, position + count) overlap the part's [start, end).
    const from = Math.max(range.start, position);
    const to = Math.min(range.end, position + counts[kind]);
    if (from < to) {
      for await (const chunk of sitemapEntries(db, caller, kind, from - position, to - from)) {
        let text = '';
        for (const e of chunk) text += `<url><loc>${escapeXmlText(fillUrlTemplate(template, e.slug))}</loc><lastmod>${e.lastmod}</lastmod></url>\n`;
        yield text;
      }
    }
    position += counts[kind];
  }
  yield '</urlset>\n';
}

/** The index of a sitemap in parts: one `<sitemap>` per part, at this operation's own address with `?page=N`. */
function sitemapIndex(base: string, parts: number): string {
  let text = `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NAMESPACE}">\n`;
  for (let page = 1; page <= parts; page += 1) text += `<sitemap><loc>${escapeXmlText(`${base}?page=${page}`)}</loc></sitemap>\n`;
  return `${text}</sitemapindex>\n`;
}

const xmlAnswer = (description: string) => ({ description, content: { 'application/xml': { schema: Type.String() } } });

export const sitemapOperation = keyedOperation({
  operationId: 'get_sitemap',
  summary: 'Sitemap (sitemaps.org)',
  description:
    'The sitemaps.org sitemap of every active offer and investment your key sees (your website\'s scope applies), at the addresses ' +
    'your website\'s URL templates make (`<loc>`; a kind without a template is left out), with `<lastmod>` from `updated_at`. ' +
    'Up to 50,000 addresses (SITEMAP_PAGE_SIZE): one `<urlset>`. More: a `<sitemapindex>` whose parts are `?page=1`, `?page=2`, … ' +
    '(each a `<urlset>`, offers first, then investments, in id order). Written as it is read, never held whole in memory, and ' +
    'never served from the response cache. Serve it from your own site (e.g. `/sitemap.xml`, with the index\'s `<loc>` rewritten ' +
    'to your own address): it needs your key. No URL templates: 409.',
  tags: ['seo'],
  query: SitemapQuery,
  responses: {
    200: xmlAnswer('A `<urlset>` (a part, or the whole sitemap) or a `<sitemapindex>`'),
    409: {
      description: 'The website has no URL templates (`websites urls`).',
      content: { 'application/json': { schema: Type.Ref('ErrorResponse'), example: { detail: NO_URL_TEMPLATES } } },
    },
    ...errorResponses(SITEMAP_PAGE_NOT_FOUND),
  },
  async handle({ query }, { db, caller, reply, request, services }) {
    const urls = await readWebsiteUrls(db, caller.websiteId);
    if (urls === null) return sendDetail(reply, 409, NO_URL_TEMPLATES);
    const counts = {
      offer: urls.offer === undefined ? 0 : await countSitemapEntries(db, caller, 'offer'),
      investment: urls.investment === undefined ? 0 : await countSitemapEntries(db, caller, 'investment'),
    };
    const pageSize = services.sitemapPageSize;
    const parts = sitemapParts(counts.offer + counts.investment, pageSize);
    const page = query.page;
    if (page !== undefined && page > parts) return sendDetail(reply, 404, SITEMAP_PAGE_NOT_FOUND);
    reply.type(XML_TYPE);
    if (page === undefined && parts > 1) {
      return sitemapIndex(`${request.protocol}://${request.host}${request.url.split('?')[0]}`, parts);
    }
    const range = sitemapPartRange(page ?? 1, counts.offer + counts.investment, pageSize);
    return Readable.from(sitemapPart(db, caller, urls, counts, range), { objectMode: false });
  },
});

export const LD_JSON_TYPE = 'application/ld+json; charset=utf-8';

export const structuredDataOperation = keyedOperation({
  operationId: 'get_offer_structured_data',
  summary: 'One offer as schema.org JSON-LD',
  description:
    'The offer as schema.org structured data for search engines, to embed in its page as ' +
    '`<script type="application/ld+json">…</script>`: a `RealEstateListing` (`url` from your website\'s offer URL template and the ' +
    'offer\'s slug, `name`, `description` as plain text, `datePosted`, `image`) whose `offers` is an `Offer` (`price`, `priceCurrency`) ' +
    'of the dwelling (`itemOffered`: `Apartment`, `House`, `Place` for a plot, `Accommodation` otherwise) with `floorSize` ' +
    '(`QuantitativeValue`, `unitCode` `MTK`: square metres), `numberOfRooms`, `address` (`PostalAddress`) and `geo` (`GeoCoordinates`). ' +
    'What the offer does not have is left out. 404 as for GET /api/v1/offers/{offer_id}.',
  tags: ['seo', 'offers'],
  params: OfferIdParams,
  responses: {
    200: { description: 'The JSON-LD document', content: { 'application/ld+json': { schema: StructuredDataSchema } } },
    ...errorResponses('Offer not found'),
  },
  async handle({ params }, { db, caller, reply }) {
    const source = await readStructuredDataSource(db, caller, params.offer_id);
    if (!source) return sendDetail(reply, 404, 'Offer not found');
    reply.type(LD_JSON_TYPE);
    const url = source.template === undefined ? undefined : fillUrlTemplate(source.template, source.slug);
    return JSON.stringify(offerStructuredData({ data: source.data, url, createdAt: toApiTimestamp(source.createdAt) }));
  },
});
