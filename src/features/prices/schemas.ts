/**
 * Schemas of the price history (extension E10): the answer of GET /api/v1/offers/{offer_id}/price-history.
 */
import Type from 'typebox';
import { ANCILLARY_KINDS } from './model.js';

const NullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

export const AncillaryPriceSchema = Type.Object(
  {
    kind: Type.Union(ANCILLARY_KINDS.map((k) => Type.Literal(k)), { description: 'What is sold beside the flat or house.' }),
    label: Type.Union([Type.String(), Type.Null()], { description: "The developer's label, e.g. a parking space's number." }),
    price: Type.Number(),
  },
  { $id: 'AncillaryPrice', title: 'AncillaryPrice', additionalProperties: false },
);

export const PriceEntrySchema = Type.Object(
  {
    valid_from: Type.String({ format: 'date-time', description: 'From when these prices held (UTC).' }),
    price: NullableNumber('offer_data.price from then on.'),
    price_per_meter: NullableNumber('offer_data.price_per_meter from then on.'),
    price_currency: Type.Union([Type.String(), Type.Null()]),
    ancillary: Type.Array(Type.Ref('AncillaryPrice'), { description: 'Ancillary prices from then on (empty: none).' }),
  },
  { $id: 'PriceEntry', title: 'PriceEntry', additionalProperties: false },
);

export const PriceHistorySchema = Type.Object(
  {
    offer_id: Type.String({ format: 'uuid' }),
    items: Type.Array(Type.Ref('PriceEntry'), { description: 'Every entry, oldest first; one per change of the prices.' }),
  },
  {
    $id: 'PriceHistory',
    title: 'PriceHistory',
    additionalProperties: false,
    examples: [
      {
        offer_id: '0b3c5f52-3a47-4c1e-9d54-0f3c1c7e9a11',
        items: [
          { valid_from: '2026-03-01T09:00:00Z', price: 850000, price_per_meter: 15454.55, price_currency: 'PLN', ancillary: [] },
          {
            valid_from: '2026-05-12T07:30:00Z',
            price: 820000,
            price_per_meter: 14909.09,
            price_currency: 'PLN',
            ancillary: [{ kind: 'parking', label: 'P-12', price: 35000 }],
          },
        ],
      },
    ],
  },
);
