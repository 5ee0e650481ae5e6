/**
 * The offer query vocabulary: which fields a filter or a sort may name, which related entities
 * `include` embeds, the bounds of a query, and the checked request forms. The operators are one
 * table (operators.ts) and the values they take are in values.ts; this module hands both on, so
 * that the HTTP side (request schemas, validation, docs) and the SQL side (sql.ts, operators-sql.ts)
 * read the language from one place. No I/O and no SQL here.
 */
import { OFFER_DATA_FIELD_BY_NAME, OFFER_TOP_FIELDS, type FieldKind } from '../../../contract/offer-fields.js';
import type { OfferFilter } from './operators.js';
import type { GeoPoint, OfferField, QueryFieldKind } from './values.js';
import type { FieldSelection } from '../sparse-fields.js';

export {
  FILTER_OPERATORS,
  GEO_OPERATORS,
  isFilterOperator,
  OPERATORS,
  OPERATORS_BY_KIND,
  type FilterOperator,
  type GeoOperator,
  type OfferFilter,
} from './operators.js';
export {
  MAX_FILTER_STRING_LENGTH,
  MAX_LIST_VALUES,
  MAX_POLYGON_POINTS,
  MAX_RADIUS_KM,
  MIN_POLYGON_POINTS,
  type FilterScalar,
  type GeoBox,
  type GeoPoint,
  type GeoPolygon,
  type GeoRadius,
  type OfferField,
  type QueryFieldKind,
} from './values.js';

/** Related entities that `include` can embed in an offer. */
export const OFFER_INCLUDES = ['agent', 'branch', 'organization', 'investment'] as const;
export type OfferInclude = (typeof OFFER_INCLUDES)[number];

/** Most filters in one query. */
export const MAX_FILTERS = 50;
/** Longest full-text search, in characters after trimming (extension E1). */
export const MAX_SEARCH_LENGTH = 200;
/** Mean Earth radius (IUGG), for great-circle distances. */
export const EARTH_RADIUS_KM = 6371.0088;

/** The virtual field of the offer's position (location_latitude / location_longitude). */
export const LOCATION_FIELD = 'location';
/** The virtual sort field: great-circle distance from `sorting.from`. */
export const DISTANCE_SORT_FIELD = 'distance';

/** Offer-level fields that may be sorted on (the others are ids, and offer_id breaks ties anyway). */
const SORTABLE_TOP_FIELDS: ReadonlySet<string> = new Set(['created_at', 'updated_at', 'version', 'external_id', 'price_changed_at', 'price_change_pct']);
const SORTABLE_DATA_KINDS: ReadonlySet<FieldKind> = new Set([
  'number',
  'integer',
  'text',
  'enum',
  'uuid',
  'datetime_ms',
  'datetime_offset',
]);

const LOCATION: OfferField = { name: LOCATION_FIELD, kind: 'geo_point', source: 'virtual' };
/** The field of a distance sort (not a filter field). */
export const DISTANCE: OfferField = { name: DISTANCE_SORT_FIELD, kind: 'number', source: 'virtual' };

const TOP_FIELD_BY_NAME: ReadonlyMap<string, OfferField> = new Map(
  OFFER_TOP_FIELDS.map((field) => [field.name, { name: field.name, kind: field.kind, source: 'offer' as const }]),
);

/**
 * A field name of a filter or sort: an offer-level field, or an offer_data field by its bare name
 * or as `offer_data.<name>`. Offer-level names win (`external_id` is the offer's, which equals
 * offer_data.external_id anyway).
 */
export function resolveOfferField(name: string): OfferField | undefined {
  if (name === LOCATION_FIELD) return LOCATION;
  const bare = name.startsWith('offer_data.') ? name.slice('offer_data.'.length) : undefined;
  if (bare === undefined) {
    const top = TOP_FIELD_BY_NAME.get(name);
    if (top) return top;
  }
  const data = OFFER_DATA_FIELD_BY_NAME.get(bare ?? name);
  return data ? { name: data.name, kind: data.kind, source: 'offer_data' } : undefined;
}

