/**
 * The initial schema. Frozen: later changes go into new migration files, never here.
 * One statement per query (PGlite's extended protocol takes one at a time); plain SQL that runs unchanged on PostgreSQL 15+ and on PGlite.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `CREATE TABLE organizations (
    organization_id uuid PRIMARY KEY,
    name text NOT NULL,
    legal_name text,
    nip text,
    logo_url text,
    address text,
    website text,
    phone_number text,
    description text,
    cover_image_url text,
    location jsonb,
    social_media_links jsonb,
    contact_email text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE websites (
    website_id uuid PRIMARY KEY,
    organization_id uuid NOT NULL, -- no foreign key: a missing organization answers 404, see CONTRACT 7
    name text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX websites_organization_idx ON websites (organization_id)`,
  `CREATE TABLE api_keys (
    key_id uuid PRIMARY KEY,
    website_id uuid NOT NULL REFERENCES websites (website_id),
    key_sha256 text NOT NULL UNIQUE CHECK (key_sha256 ~ '^[0-9a-f]{64}$'),
    key_prefix text,
    label text,
    is_active boolean NOT NULL DEFAULT true,
    expires_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz
  )`,
  `CREATE INDEX api_keys_website_idx ON api_keys (website_id)`,
  `CREATE TABLE branches (
    branch_id uuid PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations (organization_id),
    webpage_id uuid NOT NULL,
    name text NOT NULL,
    description text,
    address text,
    cover_image_url text,
    logo_url text,
    email text,
    phone_number text,
    open_time jsonb,
    location jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX branches_organization_name_idx ON branches (organization_id, name COLLATE "C", branch_id)`,
  `CREATE TABLE agents (
    agent_id uuid PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations (organization_id),
    webpage_id uuid,
    branch_id uuid REFERENCES branches (branch_id),
    email text,
    phone_number text,
    first_name text,
    last_name text,
    avatar_url text,
    job_title text,
    description text,
    cover_image_url text,
    profile_image_url text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX agents_organization_name_idx
    ON agents (organization_id, last_name COLLATE "C", first_name COLLATE "C", agent_id)`,
  `CREATE INDEX agents_branch_idx ON agents (branch_id)`,
  `CREATE TABLE investments (
    investment_id uuid PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations (organization_id),
    webpage_id uuid,
    name text NOT NULL,
    description text,
    is_active boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX investments_organization_name_idx ON investments (organization_id, name COLLATE "C", investment_id)`,
  `CREATE TABLE offers (
    offer_id uuid PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations (organization_id),
    external_id text NOT NULL,
    agent_id uuid REFERENCES agents (agent_id),
    branch_id uuid REFERENCES branches (branch_id),
    investment_id uuid REFERENCES investments (investment_id),
    is_active boolean NOT NULL DEFAULT true,
    version integer NOT NULL DEFAULT 1,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    offer_data jsonb NOT NULL,
    offer_data_json text NOT NULL,
    price double precision GENERATED ALWAYS AS ((offer_data ->> 'price')::double precision) STORED,
    price_per_meter double precision GENERATED ALWAYS AS ((offer_data ->> 'price_per_meter')::double precision) STORED,
    property_size double precision GENERATED ALWAYS AS ((offer_data ->> 'property_size')::double precision) STORED,
    rooms integer GENERATED ALWAYS AS ((offer_data ->> 'rooms')::integer) STORED,
    offer_type text GENERATED ALWAYS AS (offer_data ->> 'offer_type') STORED,
    market_type text GENERATED ALWAYS AS (offer_data ->> 'market_type') STORED,
    address_city text GENERATED ALWAYS AS (offer_data ->> 'address_city') STORED,
    address_district text GENERATED ALWAYS AS (offer_data ->> 'address_district') STORED
  )`,
  `-- Indexes for the read API: every list is "active offers of one organization", ordered by
  -- created_at by default or by a common offer_data field, with offer_id breaking ties.
  CREATE INDEX offers_org_created_idx ON offers (organization_id, created_at DESC, offer_id) WHERE is_active`,
  `CREATE INDEX offers_org_price_idx ON offers (organization_id, price, offer_id) WHERE is_active`,
  `CREATE INDEX offers_org_price_desc_idx ON offers (organization_id, price DESC NULLS LAST, offer_id) WHERE is_active`,
  `CREATE INDEX offers_org_price_per_meter_idx ON offers (organization_id, price_per_meter, offer_id) WHERE is_active`,
  `CREATE INDEX offers_org_property_size_idx ON offers (organization_id, property_size, offer_id) WHERE is_active`,
  `CREATE INDEX offers_org_rooms_idx ON offers (organization_id, rooms, offer_id) WHERE is_active`,
  `CREATE INDEX offers_org_offer_type_idx ON offers (organization_id, offer_type) WHERE is_active`,
  `CREATE INDEX offers_org_market_type_idx ON offers (organization_id, market_type) WHERE is_active`,
  `CREATE INDEX offers_org_city_idx ON offers (organization_id, address_city, price) WHERE is_active`,
  `CREATE INDEX offers_org_district_idx ON offers (organization_id, address_district) WHERE is_active`,
  `CREATE INDEX offers_investment_idx ON offers (investment_id, created_at DESC, offer_id) WHERE is_active`,
  `CREATE INDEX offers_org_external_idx ON offers (organization_id, external_id)`,
  `CREATE INDEX offers_agent_idx ON offers (agent_id)`,
  `CREATE INDEX offers_branch_idx ON offers (branch_id)`,
  `CREATE TABLE content_state (
    id integer PRIMARY KEY CHECK (id = 1),
    content_version bigint NOT NULL,
    changed_at timestamptz NOT NULL DEFAULT now()
  )`,
  `INSERT INTO content_state (id, content_version) VALUES (1, 1)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['content_state', 'offers', 'investments', 'agents', 'branches', 'api_keys', 'websites', 'organizations']) {
    await sql.raw(`DROP TABLE ${table}`).execute(db);
  }
}
