/**
 * A generated world for the map and neighbour extensions (E13: similar offers, clusters): a few
 * hundred offers around Kraków and Warsaw with coordinates (some missing, some on the same spot),
 * offer types, investments, branches, prices, rooms and sizes (some null), inactive offers and
 * another organization's; a key that sees everything of the organization and a scoped key. Kept in
 * memory in the form the reference evaluations read. Fixed seed: every run sees the same data.
 */
import type { Kysely } from 'kysely';
import type { Database, WebsiteScope } from '../../src/db/database.js';
import { hashKey } from '../../src/features/access/model.js';
import { insertOffers, type OfferSeed } from './fixtures.js';
import { prng } from './offer-world.js';

export const MAP_ORG = 'eeee0000-0000-4000-8000-000000000001';
export const MAP_OTHER_ORG = 'eeee0000-0000-4000-8000-000000000002';
export const MAP_KEY = 'ecs_mapmapmapmapmapmapmapmapmapmapmapmapmapmap';
export const MAP_SCOPED_KEY = 'ecs_mapscopedmapscopedmapscopedmapscopedmapsc';
export const MAP_INVESTMENTS = ['e1000000-0000-4000-8000-000000000001', 'e1000000-0000-4000-8000-000000000002', 'e1000000-0000-4000-8000-000000000003'];
export const MAP_BRANCHES = ['e3000000-0000-4000-8000-000000000001', 'e3000000-0000-4000-8000-000000000002'];
export const MAP_TYPES = ['APARTMENT_SALES', 'APARTMENT_RENTALS', 'HOUSE_SALES'];
export const MAP_CITIES = ['Kraków', 'Warszawa', 'Wieliczka'];
/** The scoped key's scope: two investments and two types. */
export const MAP_SCOPE: WebsiteScope = { investment_ids: [MAP_INVESTMENTS[0]!, MAP_INVESTMENTS[1]!], offer_types: ['APARTMENT_SALES', 'HOUSE_SALES'] };

export interface MapOffer {
  offer_id: string;
  organization_id: string;
  is_active: boolean;
  investment_id: string | null;
  branch_id: string | null;
  data: {
    offer_type: string | null;
    address_city: string | null;
    price: number | null;
    rooms: number | null;
    property_size: number | null;
    location_latitude: number | null;
    location_longitude: number | null;
    title: string;
  };
}

const SPOTS = [
  [50.0614, 19.9366],
  [50.0647, 19.945],
  [49.9833, 20.05],
  [52.2297, 21.0122],
  [52.23, 21.0],
] as const;

export function generateMapWorld(count = 300, seed = 13): MapOffer[] {
  const rand = prng(seed);
  const pick = <T>(pool: readonly T[]): T => pool[Math.floor(rand() * pool.length)]!;
  const maybe = <T>(value: T, nullShare = 0.12): T | null => (rand() < nullShare ? null : value);
  const offers: MapOffer[] = [];
  for (let i = 0; i < count; i++) {
    const [lat, lon] = pick(SPOTS);
    // A quarter on the exact spot (equal positions), the rest spread up to ~20 km around it.
    const exact = rand() < 0.25;
    const located = rand() < 0.9;
    const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
    offers.push({
      offer_id: `e0${(i * 7919 % 1000).toString().padStart(6, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
      organization_id: rand() < 0.92 ? MAP_ORG : MAP_OTHER_ORG,
      is_active: rand() < 0.88,
      investment_id: maybe(pick(MAP_INVESTMENTS), 0.3),
      branch_id: maybe(pick(MAP_BRANCHES), 0.3),
      data: {
        offer_type: maybe(pick(MAP_TYPES), 0.08),
        address_city: maybe(pick(MAP_CITIES)),
        price: maybe(pick([350000, 420000, 420000, 560000, 780000, 1250000, 2400])),
        rooms: maybe(1 + Math.floor(rand() * 5)),
        property_size: maybe(pick([28, 35.5, 48, 60, 60, 74.2, 120])),
        location_latitude: located ? (exact ? lat : round6(lat + (rand() - 0.5) * 0.3)) : null,
        location_longitude: located ? (exact ? lon : round6(lon + (rand() - 0.5) * 0.4)) : null,
        title: `Oferta ${i}`,
      },
    });
  }
  return offers;
}

export async function insertMapWorld(db: Kysely<Database>, offers: readonly MapOffer[]): Promise<void> {
  await db.insertInto('organizations').values([{ organization_id: MAP_ORG, name: 'Map' }, { organization_id: MAP_OTHER_ORG, name: 'Other map' }]).execute();
  const sites = [
    { website_id: 'eeee0000-0000-4000-8000-0000000000f1', key: MAP_KEY, scope: null },
    { website_id: 'eeee0000-0000-4000-8000-0000000000f3', key: MAP_SCOPED_KEY, scope: MAP_SCOPE },
  ];
  await db
    .insertInto('websites')
    .values(sites.map((s) => ({ website_id: s.website_id, organization_id: MAP_ORG, name: s.key.slice(0, 10), scope: s.scope === null ? null : JSON.stringify(s.scope) })))
    .execute();
  await db
    .insertInto('api_keys')
    .values(sites.map((s, i) => ({ key_id: `eeee0000-0000-4000-8000-0000000000e${i}`, website_id: s.website_id, key_sha256: hashKey(s.key), is_active: true })))
    .execute();
  await db.insertInto('branches').values(MAP_BRANCHES.map((branch_id, i) => ({ branch_id, organization_id: MAP_ORG, webpage_id: branch_id, name: `MB${i}` }))).execute();
  await db
    .insertInto('investments')
    .values(MAP_INVESTMENTS.map((investment_id, i) => ({ investment_id, organization_id: MAP_ORG, name: `MI${i}`, is_active: true })))
    .execute();
  const seeds: OfferSeed[] = offers.map((o, i) => ({
    offer_id: o.offer_id,
    organization_id: o.organization_id,
    external_id: `MAP-${i}`,
    investment_id: o.investment_id,
    branch_id: o.branch_id,
    is_active: o.is_active,
    created_at: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    data: o.data,
  }));
  await insertOffers(db, seeds);
}

/** The rule of a website scope, in plain code: every given list must hold the offer's value. */
export function mapOfferInScope(scope: WebsiteScope | null, offer: MapOffer): boolean {
  if (!scope) return true;
  const holds = (list: readonly string[] | undefined, value: string | null) => list === undefined || (value !== null && list.includes(value));
  return holds(scope.investment_ids, offer.investment_id) && holds(scope.branch_ids, offer.branch_id) && holds(scope.offer_types, offer.data.offer_type);
}

/** The offers a key of the map organization sees (active, in scope). */
export function mapVisible(world: readonly MapOffer[], scope: WebsiteScope | null): MapOffer[] {
  return world.filter((o) => o.organization_id === MAP_ORG && o.is_active && mapOfferInScope(scope, o));
}
