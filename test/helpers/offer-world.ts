/**
 * A generated world of a few hundred offers with varied values, duplicates and nulls (fixed seed,
 * so every run sees the same data), inserted into the test database, and kept in memory in the
 * form the reference evaluator reads.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';
import { hashKey } from '../../src/features/access/model.js';
import { insertOffers, type OfferSeed } from './fixtures.js';

export const WORLD_ORG = 'dddd0000-0000-4000-8000-000000000001';
export const OTHER_ORG = 'dddd0000-0000-4000-8000-000000000002';
export const WORLD_KEY = 'ecs_worldworldworldworldworldworldworldworldw';
export const INVESTMENTS = ['d1000000-0000-4000-8000-000000000001', 'd1000000-0000-4000-8000-000000000002'];
export const AGENTS = ['d2000000-0000-4000-8000-000000000001', 'd2000000-0000-4000-8000-000000000002', 'd2000000-0000-4000-8000-000000000003'];
export const BRANCHES = ['d3000000-0000-4000-8000-000000000001', 'd3000000-0000-4000-8000-000000000002'];

/** One offer as the reference evaluator sees it. */
export interface WorldOffer {
  offer_id: string;
  organization_id: string;
  is_active: boolean;
  external_id: string;
  agent_id: string | null;
  branch_id: string | null;
  investment_id: string | null;
  version: number;
  /** Epoch microseconds. */
  created_at: bigint;
  updated_at: bigint;
  /** offer_data as imported (the generator only uses fields whose stored form equals the input). */
  data: Record<string, unknown>;
  /** Date-time offer_data fields as epoch microseconds. */
  dataTimes: Record<string, bigint | null>;
  /** The latest price change (extension E10): epoch microseconds and percent, or null. */
  price_changed_at: bigint | null;
  price_change_pct: number | null;
}

/** Percent changes the world's offers carry (2 decimals, as the import stores them). */
export const PRICE_CHANGE_POOL = [-25, -12.5, -3.33, -0.01, 0.5, 7.25, 10];

/** Small deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

export const CITY_POOL = ['Kraków', 'kraków', 'KRAKÓW', 'Łódź', 'Gdańsk', 'Warszawa', 'Zakopane', '100% Miasto', 'a_b', 'Ząbki', 'x\\y'];
export const TITLE_POOL = ['Mieszkanie 50%', 'Dom_z_ogrodem', 'APARTAMENT', 'apartament', 'Żoliborz zielony', 'Nowe osiedle', 'Stare Miasto', ''];
export const MARKET_POOL = ['PRIMARY', 'SECONDARY'];
export const OFFER_TYPE_POOL = ['APARTMENT_SALES', 'APARTMENT_RENTALS', 'HOUSE_SALES'];
export const HEATING_POOL = ['MUNICIPAL', 'GAS', 'ELECTRIC'];
export const EXTERNAL_POOL = ['A-1', 'a-1', 'B-2', 'crm-9', 'CRM-10', 'Ż-1', 'ż-2'];
export const PRICE_POOL = [199000, 250000.5, 420000, 420000, 560000, 780000, 999999.99, 1250000, 0.1, 0.30000000000000004];
export const RENT_POOL = [0, 0.3, 120.25, 450.5, 800, 1000.1];

const BASE = Date.UTC(2024, 0, 1) * 1000;
/** A pool of instants (epoch micros), fewer than the offers, so created_at has ties. */
export const INSTANT_POOL: bigint[] = (() => {
  const rand = prng(7);
  return Array.from({ length: 120 }, () => BigInt(BASE + Math.floor(rand() * 700 * 86_400_000_000)));
})();

/** 2025-01-31T09:15:00.123456Z */
export function microsToIso(micros: bigint): string {
  const ms = Number(micros / 1000n);
  const frac = (micros % 1_000_000n).toString().padStart(6, '0');
  return `${new Date(ms).toISOString().slice(0, 19)}.${frac}Z`;
}

