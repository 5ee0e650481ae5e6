/**
 * Table types of the database, as Kysely sees them. Timestamps come back as the server's text
 * (see connect.ts), never as Date, so microseconds survive the round trip.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** timestamptz: read as text ('2025-01-31 09:15:00.123456+00'), written as text or Date. */
export type Timestamp = ColumnType<string, string | Date, string | Date>;
export type TimestampDefault = ColumnType<string, string | Date | undefined, string | Date>;
/** jsonb: read as parsed JSON, written as a JSON string (both drivers accept that). */
export type Json<T> = ColumnType<T, string, string>;

export interface LocationData {
  address_city: string | null;
  address_community: string | null;
  address_country: string | null;
  address_county: string | null;
  address_district: string | null;
  address_subdistrict: string | null;
  address_state: string | null;
  address_street: string | null;
  address_street_number: string | null;
  address_flat_number: string | null;
  address_zip_code: string | null;
  community_type: string | null;
  location_latitude: number | null;
  location_longitude: number | null;
  location_approximation: number | null;
}

export interface OpeningInterval {
  from_time: string;
  to_time: string;
}
export type Weekday = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';
export type OpenTime = Record<Weekday, OpeningInterval[]>;

export interface OrganizationTable {
  organization_id: string;
  name: string;
  legal_name: string | null;
  nip: string | null;
  logo_url: string | null;
  address: string | null;
  website: string | null;
  phone_number: string | null;
  description: string | null;
  cover_image_url: string | null;
  location: Json<LocationData | null> | null;
  social_media_links: Json<string[] | null> | null;
  contact_email: string | null;
  /** The developer's legal data (extension E10, migration 2026_11_27_0022); never in the interface's answers. */
  developer: Json<unknown> | null;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
}

/**
 * What a website may see of its organization (extension E7), as stored in websites.scope: each
 * list absent (no restriction) or a sorted, de-duplicated, non-empty array (UUIDs in lower case).
 */
export interface WebsiteScope {
  readonly investment_ids?: readonly string[];
  readonly branch_ids?: readonly string[];
  readonly offer_types?: readonly string[];
}

/** A website's URL templates (E12): each an http(s) address with `{slug}` in it. */
export interface WebsiteUrls {
  readonly offer?: string;
  readonly investment?: string;
}

export interface WebsiteTable {
  website_id: string;
  organization_id: string;
  name: string;
  /** null: the whole organization. Written as a JSON string. */
  scope: ColumnType<WebsiteScope | null, string | null | undefined, string | null>;
  /** URL templates (E12, migration 2026_11_27_0041); null: none. Written as a JSON string. */
  urls: ColumnType<WebsiteUrls | null, string | null | undefined, string | null>;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
}

export interface ApiKeyTable {
  key_id: string;
  website_id: string;
  /** Lower-case hex SHA-256 of the key; the key itself is never stored. */
  key_sha256: string;
  /** The first characters of the key, shown in listings; null when imported as a bare hash. */
  key_prefix: string | null;
  label: string | null;
  is_active: boolean;
  expires_at: Timestamp | null;
  created_at: TimestampDefault;
  last_used_at: Timestamp | null;
}

export interface BranchTable {
  branch_id: string;
  organization_id: string;
  webpage_id: string;
  name: string;
  description: string | null;
  address: string | null;
  cover_image_url: string | null;
  logo_url: string | null;
  email: string | null;
  phone_number: string | null;
  open_time: Json<OpenTime | null> | null;
  location: Json<LocationData | null> | null;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
}

export interface AgentTable {
  agent_id: string;
  organization_id: string;
  webpage_id: string | null;
  branch_id: string | null;
  email: string | null;
  phone_number: string | null;
  first_name: string | null;
  last_name: string | null;
  avatar_url: string | null;
  job_title: string | null;
  description: string | null;
  cover_image_url: string | null;
  profile_image_url: string | null;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
}

export interface InvestmentTable {
  investment_id: string;
  organization_id: string;
  webpage_id: string | null;
  name: string;
  description: string | null;
  is_active: boolean;
  /** The investment's address (extension E10, migration 2026_11_27_0022); never in the interface's answers. */
  location: Json<unknown> | null;
  created_at: TimestampDefault;
  updated_at: TimestampDefault;
  /** The current slug (E12, migration 2026_11_27_0040); null only inside the import that created the row. */
  slug: ColumnType<string | null, string | null | undefined, string | null>;
  /** Name and description in other languages (E12, migration 2026_11_28_0100); null: none. */
  translations: ColumnType<unknown, string | null | undefined, string | null>;
}

