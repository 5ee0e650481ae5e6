/**
 * Schemas of the search extensions' own operations: facets and statistics (E3) and the field
 * catalogue (E4). The list bodies' extensions (search, geography) are in requests.ts.
 */
import Type from 'typebox';
import { DEFAULT_FACET_SIZE, MAX_FACET_SIZE, MAX_FACETS } from '../query/language.js';
import { Nullable } from '../../../contract/resources.js';
import { FILTER_SCHEMAS, SearchSchema } from '../schemas.js';
import { SearchLangSchema } from '../../translations/index.js';

export const FACETS_REQUEST_EXAMPLE = {
  filters: [
    { field: 'address_city', operator: 'eq', value: 'Kraków' },
    { field: 'price', operator: 'between', value: [400000, 900000] },
    { field: 'rooms', operator: 'in', value: [2, 3] },
  ],
  facets: ['address_city', 'rooms', 'market_type', 'has_balcony'],
  stats: ['price', 'property_size'],
};

export const FacetsRequestBodySchema = Type.Object(
  {
    filters: Type.Optional(Nullable(Type.Array(Type.Union(Object.values(FILTER_SCHEMAS)), { maxItems: 50 }))),
    search: Type.Optional(Nullable(SearchSchema)),
    lang: Type.Optional(Nullable(SearchLangSchema)),
    facets: Type.Optional(
      Nullable(
        Type.Array(Type.String(), {
          maxItems: MAX_FACETS,
          description:
            'Fields whose values to count: offer_data fields of text, enumerated, integer or boolean type, and `agent_id`, ' +
            '`branch_id`, `investment_id`. A facet counts with every filter but those on its own field.',
        }),
      ),
    ),
    stats: Type.Optional(
      Nullable(Type.Array(Type.String(), { maxItems: MAX_FACETS, description: 'Number, integer and date-time fields: min, max, avg, count.' })),
    ),
    facet_size: Type.Optional(
      Nullable(Type.Integer({ minimum: 1, maximum: MAX_FACET_SIZE, default: DEFAULT_FACET_SIZE, description: 'Most values per facet.' })),
    ),
  },
  { $id: 'FacetsRequestBody', title: 'FacetsRequestBody', examples: [FACETS_REQUEST_EXAMPLE] },
);

const FacetValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);
const StatValue = Type.Union([Type.Number(), Type.String(), Type.Null()], { description: 'A number, or a date-time in the field\'s own form.' });

export const FacetsResponseSchema = Type.Object(
  {
    total: Type.Integer({ description: 'Offers matching every filter and the search.' }),
    facets: Type.Record(Type.String(), Type.Array(Type.Object({ value: FacetValue, count: Type.Integer() })), {
      description: 'Per field: values by count (most first), then value; a missing value counts as null.',
    }),
    stats: Type.Record(
      Type.String(),
      Type.Object({ min: StatValue, max: StatValue, avg: StatValue, count: Type.Integer({ description: 'Matching offers that have a value.' }) }),
    ),
  },
  {
    $id: 'FacetsResponse',
    title: 'FacetsResponse',
    examples: [
      {
        total: 41,
        facets: {
          address_city: [{ value: 'Kraków', count: 41 }, { value: 'Warszawa', count: 22 }],
          rooms: [{ value: 2, count: 25 }, { value: 3, count: 16 }],
        },
        stats: { price: { min: 402000, max: 899000, avg: 655121.95, count: 41 } },
      },
    ],
  },
);

export const FieldCatalogueSchema = Type.Object(
  {
    fields: Type.Array(
      Type.Object({
        name: Type.String(),
        type: Type.String({ description: 'number, integer, string, enum, uuid, boolean, date-time, array or geo_point' }),
        operators: Type.Array(Type.String()),
        sortable: Type.Boolean(),
        facet: Type.Boolean({ description: 'Can be counted by the facets operations.' }),
        stats: Type.Boolean({ description: 'Has min, max, avg in the facets operations.' }),
        values: Type.Optional(Type.Array(Type.String(), { description: 'Enumerated fields: the values present in your active offers.' })),
      }),
    ),
    includes: Type.Array(Type.String()),
    sort_fields: Type.Array(Type.String()),
    languages: Type.Array(Type.String(), {
      description: 'Translations (extension E12): the language tags your active offers and your investments have translations into, in byte order.',
    }),
  },
  { $id: 'FieldCatalogue', title: 'FieldCatalogue' },
);
