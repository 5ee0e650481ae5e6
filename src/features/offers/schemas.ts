/**
 * Request schemas of the offer operations (the offer id, `include`, the list body: pagination,
 * sorting, filters, search and geography). The same TypeBox objects validate requests and describe
 * them in /openapi.json.
 */
import Type, { type TSchema } from 'typebox';
import { LangSchema } from '../translations/index.js';
import { Nullable, OfferDataSchema, OfferSchema, OffersPageSchema } from '../../contract/resources.js';
import {
  MAX_FILTERS,
  MAX_POLYGON_POINTS,
  MAX_RADIUS_KM,
  MAX_SEARCH_LENGTH,
  MIN_POLYGON_POINTS,
  OFFER_INCLUDES,
  type GeoOperator,
} from './query/language.js';
import { MAX_SPARSE_FIELDS } from './sparse-fields.js';
import { SCHEMA_OPERATORS, type FilterSchemaName } from './query/operators.js';
import { FILTER_VALUE_DESCRIPTION, FILTERS_DESCRIPTION, GEO_OPERATOR_DESCRIPTION, SORTING_DESCRIPTION } from './query/descriptions.js';

const uuidParam = (description: string) => Type.String({ format: 'uuid', description });

export const OfferIdParams = Type.Object({ offer_id: uuidParam('Offer id (UUID, any letter case).') });

export const OfferIncludeQuery = Type.Object({
  include: Type.Optional(
    Type.Array(Type.String(), {
      description:
        `Related entities to embed in each offer: ${OFFER_INCLUDES.map((v) => `\`${v}\``).join(', ')}. ` +
        'Comma-separated (`include=agent,branch`) and/or repeated (`include=agent&include=branch`). ' +
        'Not included, or not linked to the offer: `null`.',
      examples: [['agent']],
    }),
  ),
});

const FIELDS_DESCRIPTION =
  'Sparse fields (extension E13): `offer_data` holds only these offer_data fields, in the field catalogue\'s order ' +
  '(`GET /api/v1/meta/offer-fields`); the offer\'s other keys stay. An unknown name is a 422 at its index, with a ' +
  'did-you-mean. Absent or null: every field, as without this key.';

/** `fields` of GET offer: comma-separated and/or repeated names. */
export const OfferFieldsQueryPart = Type.Optional(
  Type.Array(Type.String(), {
    description: `${FIELDS_DESCRIPTION} Comma-separated (\`fields=title,price\`) and/or repeated.`,
    examples: [['title,price,property_size,rooms,address_city,photos_urls']],
  }),
);

export const OfferQuery = Type.Object({ include: OfferIncludeQuery.properties.include, fields: OfferFieldsQueryPart, lang: Type.Optional(LangSchema) });

export const FieldsSchema = Type.Array(Type.String(), {
  minItems: 1,
  maxItems: MAX_SPARSE_FIELDS,
  description: FIELDS_DESCRIPTION,
  examples: [['title', 'price', 'property_size', 'rooms', 'address_city', 'photos_urls']],
});

export const PaginationSchema = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'Page number, from 1. A page past the end is empty.' })),
    size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'Offers per page, 1 to 100.' })),
  },
  { $id: 'Pagination', title: 'Pagination', description: 'Required; `{}` means page 1 of 50 offers.' },
);

export const SortingSchema = Type.Object(
  {
    field: Type.String({ description: 'A sortable field (see the operation description).', examples: ['price'] }),
    direction: Type.Optional(
      Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc', description: 'Default `asc`.' }),
    ),
  },
  { $id: 'Sorting', title: 'Sorting', description: SORTING_DESCRIPTION },
);

export const FilterSchema = Type.Object(
  {
    field: Type.String({
      description: 'An offer field (`created_at`, `agent_id`, ...) or an offer_data field by its bare name (`price`) or as `offer_data.price`.',
    }),
    // The original interface's list, in its order (the 422 for an unknown operator quotes it).
    operator: Type.Union(
      SCHEMA_OPERATORS.Filter.map((op) => Type.Literal(op)),
      { description: 'Which operators a field takes depends on its type (see the operation description).' },
    ),
    value: Type.Unknown({ description: FILTER_VALUE_DESCRIPTION }),
  },
  { $id: 'Filter', title: 'Filter' },
);

const latitude = Type.Number({ minimum: -90, maximum: 90, description: 'Latitude, degrees.' });
const longitude = Type.Number({ minimum: -180, maximum: 180, description: 'Longitude, degrees.' });

export const GeoPointSchema = Type.Object({ lat: latitude, lon: longitude }, { $id: 'GeoPoint', title: 'GeoPoint' });

