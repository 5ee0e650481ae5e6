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
import { preferredFormat } from '../../http/negotiate.js';
import { addVary } from '../../http/vary.js';
import { defineOperation, sendDetail, type OperationContext } from '../../http/operation.js';
import { OFFER_QUERY_DESCRIPTION } from './query/descriptions.js';
import { errorResponses } from '../../http/schemas/error-responses.js';
import { OfferIdParams, OfferIncludeQuery, OffersRequestBodySchema } from './schemas.js';
import { checkInclude, checkOffersBody } from './query/request.js';
import { InvestmentIdParams } from '../catalog/index.js';

/** A 200 with the JSON and the XML media type of the same resource. */
const jsonOrXml = (description: string, schema: unknown) => ({
  description,
  content: { 'application/json': { schema }, 'application/xml': { schema } },
});

function negotiate({ request, reply }: OperationContext): 'json' | 'xml' {
  // The representation depends on Accept, so caches must key on it (this handler's 404 too).
  addVary(reply, 'Accept');
  return preferredFormat(request.headers.accept);
}

// JSON is assembled as bytes from the stored offer_data bytes (no string round trip).
function sendOffer(ctx: OperationContext, format: 'json' | 'xml', offer: OfferView): string | Buffer {
  ctx.reply.type(format === 'xml' ? XML_TYPE : JSON_TYPE);
  return format === 'xml' ? offerToXml(offer, ctx.xmlFragments) : offerToJsonBytes(offer);
}

function sendPage(ctx: OperationContext, format: 'json' | 'xml', page: OffersPageView): string | Buffer {
  ctx.reply.type(format === 'xml' ? XML_TYPE : JSON_TYPE);
  return format === 'xml' ? offersPageToXml(page, ctx.xmlFragments) : offersPageToJsonBytes(page);
}

export const readOffer = defineOperation({
  operationId: 'get_offer',
  summary: 'One offer',
  description:
    'One active offer of the organization. `include` embeds related entities. ' +
    '`Accept: application/xml` returns it as XML (root `<offer>`). Inactive offers answer 404.',
  tags: ['offers'],
  params: OfferIdParams,
  query: OfferIncludeQuery,
  responses: { 200: jsonOrXml('The offer', Type.Ref('Offer')), ...errorResponses('Offer not found') },
  parse(check) {
    const params = check.path<{ offer_id: string }>(OfferIdParams);
    const query = check.query<{ include?: string[] }>(OfferIncludeQuery);
    const include = checkInclude(check, query?.include);
    return { offerId: params?.offer_id ?? '', include };
  },
  async handle(input, ctx) {
    const format = negotiate(ctx);
    const offer = await ctx.offers.find(ctx.caller!, input.offerId, input.include);
    if (!offer) return sendDetail(ctx.reply, 404, 'Offer not found');
    return sendOffer(ctx, format, offer);
  },
});

interface ListInput {
  request: OfferListRequest;
  include: Set<OfferInclude>;
}

function parseList(check: Parameters<typeof readOffer.parse>[0]): ListInput | undefined {
  const query = check.query<{ include?: string[] }>(OfferIncludeQuery);
  const include = checkInclude(check, query?.include);
  const request = checkOffersBody(check);
  return request ? { request, include } : undefined;
}

export const listOffersOperation = defineOperation({
  operationId: 'list_offers',
  summary: 'Search offers',
  description: OFFER_QUERY_DESCRIPTION,
  tags: ['offers'],
  query: OfferIncludeQuery,
  body: OffersRequestBodySchema,
  responses: { 200: jsonOrXml('One page of offers', Type.Ref('OffersResponse')), ...errorResponses(undefined, { body: true }) },
  parse: parseList,
  async handle(input, ctx) {
    const format = negotiate(ctx);
    const { request, include } = input!;
    const page = await ctx.offers.list(ctx.caller!, { ...request, include });
    return sendPage(ctx, format, page);
  },
});

export const listInvestmentOffers = defineOperation({
  operationId: 'list_investment_offers',
  summary: 'Search the offers of one investment',
  description:
    'The same search as `POST /api/v1/offers`, limited to the active offers of one investment ' +
    '(an inactive investment still lists its active offers). An unknown investment answers 404.\n\n' +
    OFFER_QUERY_DESCRIPTION,
  tags: ['offers', 'investments'],
  params: InvestmentIdParams,
  query: OfferIncludeQuery,
  body: OffersRequestBodySchema,
  responses: { 200: jsonOrXml('One page of offers', Type.Ref('OffersResponse')), ...errorResponses('Investment not found', { body: true }) },
  parse(check) {
    const params = check.path<{ investment_id: string }>(InvestmentIdParams);
    const list = parseList(check);
    return params && list ? { investmentId: params.investment_id, ...list } : undefined;
  },
  async handle(input, ctx) {
    const format = negotiate(ctx);
    const { investmentId, request, include } = input!;
    if (!(await investmentExists(ctx.db, ctx.caller!, investmentId))) {
      return sendDetail(ctx.reply, 404, 'Investment not found');
    }
    const page = await ctx.offers.list(ctx.caller!, { investmentId, ...request, include });
    return sendPage(ctx, format, page);
  },
});
