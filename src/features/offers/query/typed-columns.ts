/**
 * The typed columns of the offers table that the query language reads by name: the offer's own
 * columns, and the offer_data fields that migrations store again as generated columns (typed and
 * indexed, so that the common filters, sorts and facets read an index instead of offer_data). One
 * descriptor per column; the SQL compiler (sql.ts, geo-sql.ts), the in-memory facet columns
 * (facets/columns.ts, facets/columns-read.ts) and test/features/offers/query/typed-columns.test.ts
 * (which holds this list to the database's columns and indexes) read it.
 *
 * A new generated column is a migration plus one line here; the test fails until both agree.
 */

/** A column's type as information_schema.columns.data_type names it. */
export type ColumnSqlType = 'uuid' | 'text' | 'integer' | 'double precision' | 'boolean' | 'timestamp with time zone';

export interface TypedColumn {
  /** 'offer': a column of the offer itself; 'offer_data': generated as `(offer_data ->> field)::type`. */
  readonly source: 'offer' | 'offer_data';
  /** The field's name in the query language (an offer field or an offer_data field). */
  readonly field: string;
  readonly column: string;
  readonly type: ColumnSqlType;
  /**
   * Who reads the column. 'field': every filter, sort, facet and statistic on the field (instead of
   * offer_data). 'geography': only the `location` filters and the distance sort; a filter or sort
   * on the field itself reads offer_data as numeric, exact for every JSON number, as it always has.
   */
  readonly readBy: 'field' | 'geography';
  /**
   * How the in-memory facet columns (facets/columns.ts) hold it: 'number' (float64, NaN for null)
   * or 'coded' (a code per row into the sorted distinct values); absent: they do not.
   */
  readonly memory?: 'number' | 'coded';
  /** The indexes of the offers table that hold the column (the test checks them both ways). */
  readonly indexes: readonly string[];
}

const CITY_PRICE = ['offers_org_city_price_idx', 'offers_org_city_price_desc_idx'] as const;

/** In column order of the table. */
export const TYPED_COLUMNS = [
  { source: 'offer', field: 'offer_id', column: 'offer_id', type: 'uuid', readBy: 'field', indexes: ['offers_pkey'] },
  { source: 'offer', field: 'external_id', column: 'external_id', type: 'text', readBy: 'field', indexes: ['offers_org_external_idx'] },
  { source: 'offer', field: 'agent_id', column: 'agent_id', type: 'uuid', readBy: 'field', memory: 'coded', indexes: ['offers_agent_idx'] },
  { source: 'offer', field: 'branch_id', column: 'branch_id', type: 'uuid', readBy: 'field', memory: 'coded', indexes: ['offers_branch_idx'] },
  {
    source: 'offer',
    field: 'investment_id',
    column: 'investment_id',
    type: 'uuid',
    readBy: 'field',
    memory: 'coded',
    indexes: ['offers_org_investment_created_idx'],
  },
  { source: 'offer', field: 'version', column: 'version', type: 'integer', readBy: 'field', indexes: [] },
  {
    source: 'offer',
    field: 'created_at',
    column: 'created_at',
    type: 'timestamp with time zone',
    readBy: 'field',
    indexes: ['offers_org_created_idx', 'offers_org_investment_created_idx'],
  },
  { source: 'offer', field: 'updated_at', column: 'updated_at', type: 'timestamp with time zone', readBy: 'field', indexes: [] },
  // Migration 2026_11_21_0001: the fields of the typical listing page.
  {
    source: 'offer_data',
    field: 'price',
    column: 'price',
    type: 'double precision',
    readBy: 'field',
    memory: 'number',
    indexes: ['offers_org_price_idx', 'offers_org_price_desc_idx', ...CITY_PRICE],
  },
  {
    source: 'offer_data',
    field: 'price_per_meter',
    column: 'price_per_meter',
    type: 'double precision',
    readBy: 'field',
    memory: 'number',
    indexes: ['offers_org_price_per_meter_idx'],
  },
  {
    source: 'offer_data',
    field: 'property_size',
    column: 'property_size',
    type: 'double precision',
    readBy: 'field',
    memory: 'number',
    // Included in the city-and-price index for the sidebar's statistics (migration 2026_11_25_0010).
    indexes: ['offers_org_property_size_idx', 'offers_org_city_price_idx'],
  },
  {
    source: 'offer_data',
    field: 'rooms',
    column: 'rooms',
    type: 'integer',
    readBy: 'field',
    memory: 'number',
    indexes: ['offers_org_rooms_idx', ...CITY_PRICE],
  },
  { source: 'offer_data', field: 'offer_type', column: 'offer_type', type: 'text', readBy: 'field', memory: 'coded', indexes: ['offers_org_offer_type_idx'] },
  {
    source: 'offer_data',
    field: 'market_type',
    column: 'market_type',
    type: 'text',
    readBy: 'field',
    memory: 'coded',
    indexes: ['offers_org_market_type_idx', 'offers_org_city_price_idx'],
  },
  { source: 'offer_data', field: 'address_city', column: 'address_city', type: 'text', readBy: 'field', memory: 'coded', indexes: [...CITY_PRICE] },
  {
    source: 'offer_data',
    field: 'address_district',
    column: 'address_district',
    type: 'text',
    readBy: 'field',
    memory: 'coded',
    indexes: ['offers_org_district_idx'],
  },
  // Migration 2026_11_21_0002: the boolean of the typical listing-page search.
  { source: 'offer_data', field: 'has_balcony', column: 'has_balcony', type: 'boolean', readBy: 'field', memory: 'coded', indexes: [...CITY_PRICE] },
  // Migration 2026_11_24_0003: the offer's position (extension E2).
  {
    source: 'offer_data',
    field: 'location_latitude',
    column: 'location_latitude',
    type: 'double precision',
    readBy: 'geography',
    // In memory for the map's clusters (extension E13), which read the positions from the columns.
    memory: 'number',
    indexes: ['offers_org_location_idx'],
  },
  {
    source: 'offer_data',
    field: 'location_longitude',
    column: 'location_longitude',
    type: 'double precision',
    readBy: 'geography',
    memory: 'number',
    indexes: ['offers_org_location_idx'],
  },
  // Migrations 2026_11_27_0020 and 0021: the latest price change (extension E10), kept by the import.
  {
    source: 'offer',
    field: 'price_changed_at',
    column: 'price_changed_at',
    type: 'timestamp with time zone',
    readBy: 'field',
    indexes: ['offers_org_price_changed_idx'],
  },
  { source: 'offer', field: 'price_change_pct', column: 'price_change_pct', type: 'double precision', readBy: 'field', indexes: [] },
] as const satisfies readonly TypedColumn[];

