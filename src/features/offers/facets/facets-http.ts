/**
 * POST /api/v1/offers/facets and POST /api/v1/investments/{investment_id}/offers/facets (extension
 * E3): counts per value and statistics of the offers a list request matches, for a sidebar.
 * JSON only.
 */
import Type from 'typebox';
import type { OfferFacetsRequest } from '../query/language.js';
import { investmentExists } from '../../catalog/index.js';
import { offerFacets } from './facets-read.js';
import { keyedOperation, sendDetail, type PartReader } from '../../../http/operation.js';
import { errorResponses } from '../../../http/schemas/error-responses.js';
import { FacetsRequestBodySchema } from './facets-schemas.js';
import { checkFacetsBody } from './facets-request.js';
import { InvestmentIdParams } from '../../catalog/index.js';

const DESCRIPTION =
  'Counts per value (`facets`) and min / max / avg / count (`stats`) of the active offers that match `filters` and ' +
  '`search`, as `POST /api/v1/offers` would list them. Disjunctive: each facet counts with every filter but those on ' +
  'its own field, so a sidebar can show the other choices of a field with one chosen. Values by count, then value; a ' +
  'missing value counts as `null`. Each count equals the `total` of the list with that field\'s filters replaced by ' +
  '`eq` that value.';

const response = { description: 'Counts and statistics', content: { 'application/json': { schema: Type.Ref('FacetsResponse') } } };

/** The body of the facet operations. */
const facetsBody: PartReader<OfferFacetsRequest> = { schema: FacetsRequestBodySchema, read: checkFacetsBody };

export const offerFacetsOperation = keyedOperation({
  operationId: 'offer_facets',
  summary: 'Facet counts and statistics of offers',
  description: DESCRIPTION,
  tags: ['offers'],
  body: facetsBody,
  responses: { 200: response, ...errorResponses(undefined, { body: true }) },
  handle: async ({ body }, ctx) => offerFacets(ctx.db, ctx.caller, body, ctx.services.facetColumns),
});

export const investmentOfferFacetsOperation = keyedOperation({
  operationId: 'investment_offer_facets',
  summary: 'Facet counts and statistics of one investment\'s offers',
  description: `The same as \`POST /api/v1/offers/facets\`, limited to one investment. An unknown investment answers 404.\n\n${DESCRIPTION}`,
  tags: ['offers', 'investments'],
  params: InvestmentIdParams,
  body: facetsBody,
  responses: { 200: response, ...errorResponses('Investment not found', { body: true }) },
  async handle({ params, body }, ctx) {
    const investmentId = params.investment_id;
    if (!(await investmentExists(ctx.db, ctx.caller, investmentId))) {
      return sendDetail(ctx.reply, 404, 'Investment not found');
    }
    return offerFacets(ctx.db, ctx.caller, { ...body, investmentId }, ctx.services.facetColumns);
  },
});
