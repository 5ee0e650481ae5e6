/**
 * GET /api/v1/offers/{offer_id}, POST /api/v1/offers, POST /api/v1/investments/{investment_id}/offers.
 * JSON by default, XML when the Accept header prefers it (CONTRACT 5); errors stay JSON.
 */
import Type from 'typebox';
import { offersPageToJsonBytes, offerToJsonBytes, type OfferView, type OffersPageView } from './model.js';
import { investmentExists } from '../catalog/index.js';
import type { OfferInclude, OfferListRequest } from './query/language.js';
import { offersPageToXml, offerToXml } from './xml.js';
import { JSON_TYPE, XML_TYPE } from '../../http/content-types.js';
import type { Services } from '../../services.js';
import { preferredFormat } from '../../http/negotiate.js';
import { addVary } from '../../http/vary.js';
import { keyedOperation, sendDetail, type KeyedContext, type PartReader } from '../../http/operation.js';
import type { InputChecker } from '../../http/validation/input-checker.js';
import { OFFER_QUERY_DESCRIPTION } from './query/descriptions.js';
import { errorResponses } from '../../http/schemas/error-responses.js';
import { OfferIdParams, OfferIncludeQuery, OfferQuery, OffersRequestBodySchema } from './schemas.js';
import { checkInclude, checkOffersBody, checkQueryFields } from './query/request.js';
import type { FieldSelection } from './sparse-fields.js';
import { InvestmentIdParams } from '../catalog/index.js';
import { checkLang, contentLanguage, INVALID_LANG } from '../translations/index.js';

/** A 200 with the JSON and the XML media type of the same resource. */
const jsonOrXml = (description: string, schema: unknown) => ({
  description,
  content: { 'application/json': { schema }, 'application/xml': { schema } },
});

function negotiate({ request, reply }: KeyedContext): 'json' | 'xml' {
  // The representation depends on Accept, so caches must key on it (this handler's 404 too).
  addVary(reply, 'Accept');
  return preferredFormat(request.headers.accept);
}

/** Sets the answer's media type; the route's serializers then write the view. */
function as<T>(ctx: KeyedContext, format: 'json' | 'xml', view: T): T {
  ctx.reply.type(format === 'xml' ? XML_TYPE : JSON_TYPE);
  return view;
}

// JSON is assembled as bytes from the stored offer_data bytes (no string round trip); XML from
// the views, with the process's rendered <offer_data> fragments.
const offerSerializers = {
  'application/json': (offer: OfferView) => offerToJsonBytes(offer),
  'application/xml': (offer: OfferView, services: Services) => offerToXml(offer, services.xmlFragments),
};
const pageSerializers = {
  'application/json': (page: OffersPageView) => offersPageToJsonBytes(page),
  'application/xml': (page: OffersPageView, services: Services) => offersPageToXml(page, services.xmlFragments),
};

/** `include` (comma-separated and/or repeated), read from the query string. */
const includeQuery: PartReader<Set<OfferInclude>> = {
  schema: OfferIncludeQuery,
  read: (check: InputChecker) => checkInclude(check, check.query<{ include?: string[] }>(OfferIncludeQuery)?.include),
};

/** GET offer's query: `include`, `fields` (sparse fields, extension E13) and `lang` (translations, E12). */
const offerQuery: PartReader<{ include: Set<OfferInclude>; fields: FieldSelection | undefined; lang: string | undefined }> = {
  schema: OfferQuery,
  read: (check: InputChecker) => {
    const query = check.query<{ include?: string[]; fields?: string[]; lang?: string }>(OfferQuery);
    const include = checkInclude(check, query?.include);
    const fields = checkQueryFields(check, query?.fields);
    const lang = checkLang(check, query?.lang, ['query', 'lang']);
    return lang === INVALID_LANG ? undefined : { include, fields, lang };
  },
};

/** With `lang` (E12), names the language served: the tag when any offer's fields were translated. */
export function sayLanguage(ctx: KeyedContext, lang: string | undefined, offers: readonly OfferView[]): void {
  if (lang !== undefined) ctx.reply.header('content-language', contentLanguage(lang, offers.some((offer) => offer.language !== undefined)));
}

/** A list's 200: the page, or with `fields` the sparse page. */
const PAGE_ANSWER = Type.Union([Type.Ref('OffersResponse'), Type.Ref('SparseOffersResponse')]);

/** The body of the offer lists. */
const listBody: PartReader<OfferListRequest> = { schema: OffersRequestBodySchema, read: checkOffersBody };

export const readOffer = keyedOperation({
  operationId: 'get_offer',
  summary: 'One offer',
  description:
    'One active offer of the organization. `include` embeds related entities; `fields` keeps only the named ' +
    'offer_data fields (extension E13); `lang` serves its translation (extension E12, with `Content-Language`). ' +
    '`Accept: application/xml` returns it as XML (root `<offer>`). Inactive offers answer 404.',
  tags: ['offers'],
  params: OfferIdParams,
  query: offerQuery,
  responses: { 200: jsonOrXml('The offer (with `fields`, a SparseOffer)', Type.Union([Type.Ref('Offer'), Type.Ref('SparseOffer')])), ...errorResponses('Offer not found') },
  serializers: offerSerializers,
  async handle({ params, query: { include, fields, lang } }, ctx) {
    const format = negotiate(ctx);
    const offer = await ctx.services.offers.find(ctx.caller, params.offer_id, include, fields, lang);
    if (!offer) return sendDetail(ctx.reply, 404, 'Offer not found');
    sayLanguage(ctx, lang, [offer]);
    return as(ctx, format, offer);
  },
});

export const listOffersOperation = keyedOperation({
  operationId: 'list_offers',
  summary: 'Search offers',
  description: OFFER_QUERY_DESCRIPTION,
  tags: ['offers'],
  query: includeQuery,
  body: listBody,
  responses: { 200: jsonOrXml('One page of offers (with `fields`, a SparseOffersResponse)', PAGE_ANSWER), ...errorResponses(undefined, { body: true }) },
  serializers: pageSerializers,
  async handle({ query: include, body: request }, ctx) {
    const format = negotiate(ctx);
    const page = await ctx.services.offers.list(ctx.caller, { ...request, include });
    sayLanguage(ctx, request.lang, page.items);
    return as(ctx, format, page);
  },
});

export const listInvestmentOffers = keyedOperation({
  operationId: 'list_investment_offers',
  summary: 'Search the offers of one investment',
  description:
    'The same search as `POST /api/v1/offers`, limited to the active offers of one investment ' +
    '(an inactive investment still lists its active offers). An unknown investment answers 404.\n\n' +
    OFFER_QUERY_DESCRIPTION,
  tags: ['offers', 'investments'],
  params: InvestmentIdParams,
  query: includeQuery,
  body: listBody,
  responses: { 200: jsonOrXml('One page of offers (with `fields`, a SparseOffersResponse)', PAGE_ANSWER), ...errorResponses('Investment not found', { body: true }) },
  serializers: pageSerializers,
  async handle({ params, query: include, body: request }, ctx) {
    const format = negotiate(ctx);
    const investmentId = params.investment_id;
    if (!(await investmentExists(ctx.db, ctx.caller, investmentId))) {
      return sendDetail(ctx.reply, 404, 'Investment not found');
    }
    const page = await ctx.services.offers.list(ctx.caller, { investmentId, ...request, include });
    sayLanguage(ctx, request.lang, page.items);
    return as(ctx, format, page);
  },
});
