/**
 * A world of offers for search and geography (fixed seed): Polish titles, descriptions and
 * addresses built from a small vocabulary with its inflected forms, in letter case and diacritics
 * of every kind, and coordinates around three cities (some offers without any).
 */
import { AGENTS, BRANCHES, INSTANT_POOL, INVESTMENTS, OTHER_ORG, prng, WORLD_ORG, type WorldOffer } from './offer-world.js';

/** Words with their inflected forms; the property test draws queries from them. */
export const VOCABULARY: readonly (readonly string[])[] = [
  ['mieszkanie', 'mieszkania', 'mieszkaniu', 'mieszkaniami'],
  ['pokój', 'pokoje', 'pokoju', 'pokojowe'],
  ['balkon', 'balkonem', 'balkony'],
  ['ogród', 'ogrodu', 'ogrodem'],
  ['taras', 'tarasem', 'tarasy'],
  ['kuchnia', 'kuchni', 'kuchnie'],
  ['łazienka', 'łazienki', 'łazienką'],
  ['sypialnia', 'sypialnie', 'sypialni'],
  ['dom', 'domu', 'domy'],
  ['kamienica', 'kamienicy', 'kamienicą'],
  ['osiedle', 'osiedlu', 'osiedla'],
  ['nowe', 'nowa', 'nowy'],
  ['słoneczne', 'słoneczny', 'słoneczna'],
  ['zielony', 'zielona', 'zielonym'],
  ['widok', 'widokiem', 'widoku'],
  ['garaż', 'garażem', 'garażu'],
  ['winda', 'windą', 'windy'],
  ['park', 'parku', 'parkiem'],
];

export const PLACES = [
  { city: 'Warszawa', districts: ['Mokotów', 'Żoliborz', 'Wola', 'Śródmieście', 'Wilanów'], lat: 52.2297, lon: 21.0122 },
  { city: 'Kraków', districts: ['Kazimierz', 'Podgórze', 'Stare Miasto'], lat: 50.0647, lon: 19.945 },
  { city: 'Łódź', districts: ['Bałuty', 'Widzew', 'Polesie'], lat: 51.7592, lon: 19.456 },
] as const;
export const STREETS = ['Piotrkowska', 'Puławska', 'Długa', 'Łąkowa', 'Świętojańska'];
export const EXTERNAL_IDS = ['PN-1001', 'crm/77', 'ŁDZ-5', 'WAW-12', 'krk-3'];

export function generateSearchWorld(seed: number, count: number): WorldOffer[] {
  const rand = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const word = () => {
    const forms = pick(VOCABULARY);
    const form = pick(forms);
    const r = rand();
    return r < 0.15 ? form.toUpperCase() : r < 0.3 ? form[0]!.toUpperCase() + form.slice(1) : form;
  };
  const sentence = (words: number) => Array.from({ length: words }, word).join(rand() < 0.5 ? ' ' : ', ');
  const offers: WorldOffer[] = [];
  for (let i = 0; i < count; i++) {
    const place = pick(PLACES);
    const district = pick(place.districts);
    const located = rand() < 0.85;
    const created = pick(INSTANT_POOL);
    offers.push({
      offer_id: `e0000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      organization_id: rand() < 0.93 ? WORLD_ORG : OTHER_ORG,
      is_active: rand() < 0.9,
      external_id: `${pick(EXTERNAL_IDS)}${i % 7}`,
      agent_id: rand() < 0.7 ? pick(AGENTS) : null,
      branch_id: rand() < 0.7 ? pick(BRANCHES) : null,
      investment_id: rand() < 0.5 ? pick(INVESTMENTS) : null,
      version: 1,
      created_at: created,
      updated_at: created,
      data: {
        title: rand() < 0.95 ? `${sentence(2 + Math.floor(rand() * 3))} – ${district}` : null,
        description_clean_text: rand() < 0.9 ? `${sentence(4 + Math.floor(rand() * 8))}.\n${sentence(3)}` : null,
        address_city: rand() < 0.95 ? place.city : null,
        address_district: district,
        address_street: rand() < 0.8 ? `ul. ${pick(STREETS)}` : null,
        price: rand() < 0.9 ? 100_000 + Math.floor(rand() * 40) * 25_000 : null,
        rooms: rand() < 0.9 ? 1 + Math.floor(rand() * 5) : null,
        market_type: rand() < 0.9 ? pick(['PRIMARY', 'SECONDARY']) : null,
        has_balcony: rand() < 0.85 ? rand() < 0.5 : null,
        property_size: rand() < 0.9 ? Math.round((20 + rand() * 100) * 10) / 10 : null,
        location_latitude: located ? Number((place.lat + (rand() - 0.5) * 0.2).toFixed(6)) : null,
        location_longitude: located ? Number((place.lon + (rand() - 0.5) * 0.3).toFixed(6)) : null,
      },
      dataTimes: {},
      price_changed_at: null,
      price_change_pct: null,
    });
  }
  return offers;
}
