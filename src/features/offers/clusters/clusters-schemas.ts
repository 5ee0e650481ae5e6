/**
 * Schemas of the cluster operations (extension E13): the request (the lists' filters and search, a
 * bbox, a zoom) and the answer (clusters of a grid that follows the zoom).
 */
import Type from 'typebox';
import { Nullable } from '../../../contract/resources.js';
import { FILTER_SCHEMAS, SearchSchema } from '../schemas.js';
import { SearchLangSchema } from '../../translations/index.js';
import { FILTERS_DESCRIPTION } from '../query/descriptions.js';
import { MAX_FILTERS } from '../query/language.js';
import { MAX_CLUSTERS, MAX_ZOOM, MIN_ZOOM } from './cluster-grid.js';

const latitude = Type.Number({ minimum: -90, maximum: 90 });
const longitude = Type.Number({ minimum: -180, maximum: 180 });

export const BboxSchema = Type.Object(
  { south: latitude, west: longitude, north: latitude, east: longitude },
  { $id: 'Bbox', title: 'Bbox', description: 'Degrees; west > east crosses the antimeridian; south > north is a 422. Edges are inside.' },
);

export const CLUSTERS_REQUEST_EXAMPLE = {
  filters: [{ field: 'price', operator: 'lte', value: 900000 }],
  bbox: { south: 49.95, west: 19.75, north: 50.15, east: 20.15 },
  zoom: 12,
};

export const ClustersRequestBodySchema = Type.Object(
  {
    filters: Type.Optional(
      Nullable(Type.Array(Type.Union(Object.values(FILTER_SCHEMAS)), { maxItems: MAX_FILTERS, description: FILTERS_DESCRIPTION })),
    ),
    search: Type.Optional(Nullable(SearchSchema)),
    lang: Type.Optional(Nullable(SearchLangSchema)),
    bbox: Type.Ref('Bbox'),
    zoom: Type.Integer({ minimum: MIN_ZOOM, maximum: MAX_ZOOM, description: 'The map\'s zoom (web map tiles: 0 is the whole world in one tile).' }),
  },
  { $id: 'ClustersRequestBody', title: 'ClustersRequestBody', examples: [CLUSTERS_REQUEST_EXAMPLE] },
);

export const ClusterSchema = Type.Object(
  {
    lat: Type.Number({ description: 'The mean position of its offers (6 decimals); of one offer, its position.' }),
    lon: Type.Number(),
    count: Type.Integer({ minimum: 1 }),
    bbox: Type.Ref('Bbox', { description: 'The smallest box holding its offers (zoom to it on a click).' }),
    offer_id: Type.Optional(Type.String({ format: 'uuid', description: 'Only when `count` is 1: the offer.' })),
  },
  { $id: 'Cluster', title: 'Cluster' },
);

export const ClustersResponseSchema = Type.Object(
  {
    total: Type.Integer({ description: 'Matching offers in the bbox: the list\'s `total` for the same filters and search plus `within_bbox`.' }),
    clusters: Type.Array(Type.Ref('Cluster'), { maxItems: MAX_CLUSTERS, description: 'By count (most first), then cell (south to north, west to east). Counts add up to `total`.' }),
  },
  {
    $id: 'ClustersResponse',
    title: 'ClustersResponse',
    examples: [
      {
        total: 3,
        clusters: [
          { lat: 50.062, lon: 19.938, count: 2, bbox: { south: 50.0614, west: 19.9366, north: 50.0626, east: 19.9394 } },
          { lat: 50.0647, lon: 19.945, count: 1, bbox: { south: 50.0647, west: 19.945, north: 50.0647, east: 19.945 }, offer_id: '0ffa0000-0000-4000-8000-000000000002' },
        ],
      },
    ],
  },
);
