/**
 * POST /api/v1/offers/clusters and POST /api/v1/investments/{investment_id}/offers/clusters
 * (extension E13): every matching offer inside a map's bbox, as clusters of a grid that follows the
 * zoom, so a map of 30,000 offers draws from one call. JSON only.
 */
import Type from 'typebox';
import { investmentExists, InvestmentIdParams } from '../../catalog/index.js';
import { keyedOperation, sendDetail, type PartReader } from '../../../http/operation.js';
import { errorResponses } from '../../../http/schemas/error-responses.js';
import { LEVELS_ABOVE_ZOOM, MAX_CLUSTERS } from './cluster-grid.js';
import { checkClustersBody, type OfferClustersRequest } from './clusters-request.js';
import { offerClusters } from './clusters-read.js';
import { ClustersRequestBodySchema } from './clusters-schemas.js';

const DESCRIPTION =
  'The active offers that match `filters` and `search` (as `POST /api/v1/offers` would list them) inside `bbox` ' +
  '(the `within_bbox` value; offers without a position are never inside), counted per cell of a grid that follows ' +
  `\`zoom\`: level L = zoom + ${LEVELS_ABOVE_ZOOM}, cells of 360 / 2^L degrees of longitude by 180 / 2^L of latitude ` +
  '(a quarter of a map tile, about 64 px), made coarser a level at a time while the bbox spans more than ' +
  `${MAX_CLUSTERS.toLocaleString('en')} cells. Each cluster has the mean position of its offers, its count, the box of its offers and, ` +
  'for one offer, its `offer_id`. Counts add up to `total`, which equals the list\'s `total` for the same body with a ' +
  '`within_bbox` filter. At most 1,000 clusters.';

const response = { description: 'Clusters', content: { 'application/json': { schema: Type.Ref('ClustersResponse') } } };

const clustersBody: PartReader<OfferClustersRequest> = { schema: ClustersRequestBodySchema, read: checkClustersBody };

export const offerClustersOperation = keyedOperation({
  operationId: 'offer_clusters',
  summary: 'Map clusters of offers',
  description: DESCRIPTION,
  tags: ['offers'],
  body: clustersBody,
  responses: { 200: response, ...errorResponses(undefined, { body: true }) },
  handle: async ({ body }, ctx) => offerClusters(ctx.db, ctx.caller, body, ctx.services.facetColumns),
});

export const investmentOfferClustersOperation = keyedOperation({
  operationId: 'investment_offer_clusters',
  summary: 'Map clusters of one investment\'s offers',
  description: `The same as \`POST /api/v1/offers/clusters\`, limited to one investment. An unknown investment answers 404.\n\n${DESCRIPTION}`,
  tags: ['offers', 'investments'],
  params: InvestmentIdParams,
  body: clustersBody,
  responses: { 200: response, ...errorResponses('Investment not found', { body: true }) },
  async handle({ params, body }, ctx) {
    const investmentId = params.investment_id;
    if (!(await investmentExists(ctx.db, ctx.caller, investmentId))) {
      return sendDetail(ctx.reply, 404, 'Investment not found');
    }
    return offerClusters(ctx.db, ctx.caller, { ...body, investmentId }, ctx.services.facetColumns);
  },
});