export function isSortable(field: OfferField): boolean {
  if (field.source === 'virtual') return false; // distance sorts need a point (sortingFrom)
  return field.source === 'offer' ? SORTABLE_TOP_FIELDS.has(field.name) : SORTABLE_DATA_KINDS.has(field.kind as FieldKind);
}

/** Every name a filter may use (offer-level first, then offer_data in table order, then location). */
export function filterableFieldNames(): string[] {
  const names = [...TOP_FIELD_BY_NAME.keys()];
  for (const name of OFFER_DATA_FIELD_BY_NAME.keys()) if (!TOP_FIELD_BY_NAME.has(name)) names.push(name);
  names.push(LOCATION_FIELD);
  return names;
}

/** Every name a sort may use, for the docs and error messages. */
export function sortableFieldNames(): string[] {
  const names = [...SORTABLE_TOP_FIELDS];
  for (const field of OFFER_DATA_FIELD_BY_NAME.values()) {
    if (SORTABLE_DATA_KINDS.has(field.kind) && !SORTABLE_TOP_FIELDS.has(field.name)) names.push(field.name);
  }
  return names;
}

export interface OfferSort {
  field: OfferField;
  direction: 'asc' | 'desc';
  /** The point a distance sort measures from (field DISTANCE). */
  from?: GeoPoint;
}

/** A checked offer list request: the page, the order and the filters (all of which must hold). */
export interface OfferListRequest {
  page: number;
  size: number;
  /** undefined: newest first (created_at desc). */
  sort: OfferSort | undefined;
  filters: OfferFilter[];
  /** Full-text search (extension E1), trimmed; undefined: none. Without sort: by relevance. */
  search?: string | undefined;
  /** Sparse fields (extension E13): offer_data holds only these; undefined: every field. */
  fields?: FieldSelection | undefined;
  /** Translations (extension E12): the canonical language tag to serve; undefined: the originals. */
  lang?: string | undefined;
}


// ---------------------------------------------------------------------------------------------
// Facets and statistics (extension E3)

/** Kinds of field whose values can be counted (and agent_id, branch_id, investment_id). */
const FACET_KINDS: ReadonlySet<QueryFieldKind> = new Set(['text', 'enum', 'integer', 'boolean']);
const FACET_TOP_FIELDS: ReadonlySet<string> = new Set(['agent_id', 'branch_id', 'investment_id']);
/** Kinds of field that statistics (min, max, avg, count) are computed for. */
const STATS_KINDS: ReadonlySet<QueryFieldKind> = new Set(['number', 'integer', 'datetime', 'datetime_ms', 'datetime_offset']);

export const DEFAULT_FACET_SIZE = 100;
export const MAX_FACET_SIZE = 1000;
/** Most facets, and most stats, in one request (each is a part of one database statement). */
export const MAX_FACETS = 20;

export function isFacetable(field: OfferField): boolean {
  if (field.source === 'offer') return FACET_TOP_FIELDS.has(field.name);
  return field.source === 'offer_data' && FACET_KINDS.has(field.kind);
}

export function hasStats(field: OfferField): boolean {
  return field.source !== 'virtual' && STATS_KINDS.has(field.kind);
}

export function facetableFieldNames(): string[] {
  return filterableFieldNames().filter((name) => isFacetable(resolveOfferField(name)!));
}

export function statsFieldNames(): string[] {
  return filterableFieldNames().filter((name) => hasStats(resolveOfferField(name)!));
}

/** A checked facets request: the list's filters and search, and what to count and measure. */
export interface OfferFacetsRequest {
  filters: OfferFilter[];
  search?: string | undefined;
  /** With `search`, also the words of the translation into this language (extension E12), as the lists do. */
  lang?: string | undefined;
  facets: OfferField[];
  stats: OfferField[];
  facetSize: number;
}

export type FacetValue = string | number | boolean | null;

export interface FacetCount {
  value: FacetValue;
  count: number;
}

export interface FieldStats {
  min: number | string | null;
  max: number | string | null;
  avg: number | string | null;
  count: number;
}

export interface OfferFacetsView {
  total: number;
  facets: Record<string, FacetCount[]>;
  stats: Record<string, FieldStats>;
}
