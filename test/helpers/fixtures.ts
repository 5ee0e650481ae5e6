/**
 * A small, hand-made data set for the HTTP tests, inserted with Kysely directly (independent of the
 * import pipeline): two organizations, three websites (two on A, one on B), API keys in every
 * state, branches, agents, investments (active and inactive) and offers (active and inactive, with
 * and without links, some with nulls). Raw keys and ids are exported for the tests.
 */
import { sql, type Kysely } from 'kysely';
import type { Database, LocationData, OpenTime } from '../../src/db/database.js';
import { hashKey } from '../../src/features/access/model.js';
import { normalizeOfferData, renderOfferDataJson } from '../../src/features/offers/offer-data.js';
import { offerSearchWords, searchVector as vectorOf, type SearchVector } from '../../src/features/offers/query/search-text.js';
import { addSearchLexemes } from '../../src/features/offers/write.js';
import { makeMissingSlugs } from '../../src/features/seo/write.js';

/** A deterministic UUID from a small number and a tag letter (readable in failures). */
export const uid = (tag: string, n: number): string =>
  `${tag.padEnd(8, '0').slice(0, 8)}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

export const ORG_A = uid('aaaa', 1);
export const ORG_B = uid('bbbb', 1);

export const WEBSITE_A1 = uid('0e5a', 1);
/** Website A1's URL templates (E12). */
export const WEBSITE_A1_URLS = { offer: 'https://wawel.example.com/oferta/{slug}', investment: 'https://wawel.example.com/inwestycja/{slug}' };
export const WEBSITE_A2 = uid('0e5a', 2);
export const WEBSITE_B1 = uid('0e5b', 1);

/** Raw keys as a client sends them (ecs_ + 43 base64url characters). */
export const KEYS = {
  activeA1: 'ecs_activeA1activeA1activeA1activeA1activeA1aa',
  activeA2: 'ecs_activeA2activeA2activeA2activeA2activeA2aa',
  activeB: 'ecs_activeBBactiveBBactiveBBactiveBBactiveBBaa',
  inactiveA1: 'ecs_inactiveinactiveinactiveinactiveinactivea',
  expiredA1: 'ecs_expiredAexpiredAexpiredAexpiredAexpiredAa',
  /** Expires in the future: still active. */
  expiresLaterA1: 'ecs_laterAAAlaterAAAlaterAAAlaterAAAlaterAAAaa',
  unknown: 'ecs_unknownXunknownXunknownXunknownXunknownXu',
} as const;

export const KEY_IDS = {
  activeA1: uid('4e41', 1),
  activeA2: uid('4e41', 2),
  activeB: uid('4e42', 1),
  inactiveA1: uid('4e41', 3),
  expiredA1: uid('4e41', 4),
  expiresLaterA1: uid('4e41', 5),
} as const;

export const BRANCH = {
  krakow: uid('b0a0', 1),
  warszawa: uid('b0a0', 2),
  lodz: uid('b0a0', 3),
  empty: uid('b0a0', 4),
  other: uid('b0b0', 1),
} as const;

export const AGENT = {
  nowak: uid('a6a0', 1),
  kowalskaAnna: uid('a6a0', 2),
  kowalskaBeata: uid('a6a0', 3),
  noBranch: uid('a6a0', 4),
  other: uid('a6b0', 1),
} as const;

export const INVESTMENT = {
  zielone: uid('1a00', 1),
  wisla: uid('1a00', 2),
  empty: uid('1a00', 3),
  other: uid('1b00', 1),
} as const;

export const OFFER = {
  krakowFull: uid('0ffa', 1),
  krakowCheap: uid('0ffa', 2),
  warszawa: uid('0ffa', 3),
  nulls: uid('0ffa', 4),
  inactiveInvestment: uid('0ffa', 5),
  gdansk: uid('0ffa', 6),
  inactive: uid('0ffa', 7),
  otherOrg: uid('0ffb', 1),
  otherOrgInactive: uid('0ffb', 2),
} as const;

const KRAKOW_LOCATION: LocationData = {
  address_city: 'Kraków',
  address_community: 'Kraków',
  address_country: 'Polska',
  address_county: 'Kraków',
  address_district: 'Stare Miasto',
  address_subdistrict: null,
  address_state: 'małopolskie',
  address_street: 'Rynek Główny',
  address_street_number: '1',
  address_flat_number: null,
  address_zip_code: '31-042',
  community_type: 'urban',
  location_latitude: 50.0614,
  location_longitude: 19.9366,
  location_approximation: null,
};

const WEEKDAY_HOURS: OpenTime = {
  monday: [{ from_time: '09:00', to_time: '17:00' }],
  tuesday: [{ from_time: '09:00', to_time: '17:00' }],
  wednesday: [{ from_time: '09:00', to_time: '12:00' }, { from_time: '13:00', to_time: '17:00' }],
  thursday: [{ from_time: '09:00', to_time: '17:00' }],
  friday: [{ from_time: '09:00', to_time: '15:00' }],
  saturday: [],
  sunday: [],
};

/** offer_data as an import would give it (before normalization). */
export function offerDataInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    price: 650000,
    price_currency: 'PLN',
    price_per_meter: 13000,
    property_size: 50,
    administrative_rent: 450.5,
    rooms: 2,
    market_type: 'PRIMARY',
    building_type: 'APARTMENT_COMPLEX',
    kitchen_type: 'KITCHENETTE',
    year_built: 2024,
    floor_no_lower_bound: 3,
    total_levels_in_building_lower_bound: 6,
    levels: 1,
    bathroom_count: 1,
    ownership_type: 'OWNERSHIP',
    has_land_and_mortgage_register: true,
    heating: 'MUNICIPAL',
    has_balcony: true,
    has_elevator: true,
    available_from_date: '2025-03-01T00:00:00Z',
    address_country: 'Polska',
    address_city: 'Kraków',
    address_district: 'Podgórze',
    address_street: 'Kalwaryjska',
    address_postcode: '30-504',
    community_type: 'urban',
    location_latitude: 50.04,
    location_longitude: 19.95,
    title: 'Dwupokojowe mieszkanie z balkonem',
    description: '<p>Jasne mieszkanie &amp; balkon.</p><p>Blisko tramwaju.</p>',
    offer_type: 'APARTMENT_SALES',
    property_condition: 'DEVELOPER_STATE',
    photos_urls: ['https://img.example.com/1.jpg', 'https://img.example.com/2.jpg'],
    floor_plan_urls: [],
    date_modified: '2025-01-31T10:15:00+01:00',
    date_posted: '2025-01-20T08:00:00Z',
    ...overrides,
  };
}

export interface OfferSeed {
  offer_id: string;
  organization_id: string;
  external_id: string;
  agent_id?: string | null;
  branch_id?: string | null;
  investment_id?: string | null;
  is_active?: boolean;
  version?: number;
  created_at: string;
  updated_at?: string;
  data: Record<string, unknown>;
}

/** The offer's search vector as the import writes it. */
const searchVector = (vector: SearchVector) => sql<string>`${vector}::tsvector`;

/** Inserts the offers, and their words into the search vocabulary as the import adds them. */
export async function insertOffers(db: Kysely<Database>, seeds: readonly OfferSeed[]): Promise<void> {
  for (let i = 0; i < seeds.length; i += 200) {
    const vocabulary: string[] = [];
    const rows = seeds.slice(i, i + 200).map((seed) => {
      const data = normalizeOfferData(seed.data, { offer_id: seed.offer_id, external_id: seed.external_id });
      const vector = vectorOf(offerSearchWords(data, seed.external_id));
      vocabulary.push(...vector.lexemes);
      return {
        offer_id: seed.offer_id,
        organization_id: seed.organization_id,
        external_id: seed.external_id,
        agent_id: seed.agent_id ?? null,
        branch_id: seed.branch_id ?? null,
        investment_id: seed.investment_id ?? null,
        is_active: seed.is_active ?? true,
        version: seed.version ?? 1,
        created_at: seed.created_at,
        updated_at: seed.updated_at ?? seed.created_at,
        offer_data: JSON.stringify(data),
        offer_data_json: renderOfferDataJson(data),
        search_vector: searchVector(vector),
      };
    });
    await db.insertInto('offers').values(rows).execute();
    if (vocabulary.length > 0) await addSearchLexemes(db, vocabulary);
  }
}

export const OFFER_SEEDS: readonly OfferSeed[] = [
  {
    offer_id: OFFER.krakowFull,
    organization_id: ORG_A,
    external_id: 'CRM-1001',
    agent_id: AGENT.nowak,
    branch_id: BRANCH.krakow,
    investment_id: INVESTMENT.zielone,
    version: 3,
    created_at: '2025-01-10T09:00:00.123456Z',
    updated_at: '2025-01-31T09:15:00Z',
    data: offerDataInput({ price: 780000, rooms: 3, property_size: 60, price_per_meter: 13000 }),
  },
  {
    offer_id: OFFER.krakowCheap,
    organization_id: ORG_A,
    external_id: 'CRM-1002',
    agent_id: AGENT.kowalskaAnna,
    branch_id: BRANCH.krakow,
    investment_id: INVESTMENT.zielone,
    created_at: '2025-01-12T09:00:00Z',
    data: offerDataInput({ price: 420000, rooms: 2, title: 'Kawalerka 100% okazja_super', has_balcony: false }),
  },
  {
    offer_id: OFFER.warszawa,
    organization_id: ORG_A,
    external_id: 'CRM-1003',
    agent_id: AGENT.noBranch,
    branch_id: BRANCH.warszawa,
    created_at: '2025-01-14T09:00:00Z',
    data: offerDataInput({
      price: 1250000,
      rooms: 4,
      address_city: 'Warszawa',
      address_district: 'Mokotów',
      market_type: 'SECONDARY',
      offer_type: 'APARTMENT_SALES',
      available_from_date: '2025-06-01T00:00:00Z',
    }),
  },
  {
    // Mostly empty: nulls everywhere an import may leave them.
    offer_id: OFFER.nulls,
    organization_id: ORG_A,
    external_id: 'CRM-1004',
    created_at: '2025-01-16T09:00:00Z',
    data: { title: 'Oferta bez szczegółów', photos_urls: [], offer_type: 'HOUSE_SALES' },
  },
  {
    offer_id: OFFER.inactiveInvestment,
    organization_id: ORG_A,
    external_id: 'CRM-1005',
    investment_id: INVESTMENT.wisla,
    agent_id: AGENT.other, // another organization's agent: never included
    created_at: '2025-01-18T09:00:00Z',
    data: offerDataInput({ price: 990000, rooms: 3, address_city: 'Kraków', has_balcony: true }),
  },
  {
    offer_id: OFFER.gdansk,
    organization_id: ORG_A,
    external_id: 'crm-1006',
    created_at: '2025-01-20T09:00:00Z',
    data: offerDataInput({ price: 560000, rooms: 2, address_city: 'Gdańsk', market_type: 'SECONDARY', offer_type: 'APARTMENT_RENTALS' }),
  },
  {
    offer_id: OFFER.inactive,
    organization_id: ORG_A,
    external_id: 'CRM-1007',
    is_active: false,
    investment_id: INVESTMENT.zielone,
    created_at: '2025-01-22T09:00:00Z',
    data: offerDataInput({ price: 300000 }),
  },
  {
    offer_id: OFFER.otherOrg,
    organization_id: ORG_B,
    external_id: 'B-1',
    agent_id: AGENT.other,
    branch_id: BRANCH.other,
    investment_id: INVESTMENT.other,
    created_at: '2025-01-11T09:00:00Z',
    data: offerDataInput({ price: 500000, address_city: 'Poznań' }),
  },
  {
    offer_id: OFFER.otherOrgInactive,
    organization_id: ORG_B,
    external_id: 'B-2',
    is_active: false,
    created_at: '2025-01-13T09:00:00Z',
    data: offerDataInput({ price: 510000 }),
  },
];

/** Active offers of organization A, newest first (the default order). */
export const ACTIVE_A_NEWEST_FIRST = [
  OFFER.gdansk,
  OFFER.inactiveInvestment,
  OFFER.nulls,
  OFFER.warszawa,
  OFFER.krakowCheap,
  OFFER.krakowFull,
];

export async function insertFixture(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto('organizations')
    .values([
      {
        organization_id: ORG_A,
        name: 'Nieruchomości Wawel',
        legal_name: 'Nieruchomości Wawel sp. z o.o.',
        nip: '6762468390',
        logo_url: 'https://cdn.example.com/wawel/logo.png',
        address: 'Rynek Główny 1, 31-042 Kraków',
        website: 'https://wawel-nieruchomosci.example.com',
        phone_number: '+48 12 345 67 89',
        description: 'Biuro nieruchomości w Krakowie.',
        cover_image_url: 'https://cdn.example.com/wawel/cover.jpg',
        location: JSON.stringify(KRAKOW_LOCATION),
        social_media_links: JSON.stringify(['https://facebook.com/wawel', 'https://instagram.com/wawel']),
        contact_email: 'biuro@wawel.example.com',
      },
      { organization_id: ORG_B, name: 'Poznań Homes' },
    ])
    .execute();

  await db
    .insertInto('websites')
    .values([
      { website_id: WEBSITE_A1, organization_id: ORG_A, name: 'wawel.example.com' },
      { website_id: WEBSITE_A2, organization_id: ORG_A, name: 'wawel-inwestycje.example.com' },
      { website_id: WEBSITE_B1, organization_id: ORG_B, name: 'poznan-homes.example.com' },
    ])
    .execute();

  const key = (key_id: string, website_id: string, raw: string, extra: { is_active?: boolean; expires_at?: string } = {}) => ({
    key_id,
    website_id,
    key_sha256: hashKey(raw),
    key_prefix: raw.slice(0, 12),
    label: null,
    is_active: extra.is_active ?? true,
    expires_at: extra.expires_at ?? null,
  });
  await db
    .insertInto('api_keys')
    .values([
      key(KEY_IDS.activeA1, WEBSITE_A1, KEYS.activeA1),
      key(KEY_IDS.activeA2, WEBSITE_A2, KEYS.activeA2),
      key(KEY_IDS.activeB, WEBSITE_B1, KEYS.activeB),
      key(KEY_IDS.inactiveA1, WEBSITE_A1, KEYS.inactiveA1, { is_active: false }),
      key(KEY_IDS.expiredA1, WEBSITE_A1, KEYS.expiredA1, { expires_at: '2024-01-01T00:00:00Z' }),
      key(KEY_IDS.expiresLaterA1, WEBSITE_A1, KEYS.expiresLaterA1, { expires_at: '2999-01-01T00:00:00Z' }),
    ])
    .execute();

  await db
    .insertInto('branches')
    .values([
      {
        branch_id: BRANCH.krakow,
        organization_id: ORG_A,
        webpage_id: uid('0eb0', 1),
        name: 'Kraków Centrum',
        description: 'Oddział w centrum Krakowa.',
        address: 'Rynek Główny 1, Kraków',
        cover_image_url: 'https://cdn.example.com/wawel/krakow.jpg',
        logo_url: null,
        email: 'krakow@wawel.example.com',
        phone_number: '+48 12 000 00 01',
        open_time: JSON.stringify(WEEKDAY_HOURS),
        location: JSON.stringify(KRAKOW_LOCATION),
      },
      { branch_id: BRANCH.warszawa, organization_id: ORG_A, webpage_id: uid('0eb0', 2), name: 'Warszawa Mokotów' },
      // 'Ł' sorts after 'W' in byte order (the order the indexes use).
      { branch_id: BRANCH.lodz, organization_id: ORG_A, webpage_id: uid('0eb0', 3), name: 'Łódź Bałuty' },
      { branch_id: BRANCH.empty, organization_id: ORG_A, webpage_id: uid('0eb0', 4), name: 'Kraków Centrum' },
      { branch_id: BRANCH.other, organization_id: ORG_B, webpage_id: uid('0eb0', 5), name: 'Poznań Stary Rynek' },
    ])
    .execute();

  await db
    .insertInto('agents')
    .values([
      {
        agent_id: AGENT.nowak,
        organization_id: ORG_A,
        webpage_id: uid('0ea0', 1),
        branch_id: BRANCH.krakow,
        email: 'jan.nowak@wawel.example.com',
        phone_number: '+48 600 000 001',
        first_name: 'Jan',
        last_name: 'Nowak',
        avatar_url: 'https://cdn.example.com/agents/nowak-avatar.jpg',
        job_title: 'Doradca',
        description: 'Specjalista od rynku pierwotnego.',
        cover_image_url: null,
        profile_image_url: 'https://cdn.example.com/agents/nowak.jpg',
      },
      { agent_id: AGENT.kowalskaBeata, organization_id: ORG_A, branch_id: BRANCH.krakow, first_name: 'Beata', last_name: 'Kowalska' },
      { agent_id: AGENT.kowalskaAnna, organization_id: ORG_A, branch_id: BRANCH.krakow, first_name: 'Anna', last_name: 'Kowalska' },
      { agent_id: AGENT.noBranch, organization_id: ORG_A, branch_id: null, first_name: 'Piotr', last_name: 'Zieliński' },
      { agent_id: AGENT.other, organization_id: ORG_B, branch_id: BRANCH.other, first_name: 'Adam', last_name: 'Adamski' },
    ])
    .execute();

  await db
    .insertInto('investments')
    .values([
      {
        investment_id: INVESTMENT.zielone,
        organization_id: ORG_A,
        webpage_id: uid('0ec0', 1),
        name: 'Osiedle Zielone',
        description: 'Nowe osiedle na Podgórzu.',
        is_active: true,
      },
      { investment_id: INVESTMENT.wisla, organization_id: ORG_A, name: 'Apartamenty Nad Wisłą', is_active: false },
      { investment_id: INVESTMENT.empty, organization_id: ORG_A, name: 'Zacisze', is_active: true },
      { investment_id: INVESTMENT.other, organization_id: ORG_B, name: 'Poznań Park', is_active: true },
    ])
    .execute();

  await insertOffers(db, OFFER_SEEDS);
  // As an import would: every offer and investment gets its slug (E12), once the schema has them.
  const slugs = await sql<{ t: string | null }>`select to_regclass('slugs')::text as t`.execute(db);
  if (slugs.rows[0]!.t !== null) await makeMissingSlugs(db, [ORG_A, ORG_B]);
  // Website A1's sitemap (E12) has addresses to make, once the schema has URL templates.
  const urls = await sql<{ n: number }>`select count(*)::int as n from information_schema.columns where table_name = 'websites' and column_name = 'urls'`.execute(db);
  if (urls.rows[0]!.n > 0) {
    await sql`update websites set urls = ${JSON.stringify(WEBSITE_A1_URLS)}::jsonb where website_id = ${WEBSITE_A1}`.execute(db);
  }
}
