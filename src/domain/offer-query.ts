/**
 * The offer query vocabulary: which fields a filter or a sort may name, which operators each kind
 * of field takes, which related entities `include` embeds, and the bounds of a query. The HTTP side
 * (request schemas, validation, docs) and the SQL side (src/queries/offer-filters.ts) both read it
 * from here, so the language is described once. No I/O and no SQL here.
 */
import { OFFER_DATA_FIELD_BY_NAME, OFFER_TOP_FIELDS, type FieldKind } from './offer-fields.js';

export const FILTER_OPERATORS = [
  'eq',
  'ne',
  'gt',
  'gte',
  'lt',
  'lte',
  'between',
  'in',
  'not_in',
  'is_null',
  'contains',
  'starts_with',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

const ORDERED: readonly FilterOperator[] = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'not_in', 'is_null'];
const EQUALITY: readonly FilterOperator[] = ['eq', 'ne', 'in', 'not_in', 'is_null'];

/** Which operators each kind of field takes (CONTRACT 6). */
export const OPERATORS_BY_KIND: Readonly<Record<FieldKind, readonly FilterOperator[]>> = {
  number: ORDERED,
  integer: ORDERED,
  datetime: ORDERED,
  datetime_ms: ORDERED,
  datetime_offset: ORDERED,
  text: ['eq', 'ne', 'in', 'not_in', 'contains', 'starts_with', 'is_null'],
  enum: EQUALITY,
  uuid: EQUALITY,
  boolean: ['eq', 'ne', 'is_null'],
  url_list: ['is_null'],
};

/** Related entities that `include` can embed in an offer. */
export const OFFER_INCLUDES = ['agent', 'branch', 'organization', 'investment'] as const;
export type OfferInclude = (typeof OFFER_INCLUDES)[number];

/** Most filters in one query. */
export const MAX_FILTERS = 50;
/** Most values of an `in` / `not_in` filter. */
export const MAX_LIST_VALUES = 1000;
/** Longest text value a filter may compare with (no stored field needs more to match). */
export const MAX_FILTER_STRING_LENGTH = 1000;

/** Offer-level fields that may be sorted on (the others are ids, and offer_id breaks ties anyway). */
const SORTABLE_TOP_FIELDS: ReadonlySet<string> = new Set(['created_at', 'updated_at', 'version', 'external_id']);
const SORTABLE_DATA_KINDS: ReadonlySet<FieldKind> = new Set([
  'number',
  'integer',
  'text',
  'enum',
  'uuid',
  'datetime_ms',
  'datetime_offset',
]);

export interface OfferField {
  readonly name: string;
  readonly kind: FieldKind;
  /** 'offer': a column of the offers table; 'offer_data': a field of offer_data. */
  readonly source: 'offer' | 'offer_data';
}

const TOP_FIELD_BY_NAME: ReadonlyMap<string, OfferField> = new Map(
  OFFER_TOP_FIELDS.map((field) => [field.name, { name: field.name, kind: field.kind, source: 'offer' as const }]),
);

/**
 * A field name of a filter or sort: an offer-level field, or an offer_data field by its bare name
 * or as `offer_data.<name>`. Offer-level names win (`external_id` is the offer's, which equals
 * offer_data.external_id anyway).
 */
export function resolveOfferField(name: string): OfferField | undefined {
  const bare = name.startsWith('offer_data.') ? name.slice('offer_data.'.length) : undefined;
  if (bare === undefined) {
    const top = TOP_FIELD_BY_NAME.get(name);
    if (top) return top;
  }
  const data = OFFER_DATA_FIELD_BY_NAME.get(bare ?? name);
  return data ? { name: data.name, kind: data.kind, source: 'offer_data' } : undefined;
}

export function isSortable(field: OfferField): boolean {
  return field.source === 'offer' ? SORTABLE_TOP_FIELDS.has(field.name) : SORTABLE_DATA_KINDS.has(field.kind);
}

/** Every name a filter may use (offer-level first, then offer_data in table order). */
export function filterableFieldNames(): string[] {
  const names = [...TOP_FIELD_BY_NAME.keys()];
  for (const name of OFFER_DATA_FIELD_BY_NAME.keys()) if (!TOP_FIELD_BY_NAME.has(name)) names.push(name);
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

/**
 * A filter value normalized by the request layer for the field's kind:
 * number / integer -> number; text / enum -> string; uuid -> lower-case hyphenated string;
 * boolean -> boolean; date-times -> UTC text with microseconds ('2025-01-31T09:15:00.000000Z').
 */
export type FilterScalar = number | string | boolean;

export type OfferFilter =
  | { field: OfferField; operator: 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'contains' | 'starts_with'; value: FilterScalar }
  | { field: OfferField; operator: 'between'; value: readonly [FilterScalar, FilterScalar] }
  | { field: OfferField; operator: 'in' | 'not_in'; value: readonly FilterScalar[] }
  | { field: OfferField; operator: 'is_null'; value: boolean };

export interface OfferSort {
  field: OfferField;
  direction: 'asc' | 'desc';
}

/** A checked offer list request: the page, the order and the filters (all of which must hold). */
export interface OfferListRequest {
  page: number;
  size: number;
  /** undefined: newest first (created_at desc). */
  sort: OfferSort | undefined;
  filters: OfferFilter[];
}
