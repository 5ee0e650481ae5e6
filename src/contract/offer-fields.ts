/**
 * The catalogue of offer fields: every offer_data field of the interface, in table order, with the
 * kind that decides how it is validated on import, rendered, filtered and sorted. Schemas, the
 * filter language, the JSON and XML renderers all read this list, so a field is described once.
 */

/**
 * - number, integer: JSON numbers; filters take comparisons, between, in.
 * - text: free text; filters take contains / starts_with (case-insensitive).
 * - enum: an open set of identifiers (PRIMARY, APARTMENT_SALES, ...); equality filters only.
 * - uuid: an identifier; equality filters only.
 * - boolean: true / false.
 * - datetime_ms: UTC, milliseconds, trailing Z (2025-03-01T00:00:00.000Z).
 * - datetime_offset: offset form (2025-01-31T09:15:00+00:00).
 * - datetime: RFC 3339 in UTC with Z, microseconds when stored (offer created_at / updated_at).
 * - url_list: array of URL strings.
 */
export type FieldKind =
  | 'number'
  | 'integer'
  | 'text'
  | 'enum'
  | 'uuid'
  | 'boolean'
  | 'datetime_ms'
  | 'datetime_offset'
  | 'datetime'
  | 'url_list';

export interface OfferDataField {
  readonly name: string;
  readonly kind: FieldKind;
  /** Element name of one array item in XML (photos_urls -> photo_url). */
  readonly xmlItem?: string;
  /** Known values of an enumerated field, for the docs; other values are accepted too. */
  readonly known?: readonly string[];
}

const f = (name: string, kind: FieldKind, extra: Partial<OfferDataField> = {}): OfferDataField => ({
  name,
  kind,
  ...extra,
});

/** offer_data fields, in the order of the interface table (and of every JSON and XML rendering). */
export const OFFER_DATA_FIELDS: readonly OfferDataField[] = [
  f('price', 'number'),
  f('price_currency', 'enum', { known: ['PLN', 'EUR', 'USD'] }),
  f('price_per_meter', 'number'),
  f('property_size', 'number'),
  f('administrative_rent', 'number'),
  f('rooms', 'integer'),
  f('market_type', 'enum', { known: ['PRIMARY', 'SECONDARY'] }),
  f('building_type', 'enum', {
    known: ['APARTMENT_COMPLEX', 'BLOCK_OF_FLATS', 'TENEMENT', 'DETACHED_HOUSE', 'TERRACED_HOUSE', 'SEMI_DETACHED_HOUSE', 'LOFT'],
  }),
  f('kitchen_type', 'enum', { known: ['KITCHENETTE', 'SEPARATE', 'ANNEX'] }),
  f('building_stage', 'text'),
  f('building_material', 'text'),
  f('roof_material', 'text'),
  f('windows_material', 'text'),
  f('year_built', 'integer'),
  f('floor_no_lower_bound', 'integer'),
  f('total_levels_in_building_lower_bound', 'integer'),
  f('levels', 'integer'),
  f('bathroom_count', 'integer'),
  f('ownership_type', 'enum', { known: ['OWNERSHIP', 'COOPERATIVE_OWNERSHIP', 'PERPETUAL_USUFRUCT'] }),
  f('has_land_and_mortgage_register', 'boolean'),
  f('sewage', 'enum', { known: ['MUNICIPAL', 'SEPTIC_TANK', 'SEWAGE_TREATMENT_PLANT', 'NONE'] }),
  f('water_access', 'enum', { known: ['WATER_SUPPLY', 'WELL', 'NONE'] }),
  f('heating', 'enum', { known: ['MUNICIPAL', 'GAS', 'ELECTRIC', 'HEAT_PUMP', 'BOILER_ROOM', 'TILED_STOVE', 'NONE'] }),
  f('has_cable_telephone_access', 'boolean'),
  f('has_cable_television_access', 'boolean'),
  f('has_cable_internet_access', 'boolean'),
  f('has_electricity_access', 'boolean'),
  f('has_gas_access', 'boolean'),
  f('has_high_voltage_plug', 'boolean'),
  f('parking', 'enum', { known: ['UNDERGROUND_PARKING_LOT', 'PARKING_LOT', 'GARAGE', 'STREET', 'NONE'] }),
  f('parking_lots', 'integer'),
  f('has_balcony', 'boolean'),
  f('has_terrace', 'boolean'),
  f('has_garden', 'boolean'),
  f('has_storage', 'boolean'),
  f('has_basement', 'boolean'),
  f('has_elevator', 'boolean'),
  f('is_furnished', 'boolean'),
  f('has_air_conditioning', 'boolean'),
  f('is_gated_community', 'boolean'),
  f('has_anti_theft_protection', 'boolean'),
  f('available_from_date', 'datetime_ms'),
  f('address_country', 'text'),
  f('address_county', 'text'),
  f('address_community', 'text'),
  f('address_city', 'text'),
  f('address_district', 'text'),
  f('address_subdistrict', 'text'),
  f('address_street', 'text'),
  f('address_street_number', 'text'),
  f('address_flat_number', 'text'),
  f('address_postcode', 'text'),
  f('community_type', 'enum', { known: ['urban', 'rural', 'urban_rural'] }),
  f('location_latitude', 'number'),
  f('location_longitude', 'number'),
  f('location_approximation', 'number'),
  f('title', 'text'),
  f('description', 'text'),
  f('film_url', 'text'),
  f('virtual_walk_url', 'text'),
  f('address_state', 'text'),
  f('offer_type', 'enum', {
    known: ['APARTMENT_SALES', 'APARTMENT_RENTALS', 'HOUSE_SALES', 'HOUSE_RENTALS', 'PLOT_SALES', 'COMMERCIAL_SALES', 'COMMERCIAL_RENTALS'],
  }),
  f('property_condition', 'enum', { known: ['DEVELOPER_STATE', 'GOOD', 'AVERAGE', 'BELOW_AVERAGE', 'TO_RENOVATE', 'VERY_GOOD'] }),
  f('id', 'uuid'),
  f('external_id', 'text'),
  f('photos_urls', 'url_list', { xmlItem: 'photo_url' }),
  f('date_modified', 'datetime_offset'),
  f('date_posted', 'datetime_offset'),
  f('description_clean_text', 'text'),
  f('floor_plan_urls', 'url_list', { xmlItem: 'floor_plan_url' }),
];

export const OFFER_DATA_FIELD_BY_NAME: ReadonlyMap<string, OfferDataField> = new Map(
  OFFER_DATA_FIELDS.map((field) => [field.name, field]),
);

/**
 * Offer-level fields that filters and sorting may name besides the offer_data ones, with the SQL
 * column that holds them.
 */
export const OFFER_TOP_FIELDS: readonly OfferDataField[] = [
  f('offer_id', 'uuid'),
  f('external_id', 'text'),
  f('created_at', 'datetime'),
  f('updated_at', 'datetime'),
  f('version', 'integer'),
  f('agent_id', 'uuid'),
  f('branch_id', 'uuid'),
  f('investment_id', 'uuid'),
  // Extension E10: the latest price change, kept by the import beside the price history.
  f('price_changed_at', 'datetime'),
  f('price_change_pct', 'number'),
];
