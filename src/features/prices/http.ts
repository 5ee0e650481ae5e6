/**
 * GET /api/v1/offers/{offer_id}/price-history (extension E10): an offer's dated prices, oldest
 * first. The same key, tenancy, scope and 404 as GET /api/v1/offers/{offer_id}.
 */
import Type from 'typebox';
import { keyedOperation, sendDetail } from '../../http/operation.js';
import { errorResponses } from '../../http/schemas/error-responses.js';
import { OfferIdParams } from '../offers/index.js';
import { readPriceHistory } from './read.js';

export const readPriceHistoryOperation = keyedOperation({
  operationId: 'get_offer_price_history',
  summary: "An offer's price history",
  description:
    'Every price the offer has had, oldest first: an entry is appended by the import when it first writes the offer and ' +
    'whenever `price`, `price_per_meter`, `price_currency` or the ancillary prices change (identical prices append ' +
    'nothing); entries are never changed or removed. `valid_from` is the record\'s `prices_valid_from`, else the time of ' +
    'the import. The same rules as `GET /api/v1/offers/{offer_id}`: an inactive offer, or one outside your website\'s ' +
    'scope, answers 404.',
  tags: ['offers'],
  params: OfferIdParams,
  responses: {
    200: { description: 'The price history', content: { 'application/json': { schema: Type.Ref('PriceHistory') } } },
    ...errorResponses('Offer not found'),
  },
  async handle({ params }, { db, caller, reply }) {
    const items = await readPriceHistory(db, caller, params.offer_id);
    if (!items) return sendDetail(reply, 404, 'Offer not found');
    return { offer_id: params.offer_id, items };
  },
});