export interface OfferTable {
  offer_id: string;
  organization_id: string;
  external_id: string;
  agent_id: string | null;
  branch_id: string | null;
  investment_id: string | null;
  is_active: boolean;
  version: number;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** offer_data as imported and normalized (every field of the interface, nulls included). */
  offer_data: Json<Record<string, unknown>>;
  /** The same offer_data rendered once as JSON text in table order, spliced into responses. */
  offer_data_json: string;
  // Generated from offer_data (see the migration); read-only for the application.
  price: ColumnType<number | null, never, never>;
  price_per_meter: ColumnType<number | null, never, never>;
  property_size: ColumnType<number | null, never, never>;
  rooms: ColumnType<number | null, never, never>;
  offer_type: ColumnType<string | null, never, never>;
  market_type: ColumnType<string | null, never, never>;
  address_city: ColumnType<string | null, never, never>;
  address_district: ColumnType<string | null, never, never>;
  /** Added by migration 2026_11_21_0002 (the typical listing-page search filters on it). */
  has_balcony: ColumnType<boolean | null, never, never>;
  /**
   * The words an offer is found by (full-text search): written by the import through
   * ecs_search_vector() from src/features/offers/query/search-text.ts (migration 2026_11_24_0004).
   */
  search_vector: ColumnType<string, string | undefined, string | undefined>;
  /** Weights A and B of search_vector alone (title, address), for relevance (migration 2026_11_25_0008). */
  search_head: ColumnType<string, never, never>;
  location_latitude: ColumnType<number | null, never, never>;
  location_longitude: ColumnType<number | null, never, never>;
  /** Ancillary prices as the bundle gave them (extension E10, migration 2026_11_27_0020); null: none. */
  ancillary: ColumnType<unknown, string | null | undefined, string | null>;
  /** The latest price change (E10), kept by the import beside offer_prices. */
  price_changed_at: ColumnType<string | null, string | null | undefined, string | null>;
  price_change_pct: ColumnType<number | null, number | null | undefined, number | null>;
  /** The current slug (E12, migration 2026_11_27_0040); null only inside the import that created the row. */
  slug: ColumnType<string | null, string | null | undefined, string | null>;
  /** Title and description in other languages (E12, migration 2026_11_28_0100); null: none. */
  translations: ColumnType<unknown, string | null | undefined, string | null>;
  /** The words of the translations, prefixed with their language tag (ecs_translation_vector). */
  translation_vector: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An organization whose price-transparency dataset is public (extension E10, migration 2026_11_27_0022). */
export interface TransparencyDatasetTable {
  organization_id: string;
  public_url: string;
  enabled_at: TimestampDefault;
}

/** One dated price entry of an offer (extension E10, migration 2026_11_27_0020): appended, never changed. */
export interface OfferPriceTable {
  entry_no: ColumnType<string, never, never>;
  offer_id: string;
  organization_id: string;
  valid_from: Timestamp;
  /** numeric: exact as the bundle wrote it (both drivers hand it back as text). */
  price: string | null;
  price_per_meter: string | null;
  price_currency: string | null;
  ancillary: ColumnType<unknown, string, never>;
  recorded_at: TimestampDefault;
}

/** Every slug an offer or investment ever had, current included (E12): old ones keep resolving. */
export interface SlugTable {
  organization_id: string;
  kind: 'offer' | 'investment';
  slug: string;
  entity_id: string;
  created_at: TimestampDefault;
}

/**
 * Every word of the offers' search vectors, and perhaps words no offer has any more (migration
 * 2026_11_26_0015): a search's last word, typed as a prefix, is looked up here.
 */
export interface SearchLexemeTable {
  lexeme: string;
}

/** One row; its version grows whenever imported content changes (response caches key on it). */
export interface ContentStateTable {
  id: Generated<number>;
  content_version: ColumnType<string, string | number, string | number>;
  changed_at: TimestampDefault;
}

/** Where a website's webhooks go (migration 2026_11_24_0007). */
export interface WebhookEndpointTable {
  endpoint_id: string;
  website_id: string;
  url: string;
  /** The signing secret (whsec_…), kept as it is because the service signs with it; never logged or listed. */
  secret: string;
  created_at: TimestampDefault;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

/** The webhook outbox: one message to one endpoint, and how its delivery went. */
export interface WebhookDeliveryTable {
  /** The message id sent as `webhook-id` (msg_…), the same on every attempt. */
  delivery_id: string;
  seq: ColumnType<string, never, never>;
  endpoint_id: string;
  event_type: string;
  /** The exact body that is signed and sent. */
  payload: string;
  status: ColumnType<WebhookDeliveryStatus, WebhookDeliveryStatus | undefined, WebhookDeliveryStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: TimestampDefault;
  /** Lease of the instance sending it; null when nobody is. */
  locked_until: Timestamp | null;
  last_attempt_at: Timestamp | null;
  last_status: number | null;
  last_error: string | null;
  created_at: TimestampDefault;
  delivered_at: Timestamp | null;
}

/** The change feed (E5): one row per website and entity, its latest change (src/features/change-feed/write.ts). */
export interface WebsiteChangeTable {
  website_id: string;
  kind: 'organization' | 'branch' | 'agent' | 'investment' | 'offer';
  entity_id: string;
  op: 'upsert' | 'delete';
  version: number;
  updated_at: Timestamp;
  /** bigint, read as text. */
  seq: ColumnType<string, string | number, string | number>;
  changed_at: TimestampDefault;
  /** The change's JSON but its cursor (`","kind":…}`), written with the row by ecs_change_entry. */
  entry_json: string;
}

/** Per website: the highest seq of a tombstone purged by retention (older cursors have expired). */
export interface WebsiteFeedTable {
  website_id: string;
  floor_seq: ColumnType<string, string | number, string | number>;
}

/** The SQL routines the migrator applied (src/db/migrator.ts): per function, the text's sha256. */
export interface RoutineRecordTable {
  name: string;
  sha256: string;
  applied_at: TimestampDefault;
}

/** A photo source: one per distinct source URL, and the fetch queue of extension E11 (migration 2026_11_27_0030). */
export interface PhotoSourceTable {
  /** Hex SHA-256 of the URL. */
  source_id: string;
  url: string;
  status: ColumnType<'pending' | 'ready' | 'unavailable', 'pending' | 'ready' | 'unavailable' | undefined, 'pending' | 'ready' | 'unavailable'>;
  reason: string | null;
  /** Hex SHA-256 of the fetched bytes (ready only). */
  content_hash: string | null;
  /** As displayed (EXIF orientation applied). */
  width: number | null;
  height: number | null;
  /** A data URI of at most 1 KB. */
  placeholder: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: TimestampDefault;
  locked_until: Timestamp | null;
  fetched_at: Timestamp | null;
  created_at: TimestampDefault;
}

/**
 * An offer whose photo sources an import left to the fetcher to queue (migration 2026_11_30_0120):
 * expanded into photo_sources, then deleted, by the fetcher of a running instance.
 */
export interface PhotoOfferUnqueuedTable {
  /** bigint identity (read as a string). */
  note_id: ColumnType<string, never, never>;
  offer_id: string;
  noted_at: TimestampDefault;
}

/** One row: the signing secret of variant URLs unless IMAGE_SIGNING_SECRET is set. */
export interface PhotoSettingsTable {
  singleton: ColumnType<boolean, boolean | undefined, never>;
  signing_secret: string;
}

export interface Database {
  organizations: OrganizationTable;
  websites: WebsiteTable;
  api_keys: ApiKeyTable;
  branches: BranchTable;
  agents: AgentTable;
  investments: InvestmentTable;
  offers: OfferTable;
  search_lexemes: SearchLexemeTable;
  offer_prices: OfferPriceTable;
  transparency_datasets: TransparencyDatasetTable;
  content_state: ContentStateTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_deliveries: WebhookDeliveryTable;
  website_changes: WebsiteChangeTable;
  website_feeds: WebsiteFeedTable;
  ecs_routines: RoutineRecordTable;
  photo_sources: PhotoSourceTable;
  photo_settings: PhotoSettingsTable;
  photo_offers_unqueued: PhotoOfferUnqueuedTable;
  slugs: SlugTable;
}

export type OrganizationRow = Selectable<OrganizationTable>;
export type WebsiteRow = Selectable<WebsiteTable>;
export type ApiKeyRow = Selectable<ApiKeyTable>;
export type BranchRow = Selectable<BranchTable>;
export type AgentRow = Selectable<AgentTable>;
export type InvestmentRow = Selectable<InvestmentTable>;
export type OfferRow = Selectable<OfferTable>;
export type NewOffer = Insertable<OfferTable>;
export type OfferUpdate = Updateable<OfferTable>;