/** The value of each geography operator, for the docs (geo-request.ts reads it). */
const GEO_VALUE_SCHEMAS: { readonly [K in GeoOperator]: TSchema } = {
  within_radius: Type.Object(
    { lat: latitude, lon: longitude, km: Type.Number({ exclusiveMinimum: 0, maximum: MAX_RADIUS_KM, description: 'Radius in km.' }) },
    { title: 'within_radius' },
  ),
  within_bbox: Type.Object({ south: latitude, west: longitude, north: latitude, east: longitude }, { title: 'within_bbox', description: 'west > east crosses the antimeridian.' }),
  within_polygon: Type.Array(Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description: '[latitude, longitude]' }), {
    minItems: MIN_POLYGON_POINTS,
    maxItems: MAX_POLYGON_POINTS,
    title: 'within_polygon',
    description: 'Closed by itself; the boundary counts as inside.',
  }),
};

/**
 * A filter on the offer's position (extension E2). Its own schema: the `operator` list of the
 * original Filter stays as it was, so the answers to the original requests do not change.
 */
export const GeoFilterSchema = Type.Object(
  {
    // A string, not the literal: another field with a geography operator is one mistake, told at `operator`.
    field: Type.String({ description: '`location`: the offer\'s position (location_latitude / location_longitude).', examples: ['location'] }),
    operator: Type.Union(
      SCHEMA_OPERATORS.GeoFilter.map((op) => Type.Literal(op)),
      { description: GEO_OPERATOR_DESCRIPTION },
    ),
    value: Type.Union(
      SCHEMA_OPERATORS.GeoFilter.map((op) => GEO_VALUE_SCHEMAS[op]),
      // Read by the operation (src/features/offers/query/geo-request.ts), which reports each problem at its place.
      { description: 'Depends on the operator.', 'x-checked-by-operation': true },
    ),
  },
  {
    $id: 'GeoFilter',
    title: 'GeoFilter',
    examples: [{ field: 'location', operator: 'within_radius', value: { lat: 52.2297, lon: 21.0122, km: 5 } }],
  },
);

/** The schema of a filter, by the name its operator's record gives (operators.ts). */
export const FILTER_SCHEMAS: { readonly [S in FilterSchemaName]: TSchema } = { Filter: FilterSchema, GeoFilter: GeoFilterSchema };

export const DistanceSortingSchema = Type.Object(
  {
    field: Type.Literal('distance'),
    direction: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc' })),
    from: GeoPointSchema,
  },
  {
    $id: 'DistanceSorting',
    title: 'DistanceSorting',
    description: 'Great-circle distance from `from` (extension E2); offers without coordinates come last, ties by offer_id.',
  },
);

export const SearchSchema = Type.String({
  minLength: 1,
  maxLength: MAX_SEARCH_LENGTH,
  description:
    'Full-text search (extension E1): every word must match the title, description, address or external id; case and ' +
    'diacritics never matter, the last word matches as a prefix, common Polish inflections find each other. ' +
    'Without `sorting`, the best matches come first.',
  examples: ['mieszkanie mokot'],
});

export const OFFERS_REQUEST_EXAMPLE = {
  pagination: { page: 1, size: 20 },
  sorting: { field: 'price', direction: 'asc' },
  filters: [
    { field: 'price', operator: 'between', value: [400000, 900000] },
    { field: 'rooms', operator: 'in', value: [2, 3] },
    { field: 'address_city', operator: 'eq', value: 'Kraków' },
    { field: 'has_balcony', operator: 'eq', value: true },
  ],
};

export const OffersRequestBodySchema = Type.Object(
  {
    pagination: PaginationSchema,
    sorting: Type.Optional(Nullable(Type.Union([SortingSchema, DistanceSortingSchema]))),
    filters: Type.Optional(
      Nullable(Type.Array(Type.Union(Object.values(FILTER_SCHEMAS)), { maxItems: MAX_FILTERS, description: FILTERS_DESCRIPTION })),
    ),
    search: Type.Optional(Nullable(SearchSchema)),
    fields: Type.Optional(Nullable(FieldsSchema)),
    lang: Type.Optional(Nullable(LangSchema)),
  },
  { $id: 'OffersRequestBody', title: 'OffersRequestBody', examples: [OFFERS_REQUEST_EXAMPLE] },
);

// ---------------------------------------------------------------------------------------------
// Sparse answers (extension E13): an offer whose offer_data holds only the fields asked for.

export const SparseOfferDataSchema = Type.Object(
  Object.fromEntries(Object.entries(OfferDataSchema.properties).map(([name, schema]) => [name, Type.Optional(schema)])),
  {
    $id: 'SparseOfferData',
    title: 'SparseOfferData',
    description: 'offer_data with `fields` (extension E13): only the fields asked for, in the field catalogue\'s order.',
  },
);

export const SparseOfferSchema = Type.Object(
  { ...OfferSchema.properties, offer_data: Type.Ref('SparseOfferData') },
  { $id: 'SparseOffer', title: 'SparseOffer', description: 'An offer answered with `fields`: every key of Offer; offer_data cut down.' },
);

export const SparseOffersPageSchema = Type.Object(
  { ...OffersPageSchema.properties, items: Type.Array(Type.Ref('SparseOffer')) },
  { $id: 'SparseOffersResponse', title: 'SparseOffersResponse', description: 'An offer page answered with `fields`.' },
);
