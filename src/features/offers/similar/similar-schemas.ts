/**
 * Schemas of "similar offers" (extension E13): the query (`size`, `fields`, `lang`) and the answer, an
 * offer (cut by `fields` like GET offer) with its score.
 */
import Type from 'typebox';
import { OfferSchema } from '../../../contract/resources.js';
import { OfferFieldsQueryPart } from '../schemas.js';
import { LangSchema } from '../../translations/index.js';
import { DEFAULT_SIMILAR_SIZE, MAX_SIMILAR_SIZE } from './similar-score.js';

export const SimilarQuery = Type.Object({
  size: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_SIMILAR_SIZE, default: DEFAULT_SIMILAR_SIZE, description: `How many offers, 1 to ${MAX_SIMILAR_SIZE} (default ${DEFAULT_SIMILAR_SIZE}).` }),
  ),
  fields: OfferFieldsQueryPart,
  lang: Type.Optional(LangSchema),
});

export const SimilarOfferSchema = Type.Object(
  {
    ...OfferSchema.properties,
    offer_data: Type.Ref('SparseOfferData'),
    score: Type.Number({ minimum: 0, maximum: 1, description: 'Similarity to the offer asked about, 0 to 1 (4 decimals).', examples: [0.8125] }),
  },
  { $id: 'SimilarOffer', title: 'SimilarOffer', description: 'An offer (offer_data cut by `fields` when given) and its score.' },
);

export const SimilarOffersSchema = Type.Object(
  {
    items: Type.Array(Type.Ref('SimilarOffer'), { description: 'Best first: score descending, then offer_id.' }),
    size: Type.Integer({ description: 'The size asked for (default 6); `items` may hold fewer.' }),
  },
  {
    $id: 'SimilarOffersResponse',
    title: 'SimilarOffersResponse',
    examples: [
      {
        items: [
          {
            offer_id: '0ffa0000-0000-4000-8000-000000000002',
            external_id: 'CRM-1002',
            created_at: '2025-01-12T09:00:00Z',
            updated_at: '2025-01-12T09:00:00Z',
            offer_data: { price: 420000, rooms: 2, address_city: 'Kraków', title: 'Kawalerka blisko Rynku' },
            version: 1,
            agent: null,
            branch: null,
            organization: null,
            investment: null,
            score: 0.8125,
          },
        ],
        size: 6,
      },
    ],
  },
);