type Entry = (typeof TYPED_COLUMNS)[number];
type KeyOf<E> = E extends { readonly source: infer S extends string; readonly field: infer F extends string } ? `${S}:${F}` : never;

/** `source:field` of the columns the in-memory facet columns hold as numbers / as codes. */
export type NumberColumnKey = KeyOf<Extract<Entry, { readonly memory: 'number' }>>;
export type CodedColumnKey = KeyOf<Extract<Entry, { readonly memory: 'coded' }>>;

/** `source:field`: a field's key among the typed columns. */
export const columnKey = (field: { readonly source: string; readonly name: string }): string => `${field.source}:${field.name}`;
const keyOfColumn = (column: TypedColumn) => `${column.source}:${column.field}`;

const COLUMNS: readonly TypedColumn[] = TYPED_COLUMNS;
const BY_KEY: ReadonlyMap<string, TypedColumn> = new Map(COLUMNS.map((column) => [keyOfColumn(column), column]));

/** The column that filters, sorts, facets and statistics on this field read; undefined: they read offer_data. */
export function fieldColumn(field: { readonly source: string; readonly name: string }): TypedColumn | undefined {
  const column = BY_KEY.get(columnKey(field));
  return column?.readBy === 'field' ? column : undefined;
}

/** The column of an offer_data field that the geography reads (location_latitude, location_longitude). */
export function geographyColumn(field: 'location_latitude' | 'location_longitude'): string {
  const column = BY_KEY.get(`offer_data:${field}`);
  if (column?.readBy !== 'geography') throw new Error(`no geography column for ${field}`);
  return column.column;
}

/** The columns the in-memory facet columns hold, by form, each with its key. */
export const NUMBER_COLUMNS = COLUMNS.filter((column) => column.memory === 'number').map((column) => ({
  key: keyOfColumn(column) as NumberColumnKey,
  column,
}));
export const CODED_COLUMNS = COLUMNS.filter((column) => column.memory === 'coded').map((column) => ({
  key: keyOfColumn(column) as CodedColumnKey,
  column,
}));