/** The same instant written with another offset (+02:00), as a client might send it. */
export function microsToOffset(micros: bigint, offsetMinutes: number): string {
  const shifted = micros + BigInt(offsetMinutes) * 60_000_000n;
  const ms = Number(shifted / 1000n);
  const frac = (shifted % 1_000_000n).toString().padStart(6, '0');
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${new Date(ms).toISOString().slice(0, 19)}.${frac}${zone}`;
}

/** Millisecond instants for available_from_date (stored with milliseconds). */
export const DAY_POOL: bigint[] = Array.from({ length: 12 }, (_, i) => BigInt(Date.UTC(2025, i, 1 + i) * 1000));

export function generateWorld(count = 320, seed = 42): WorldOffer[] {
  const rand = prng(seed);
  const pick = <T>(pool: readonly T[]): T => pool[Math.floor(rand() * pool.length)]!;
  const maybe = <T>(value: T, nullShare = 0.15): T | null => (rand() < nullShare ? null : value);
  const offers: WorldOffer[] = [];
  // The price changes come from a generator of their own, so the rest of the world stays as it was.
  const changes = prng(seed + 1);
  for (let i = 0; i < count; i++) {
    const offer_id = `d0${(i * 7919 % 1000).toString().padStart(6, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
    const created = pick(INSTANT_POOL);
    const updated = rand() < 0.5 ? created : pick(INSTANT_POOL);
    const available = maybe(pick(DAY_POOL), 0.3);
    const posted = maybe(pick(INSTANT_POOL) / 1_000_000n * 1_000_000n, 0.2); // whole seconds
    const photos = rand() < 0.3 ? (rand() < 0.5 ? null : []) : ['https://img.example.com/a.jpg'];
    const data: Record<string, unknown> = {
      price: maybe(pick(PRICE_POOL)),
      price_per_meter: maybe(Math.round(rand() * 20000)),
      rooms: maybe(1 + Math.floor(rand() * 6)),
      year_built: maybe(1950 + Math.floor(rand() * 75), 0.25),
      administrative_rent: maybe(pick(RENT_POOL), 0.3),
      market_type: maybe(pick(MARKET_POOL)),
      offer_type: maybe(pick(OFFER_TYPE_POOL)),
      heating: maybe(pick(HEATING_POOL), 0.3),
      address_city: maybe(pick(CITY_POOL)),
      title: maybe(pick(TITLE_POOL), 0.1),
      has_balcony: maybe(rand() < 0.5),
      has_elevator: maybe(rand() < 0.5, 0.4),
      available_from_date: available === null ? null : microsToIso(available),
      date_posted: posted === null ? null : microsToIso(posted),
      photos_urls: photos,
    };
    offers.push({
      offer_id,
      organization_id: rand() < 0.93 ? WORLD_ORG : OTHER_ORG,
      is_active: rand() < 0.85,
      external_id: pick(EXTERNAL_POOL) + (rand() < 0.5 ? '' : String(i % 5)),
      agent_id: maybe(pick(AGENTS), 0.3),
      branch_id: maybe(pick(BRANCHES), 0.3),
      investment_id: maybe(pick(INVESTMENTS), 0.4),
      version: 1 + Math.floor(rand() * 4),
      created_at: created,
      updated_at: updated,
      data,
      dataTimes: { available_from_date: available, date_posted: posted },
      ...(changes() < 0.5
        ? { price_changed_at: null, price_change_pct: null }
        : {
            price_changed_at: INSTANT_POOL[Math.floor(changes() * INSTANT_POOL.length)]!,
            price_change_pct: PRICE_CHANGE_POOL[Math.floor(changes() * PRICE_CHANGE_POOL.length)]!,
          }),
    });
  }
  return offers;
}

export async function insertWorld(db: Kysely<Database>, offers: readonly WorldOffer[]): Promise<void> {
  await db
    .insertInto('organizations')
    .values([
      { organization_id: WORLD_ORG, name: 'World' },
      { organization_id: OTHER_ORG, name: 'Other' },
    ])
    .execute();
  await db.insertInto('websites').values({ website_id: 'dddd0000-0000-4000-8000-0000000000f1', organization_id: WORLD_ORG, name: 'w' }).execute();
  await db
    .insertInto('api_keys')
    .values({ key_id: 'dddd0000-0000-4000-8000-0000000000f2', website_id: 'dddd0000-0000-4000-8000-0000000000f1', key_sha256: hashKey(WORLD_KEY), is_active: true })
    .execute();
  // Related rows live in the world organization; offers of the other organization point at them too.
  await db.insertInto('branches').values(BRANCHES.map((branch_id, i) => ({ branch_id, organization_id: WORLD_ORG, webpage_id: branch_id, name: `B${i}` }))).execute();
  await db.insertInto('agents').values(AGENTS.map((agent_id, i) => ({ agent_id, organization_id: WORLD_ORG, last_name: `A${i}` }))).execute();
  await db
    .insertInto('investments')
    .values(INVESTMENTS.map((investment_id, i) => ({ investment_id, organization_id: WORLD_ORG, name: `I${i}`, is_active: true })))
    .execute();
  const seeds: OfferSeed[] = offers.map((o) => ({
    offer_id: o.offer_id,
    organization_id: o.organization_id,
    external_id: o.external_id,
    agent_id: o.agent_id,
    branch_id: o.branch_id,
    investment_id: o.investment_id,
    is_active: o.is_active,
    version: o.version,
    created_at: microsToIso(o.created_at),
    updated_at: microsToIso(o.updated_at),
    data: o.data,
  }));
  await insertOffers(db, seeds);
  // What the import keeps beside the price history (extension E10), set as it would have left it.
  for (const o of offers) {
    if (o.price_changed_at === null) continue;
    await db
      .updateTable('offers')
      .set({ price_changed_at: microsToIso(o.price_changed_at), price_change_pct: o.price_change_pct })
      .where('offer_id', '=', o.offer_id)
      .execute();
  }
}
