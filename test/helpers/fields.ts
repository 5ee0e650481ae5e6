/**
 * Field orders of the interface tables (interface.md), written out independently of the source so
 * that a test notices when a response drifts from them.
 */
export const LOCATION_FIELDS = [
  'address_city', 'address_community', 'address_country', 'address_county', 'address_district', 'address_subdistrict',
  'address_state', 'address_street', 'address_street_number', 'address_flat_number', 'address_zip_code', 'community_type',
  'location_latitude', 'location_longitude', 'location_approximation',
];
export const ORGANIZATION_FIELDS = [
  'organization_id', 'name', 'legal_name', 'nip', 'logo_url', 'address', 'website', 'phone_number', 'description',
  'cover_image_url', 'location', 'social_media_links', 'contact_email',
];
export const BRANCH_FIELDS = [
  'branch_id', 'webpage_id', 'organization_id', 'name', 'description', 'address', 'cover_image_url', 'logo_url', 'email',
  'phone_number', 'open_time', 'location',
];
export const AGENT_FIELDS = [
  'agent_id', 'webpage_id', 'organization_id', 'branch_id', 'email', 'phone_number', 'first_name', 'last_name',
  'avatar_url', 'job_title', 'description', 'cover_image_url', 'profile_image_url',
];
export const INVESTMENT_FIELDS = ['investment_id', 'webpage_id', 'organization_id', 'name', 'description', 'is_active'];
export const OFFER_FIELDS = [
  'offer_id', 'external_id', 'created_at', 'updated_at', 'offer_data', 'version', 'agent', 'branch', 'organization', 'investment',
];
export const OFFERS_PAGE_FIELDS = ['items', 'page', 'size', 'total', 'pages'];
export const OFFER_DATA_FIELDS = [
  'price', 'price_currency', 'price_per_meter', 'property_size', 'administrative_rent', 'rooms', 'market_type',
  'building_type', 'kitchen_type', 'building_stage', 'building_material', 'roof_material', 'windows_material',
  'year_built', 'floor_no_lower_bound', 'total_levels_in_building_lower_bound', 'levels', 'bathroom_count',
  'ownership_type', 'has_land_and_mortgage_register', 'sewage', 'water_access', 'heating',
  'has_cable_telephone_access', 'has_cable_television_access', 'has_cable_internet_access', 'has_electricity_access',
  'has_gas_access', 'has_high_voltage_plug', 'parking', 'parking_lots', 'has_balcony', 'has_terrace', 'has_garden',
  'has_storage', 'has_basement', 'has_elevator', 'is_furnished', 'has_air_conditioning', 'is_gated_community',
  'has_anti_theft_protection', 'available_from_date', 'address_country', 'address_county', 'address_community',
  'address_city', 'address_district', 'address_subdistrict', 'address_street', 'address_street_number',
  'address_flat_number', 'address_postcode', 'community_type', 'location_latitude', 'location_longitude',
  'location_approximation', 'title', 'description', 'film_url', 'virtual_walk_url', 'address_state', 'offer_type',
  'property_condition', 'id', 'external_id', 'photos_urls', 'date_modified', 'date_posted', 'description_clean_text',
  'floor_plan_urls',
];
export const WEEKDAY_FIELDS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
