/**
 * A deterministic, realistic catalog in the import bundle format (CONTRACT section 8, NDJSON: one
 * record a line with "type"): 10 organizations, each with one website and a known API key,
 * branches, agents, investments, and offers whose offer_data carries every field of the interface
 * (HTML descriptions of 1-2 KB, 5-15 photos, Polish cities, prices in PLN; about 6.5 KB each).
 *
 * The same options always give the same bytes, so runs on different machines load the same data.
 * Records are written as they are made, so memory stays small whatever the size; the returned
 * manifest holds only what the benchmark needs to address the data (keys and ids).
 *
 *   npx tsx bench/catalog.ts --offers 100000 --out catalog.ndjson
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface CatalogOptions {
  /** Total number of offers, spread evenly over the organizations. */
  readonly offers: number;
  readonly outFile: string;
  readonly organizations?: number;
  readonly seed?: number;
}

export interface OrganizationManifest {
  readonly organization_id: string;
  readonly website_id: string;
  /** The website's API key in plain text (a throwaway benchmark database only). */
  readonly key: string;
  readonly name: string;
  readonly homeCity: string;
  readonly branchIds: readonly string[];
  readonly investmentIds: readonly string[];
  /** Ids of the organization's active offers, in generation order. */
  readonly activeOfferIds: readonly string[];
}

export interface CatalogManifest {
  readonly organizations: readonly OrganizationManifest[];
  readonly offers: number;
  readonly activeOffers: number;
  readonly records: number;
  readonly bytes: number;
  /** Average size of one offer record line, in bytes. */
  readonly averageOfferBytes: number;
  readonly cities: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

/** mulberry32: small, fast and good enough for test data; never for anything secret. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chance = (p: number): boolean => next() < p;
  const hex = (length: number): string => {
    let out = '';
    while (out.length < length) out += Math.floor(next() * 0x100000000).toString(16).padStart(8, '0');
    return out.slice(0, length);
  };
  /** A version-4-shaped UUID drawn from the stream. */
  const uuid = (): string => {
    const h = hex(32);
    const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
  const bytes = (length: number): Buffer => {
    const out = Buffer.alloc(length);
    for (let i = 0; i < length; i++) out[i] = Math.floor(next() * 256);
    return out;
  };
  return { next, int, pick, chance, hex, uuid, bytes };
}

export type Random = ReturnType<typeof createRandom>;

// ---------------------------------------------------------------------------------------------
// Reference data

export interface City {
  readonly name: string;
  readonly state: string;
  readonly county: string;
  readonly districts: readonly string[];
  readonly postcodePrefixes: readonly string[];
  readonly latitude: number;
  readonly longitude: number;
  /** Typical asking price per square metre, PLN. */
  readonly pricePerMeter: number;
  /** Share of the organizations' "away" offers that fall in this city. */
  readonly weight: number;
}

export const CITIES: readonly City[] = [
  { name: 'Warszawa', state: 'mazowieckie', county: 'Warszawa', districts: ['Mokotów', 'Śródmieście', 'Wola', 'Praga-Południe', 'Ursynów', 'Bielany', 'Wilanów', 'Bemowo', 'Targówek', 'Białołęka'], postcodePrefixes: ['00', '01', '02', '03', '04'], latitude: 52.2297, longitude: 21.0122, pricePerMeter: 17000, weight: 5 },
  { name: 'Kraków', state: 'małopolskie', county: 'Kraków', districts: ['Stare Miasto', 'Krowodrza', 'Podgórze', 'Nowa Huta', 'Dębniki', 'Bronowice', 'Prądnik Biały', 'Zwierzyniec'], postcodePrefixes: ['30', '31'], latitude: 50.0647, longitude: 19.945, pricePerMeter: 16000, weight: 4 },
  { name: 'Wrocław', state: 'dolnośląskie', county: 'Wrocław', districts: ['Stare Miasto', 'Krzyki', 'Fabryczna', 'Psie Pole', 'Śródmieście'], postcodePrefixes: ['50', '51', '53', '54'], latitude: 51.1079, longitude: 17.0385, pricePerMeter: 13500, weight: 3 },
  { name: 'Gdańsk', state: 'pomorskie', county: 'Gdańsk', districts: ['Wrzeszcz', 'Oliwa', 'Przymorze', 'Śródmieście', 'Jasień', 'Zaspa'], postcodePrefixes: ['80'], latitude: 54.352, longitude: 18.6466, pricePerMeter: 14500, weight: 3 },
  { name: 'Poznań', state: 'wielkopolskie', county: 'Poznań', districts: ['Jeżyce', 'Grunwald', 'Wilda', 'Stare Miasto', 'Nowe Miasto', 'Łazarz'], postcodePrefixes: ['60', '61'], latitude: 52.4064, longitude: 16.9252, pricePerMeter: 11000, weight: 2 },
  { name: 'Łódź', state: 'łódzkie', county: 'Łódź', districts: ['Bałuty', 'Górna', 'Polesie', 'Śródmieście', 'Widzew'], postcodePrefixes: ['90', '91', '92', '93'], latitude: 51.7592, longitude: 19.456, pricePerMeter: 8500, weight: 2 },
  { name: 'Katowice', state: 'śląskie', county: 'Katowice', districts: ['Śródmieście', 'Ligota', 'Brynów', 'Koszutka', 'Załęże'], postcodePrefixes: ['40'], latitude: 50.2649, longitude: 19.0238, pricePerMeter: 8500, weight: 2 },
  { name: 'Lublin', state: 'lubelskie', county: 'Lublin', districts: ['Śródmieście', 'Czechów', 'Wieniawa', 'Czuby', 'Kalinowszczyzna'], postcodePrefixes: ['20'], latitude: 51.2465, longitude: 22.5684, pricePerMeter: 9500, weight: 1 },
  { name: 'Szczecin', state: 'zachodniopomorskie', county: 'Szczecin', districts: ['Centrum', 'Pogodno', 'Gumieńce', 'Niebuszewo', 'Warszewo'], postcodePrefixes: ['70', '71'], latitude: 53.4285, longitude: 14.5528, pricePerMeter: 8000, weight: 1 },
  { name: 'Bydgoszcz', state: 'kujawsko-pomorskie', county: 'Bydgoszcz', districts: ['Śródmieście', 'Fordon', 'Bartodzieje', 'Bielawy', 'Szwederowo'], postcodePrefixes: ['85'], latitude: 53.1235, longitude: 18.0084, pricePerMeter: 7500, weight: 1 },
];

const ORGANIZATION_NAMES: readonly [string, string][] = [
  ['Stolica Nieruchomości', 'Stolica Nieruchomości sp. z o.o.'],
  ['Wawel Home', 'Wawel Home S.A.'],
  ['Odra Estate', 'Odra Estate sp. z o.o.'],
  ['Bałtyk Apartamenty', 'Bałtyk Apartamenty sp. z o.o. sp.k.'],
  ['Warta Domy', 'Warta Domy sp. z o.o.'],
  ['Fabryczna Lofty', 'Fabryczna Lofty sp. z o.o.'],
  ['Śląskie Mieszkania', 'Śląskie Mieszkania S.A.'],
  ['Lubelskie Biuro Nieruchomości', 'Lubelskie Biuro Nieruchomości s.c.'],
  ['Pomorze Zachodnie Invest', 'Pomorze Zachodnie Invest sp. z o.o.'],
  ['Brda Nieruchomości', 'Brda Nieruchomości sp. z o.o.'],
];

const STREETS = ['Długa', 'Polna', 'Leśna', 'Słoneczna', 'Kwiatowa', 'Ogrodowa', 'Lipowa', 'Mickiewicza', 'Kościuszki', 'Sienkiewicza', 'Słowackiego', 'Piłsudskiego', 'Jana Pawła II', '3 Maja', 'Wojska Polskiego', 'Kopernika', 'Reymonta', 'Żeromskiego', 'Chopina', 'Grunwaldzka', 'Marszałkowska', 'Kolejowa', 'Szkolna', 'Parkowa', 'Zielona'];
const FIRST_NAMES = ['Anna', 'Katarzyna', 'Magdalena', 'Agnieszka', 'Joanna', 'Monika', 'Ewa', 'Małgorzata', 'Piotr', 'Krzysztof', 'Tomasz', 'Paweł', 'Michał', 'Marcin', 'Jakub', 'Łukasz', 'Grzegorz', 'Marta', 'Zofia', 'Wojciech'];
const LAST_NAMES = ['Nowak', 'Kowalski', 'Wiśniewski', 'Wójcik', 'Kowalczyk', 'Kamiński', 'Lewandowski', 'Zieliński', 'Szymański', 'Woźniak', 'Dąbrowski', 'Kozłowski', 'Jankowski', 'Mazur', 'Kwiatkowski', 'Krawczyk', 'Piotrowski', 'Grabowski', 'Nowakowski', 'Pawłowski'];
const JOB_TITLES = ['Agent nieruchomości', 'Starszy doradca', 'Pośrednik licencjonowany', 'Kierownik oddziału', 'Doradca ds. rynku pierwotnego', 'Specjalista ds. najmu'];
const INVESTMENT_WORDS = ['Osiedle', 'Apartamenty', 'Rezydencja', 'Ogrody', 'Zielone Tarasy', 'Nowe', 'Park', 'Przystań', 'Panorama', 'Kamienica'];
const INVESTMENT_NAMES = ['Słoneczne', 'nad Wisłą', 'Leśna Polana', 'Centrum', 'Bursztynowe', 'Królewskie', 'Miejskie', 'Lipowe', 'Klonowe', 'Modrzewiowe', 'Pod Dębami', 'Akacjowe', 'Portowe', 'Wzgórza', 'Jeziorne'];

const OPENING: readonly string[] = [
  'Przedstawiamy na sprzedaż wyjątkowe mieszkanie w doskonałej lokalizacji, w pobliżu pełnej infrastruktury miejskiej.',
  'Oferujemy do sprzedaży przestronny lokal w spokojnej i zielonej okolicy, idealny dla rodziny z dziećmi.',
  'Na sprzedaż jasne, funkcjonalne mieszkanie w nowoczesnym budynku z windą i monitoringiem.',
  'Zapraszamy do zapoznania się z ofertą komfortowego mieszkania w kameralnej inwestycji.',
  'Polecamy wygodne mieszkanie z dobrym rozkładem pomieszczeń i widokiem na park.',
];
const BODY: readonly string[] = [
  'Mieszkanie składa się z salonu z aneksem kuchennym, sypialni, łazienki z oknem oraz przedpokoju z miejscem na zabudowę.',
  'Wszystkie pokoje są ustawne i dobrze doświetlone, a okna wychodzą na dwie strony świata.',
  'Budynek został oddany do użytkowania niedawno, posiada cichobieżną windę, rowerownię oraz komórki lokatorskie.',
  'W okolicy znajdują się szkoły, przedszkola, sklepy, punkty usługowe oraz przystanki komunikacji miejskiej.',
  'Do dyspozycji mieszkańców jest zamknięte osiedle z placem zabaw, terenami zielonymi i całodobową ochroną.',
  'Mieszkanie jest gotowe do zamieszkania; wykończone materiałami dobrej jakości, z drewnianą podłogą w pokojach.',
  'Koszty utrzymania są niskie dzięki dobrej izolacji budynku i energooszczędnym oknom trzyszybowym.',
  'Istnieje możliwość dokupienia miejsca postojowego w hali garażowej oraz komórki lokatorskiej.',
  'Doskonały dojazd do centrum miasta &ndash; zarówno samochodem, jak i komunikacją miejską &amp; rowerem.',
  'Lokal idealnie nadaje się zarówno do zamieszkania, jak i pod inwestycję na wynajem długoterminowy.',
  'Cena obejmuje zabudowę kuchenną wraz ze sprzętem AGD oraz szafy wnękowe w przedpokoju i sypialni.',
  'Księga wieczysta jest założona, stan prawny uregulowany, możliwy szybki termin wydania lokalu.',
];
const FEATURES: readonly string[] = ['balkon o powierzchni 6 m²', 'piwnica', 'miejsce postojowe w garażu', 'klimatyzacja', 'rolety zewnętrzne', 'monitoring i domofon', 'ogrzewanie miejskie', 'ogródek', 'taras z widokiem', 'winda', 'rowerownia', 'drzwi antywłamaniowe'];
const CLOSING: readonly string[] = [
  'Zapraszam na prezentację &ndash; chętnie odpowiem na wszystkie pytania.',
  'Oferta bez prowizji od kupującego. Zapraszamy do kontaktu!',
  'Pomagamy w uzyskaniu kredytu hipotecznego. Umów się na oglądanie już dziś.',
];

const OPEN_DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

// ---------------------------------------------------------------------------------------------
// Records

const BASE_TIME = Date.UTC(2025, 5, 1, 8, 0, 0); // 2025-06-01T08:00:00Z: the catalog's "now"
const DAY = 86_400_000;

function isoMicros(ms: number, micros: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, (_, millis: string) => `.${millis}${String(micros).padStart(3, '0')}Z`);
}

function offsetForm(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

function phone(random: Random): string {
  return `+48 ${random.int(500, 889)} ${random.int(100, 999)} ${random.int(100, 999)}`;
}

function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function location(random: Random, city: City, district: string) {
  return {
    address_city: city.name,
    address_community: city.name,
    address_country: 'Polska',
    address_county: city.county,
    address_district: district,
    address_subdistrict: null,
    address_state: city.state,
    address_street: random.pick(STREETS),
    address_street_number: String(random.int(1, 120)),
    address_flat_number: null,
    address_zip_code: `${random.pick(city.postcodePrefixes)}-${String(random.int(1, 999)).padStart(3, '0')}`,
    community_type: 'urban',
    location_latitude: Number((city.latitude + (random.next() - 0.5) * 0.1).toFixed(6)),
    location_longitude: Number((city.longitude + (random.next() - 0.5) * 0.16).toFixed(6)),
    location_approximation: null,
  };
}

function openTime(random: Random) {
  const late = random.chance(0.5);
  const result: Record<string, { from_time: string; to_time: string }[]> = {};
  for (const day of OPEN_DAYS) {
    if (day === 'sunday') result[day] = [];
    else if (day === 'saturday') result[day] = random.chance(0.6) ? [{ from_time: '10:00', to_time: '14:00' }] : [];
    else result[day] = [{ from_time: '09:00', to_time: late ? '18:00' : '17:00' }];
  }
  return result;
}

/** An HTML description of 1-2 KB and its plain-text form (one paragraph a line). */
function description(random: Random, title: string): { html: string; text: string } {
  const target = random.int(1000, 2000);
  const blocks: { html: string; text: string }[] = [];
  const opening = random.pick(OPENING);
  blocks.push({ html: `<p><strong>${title}</strong></p>`, text: title });
  blocks.push({ html: `<p>${opening}</p>`, text: opening });
  let size = blocks.reduce((sum, b) => sum + b.html.length, 0);
  let addedList = false;
  while (size < target - 150) {
    if (!addedList && random.chance(0.35)) {
      const start = random.int(0, FEATURES.length - 1);
      const items = Array.from({ length: random.int(3, 5) }, (_, i) => FEATURES[(start + i * 5) % FEATURES.length]!);
      blocks.push({
        html: `<ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>`,
        text: items.join('\n'),
      });
      addedList = true;
    } else {
      const sentences = Array.from({ length: random.int(1, 3) }, () => random.pick(BODY)).join(' ');
      blocks.push({ html: `<p>${sentences}</p>`, text: sentences });
    }
    size += blocks[blocks.length - 1]!.html.length;
  }
  const closing = random.pick(CLOSING);
  blocks.push({ html: `<p><em>${closing}</em></p>`, text: closing });
  return {
    html: blocks.map((b) => b.html).join('\n'),
    text: blocks.map((b) => b.text.replace(/&ndash;/g, '–').replace(/&amp;/g, '&')).join('\n'),
  };
}

type OfferKind = 'APARTMENT_SALES' | 'APARTMENT_RENTALS' | 'HOUSE_SALES';

interface OrgContext {
  readonly index: number;
  readonly organization_id: string;
  readonly homeCity: City;
  readonly branches: { branch_id: string; webpage_id: string }[];
  readonly agents: { agent_id: string; branch_id: string }[];
  readonly investments: { investment_id: string; city: City; district: string; yearBuilt: number }[];
}

function pickAwayCity(random: Random, home: City): City {
  const others = CITIES.filter((c) => c !== home);
  const total = others.reduce((sum, c) => sum + c.weight, 0);
  let roll = random.next() * total;
  for (const city of others) {
    roll -= city.weight;
    if (roll < 0) return city;
  }
  return others[others.length - 1]!;
}

function offerRecord(random: Random, org: OrgContext, sequence: number) {
  const offer_id = random.uuid();
  const external_id = `${slug(ORGANIZATION_NAMES[org.index]![0]).slice(0, 6).toUpperCase()}-${String(sequence).padStart(6, '0')}`;
  const roll = random.next();
  const kind: OfferKind = roll < 0.75 ? 'APARTMENT_SALES' : roll < 0.9 ? 'APARTMENT_RENTALS' : 'HOUSE_SALES';
  const investment = kind === 'APARTMENT_SALES' && random.chance(0.6) ? random.pick(org.investments) : undefined;
  const city = investment ? investment.city : random.chance(0.6) ? org.homeCity : pickAwayCity(random, org.homeCity);
  const district = investment ? investment.district : random.pick(city.districts);
  const agent = random.pick(org.agents);

  const house = kind === 'HOUSE_SALES';
  const size = house ? random.int(90, 260) + random.int(0, 9) / 10 : Math.round((22 + random.next() ** 1.6 * 110) * 10) / 10;
  const rooms = house ? random.int(4, 7) : Math.max(1, Math.min(6, Math.round(size / 19 + (random.next() - 0.5))));
  const perMeter = Math.round(city.pricePerMeter * (house ? 0.7 : 1) * (0.75 + random.next() * 0.55));
  const price = kind === 'APARTMENT_RENTALS' ? Math.round((size * (city.pricePerMeter / 260) * (0.8 + random.next() * 0.5)) / 50) * 50 : Math.round((size * perMeter) / 1000) * 1000;
  const floors = house ? random.int(1, 3) : random.int(3, 12);
  const floor = house ? 0 : random.int(0, floors);
  const yearBuilt = investment ? investment.yearBuilt : random.int(1935, 2024);
  const posted = BASE_TIME - random.int(1, 720) * DAY + random.int(0, DAY - 1);
  const modified = Math.min(BASE_TIME, posted + random.int(0, 60) * DAY);
  const roomsWord = rooms === 1 ? 'Kawalerka' : house ? `Dom ${rooms}-pokojowy` : `Mieszkanie ${rooms}-pokojowe`;
  const title = `${roomsWord}, ${size.toLocaleString('pl-PL')} m², ${city.name} ${district}${kind === 'APARTMENT_RENTALS' ? ' – na wynajem' : ''}`;
  const text = description(random, title);
  const photoBase = `https://img.estate-cdn.pl/o/${random.hex(12)}/${external_id.toLowerCase()}`;
  const photos = Array.from({ length: random.int(5, 15) }, (_, i) => `${photoBase}/${String(i + 1).padStart(2, '0')}-${random.hex(8)}_1600x1200.webp`);
  const plans = Array.from({ length: random.int(0, 2) }, (_, i) => `${photoBase}/plan-${i + 1}-${random.hex(8)}.pdf`);
  const hasBalcony = !house && random.chance(0.65);

  const offer_data = {
    price,
    price_currency: 'PLN',
    price_per_meter: kind === 'APARTMENT_RENTALS' ? Math.round((price / size) * 100) / 100 : Math.round(price / size),
    property_size: size,
    administrative_rent: house ? null : Math.round(size * random.int(6, 12)),
    rooms,
    market_type: investment ? 'PRIMARY' : 'SECONDARY',
    building_type: house ? random.pick(['DETACHED_HOUSE', 'SEMI_DETACHED_HOUSE', 'TERRACED_HOUSE']) : investment ? 'APARTMENT_COMPLEX' : random.pick(['BLOCK_OF_FLATS', 'TENEMENT', 'APARTMENT_COMPLEX', 'LOFT']),
    kitchen_type: random.pick(['KITCHENETTE', 'SEPARATE', 'ANNEX']),
    building_stage: investment ? random.pick(['W budowie', 'Gotowy', 'Stan deweloperski']) : null,
    building_material: random.pick(['cegła', 'żelbet', 'silikat', 'pustak', 'wielka płyta', null]),
    roof_material: house ? random.pick(['dachówka', 'blacha', 'papa']) : null,
    windows_material: random.pick(['PCV', 'drewniane', 'aluminiowe']),
    year_built: yearBuilt,
    floor_no_lower_bound: floor,
    total_levels_in_building_lower_bound: floors,
    levels: house ? random.int(1, 3) : random.chance(0.1) ? 2 : 1,
    bathroom_count: rooms >= 4 ? 2 : 1,
    ownership_type: random.pick(['OWNERSHIP', 'OWNERSHIP', 'OWNERSHIP', 'COOPERATIVE_OWNERSHIP', 'PERPETUAL_USUFRUCT']),
    has_land_and_mortgage_register: random.chance(0.9),
    sewage: house ? random.pick(['MUNICIPAL', 'SEPTIC_TANK', 'SEWAGE_TREATMENT_PLANT']) : 'MUNICIPAL',
    water_access: house && random.chance(0.2) ? 'WELL' : 'WATER_SUPPLY',
    heating: random.pick(['MUNICIPAL', 'MUNICIPAL', 'GAS', 'ELECTRIC', 'HEAT_PUMP']),
    has_cable_telephone_access: random.chance(0.5),
    has_cable_television_access: random.chance(0.8),
    has_cable_internet_access: random.chance(0.95),
    has_electricity_access: true,
    has_gas_access: random.chance(0.6),
    has_high_voltage_plug: random.chance(0.2),
    parking: random.pick(['UNDERGROUND_PARKING_LOT', 'PARKING_LOT', 'GARAGE', 'STREET', 'NONE']),
    parking_lots: random.int(0, 2),
    has_balcony: hasBalcony,
    has_terrace: random.chance(house ? 0.7 : 0.15),
    has_garden: random.chance(house ? 0.95 : 0.08),
    has_storage: random.chance(0.5),
    has_basement: random.chance(0.1) ? null : random.chance(0.4),
    has_elevator: !house && floors > 4,
    is_furnished: random.chance(kind === 'APARTMENT_RENTALS' ? 0.9 : 0.3),
    has_air_conditioning: random.chance(0.15),
    is_gated_community: random.chance(investment ? 0.7 : 0.2),
    has_anti_theft_protection: random.chance(0.4),
    available_from_date: new Date(BASE_TIME + random.int(-30, 365) * DAY - (BASE_TIME % DAY)).toISOString(),
    address_country: 'Polska',
    address_county: city.county,
    address_community: city.name,
    address_city: city.name,
    address_district: district,
    address_subdistrict: random.chance(0.3) ? `${district} ${random.pick(['Północ', 'Południe', 'Wschód', 'Zachód'])}` : null,
    address_street: `ul. ${random.pick(STREETS)}`,
    address_street_number: String(random.int(1, 180)),
    address_flat_number: house ? null : String(random.int(1, 120)),
    address_postcode: `${random.pick(city.postcodePrefixes)}-${String(random.int(1, 999)).padStart(3, '0')}`,
    community_type: 'urban',
    location_latitude: Number((city.latitude + (random.next() - 0.5) * 0.1).toFixed(6)),
    location_longitude: Number((city.longitude + (random.next() - 0.5) * 0.16).toFixed(6)),
    location_approximation: random.chance(0.5) ? random.pick([100, 250, 500]) : null,
    title,
    description: text.html,
    film_url: random.chance(0.2) ? `https://www.youtube.com/watch?v=${random.bytes(8).toString('base64url').slice(0, 11)}` : null,
    virtual_walk_url: random.chance(0.15) ? `https://my.matterport.com/show/?m=${random.hex(11)}` : null,
    address_state: city.state,
    offer_type: kind,
    property_condition: investment ? 'DEVELOPER_STATE' : random.pick(['VERY_GOOD', 'GOOD', 'AVERAGE', 'BELOW_AVERAGE', 'TO_RENOVATE']),
    id: offer_id,
    external_id,
    photos_urls: photos,
    date_modified: offsetForm(modified),
    date_posted: offsetForm(posted),
    description_clean_text: text.text,
    floor_plan_urls: plans,
  };
  const is_active = !random.chance(0.03);
  return {
    record: {
      type: 'offer',
      offer_id,
      external_id,
      organization_id: org.organization_id,
      agent_id: agent.agent_id,
      branch_id: agent.branch_id,
      investment_id: investment?.investment_id ?? null,
      is_active,
      created_at: isoMicros(posted, random.int(0, 999)),
      offer_data,
    },
    is_active,
  };
}

/** A key in the service's format ("ecs_" + 43 base64url characters), derived from the seed. */
function deterministicKey(seed: number, organizationIndex: number): string {
  const digest = createHash('sha256').update(`estate-bench-key:${seed}:${organizationIndex}`).digest();
  return 'ecs_' + digest.toString('base64url');
}

// ---------------------------------------------------------------------------------------------
// Writer

class LineWriter {
  private readonly stream: fs.WriteStream;
  private buffer: string[] = [];
  private bufferedBytes = 0;
  bytes = 0;
  records = 0;

  constructor(file: string) {
    this.stream = fs.createWriteStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
  }

  async write(record: unknown): Promise<number> {
    const line = JSON.stringify(record) + '\n';
    const length = Buffer.byteLength(line);
    this.buffer.push(line);
    this.bufferedBytes += length;
    this.bytes += length;
    this.records += 1;
    if (this.bufferedBytes >= 1 << 20) await this.flush();
    return length;
  }

  private async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const chunk = this.buffer.join('');
    this.buffer = [];
    this.bufferedBytes = 0;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => this.stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }
}

export async function generateCatalog(options: CatalogOptions): Promise<CatalogManifest> {
  const seed = options.seed ?? 20250601;
  const organizationCount = options.organizations ?? 10;
  const random = createRandom(seed);
  const writer = new LineWriter(options.outFile);
  const contexts: OrgContext[] = [];
  const manifests: (OrganizationManifest & { activeOfferIds: string[] })[] = [];

  try {
    for (let index = 0; index < organizationCount; index++) {
      const [name, legalName] = ORGANIZATION_NAMES[index % ORGANIZATION_NAMES.length]!;
      const homeCity = CITIES[index % CITIES.length]!;
      const organization_id = random.uuid();
      const domain = `${slug(name)}.pl`;
      await writer.write({
        type: 'organization',
        organization_id,
        name,
        legal_name: legalName,
        nip: String(random.int(1000000000, 9999999999)),
        logo_url: `https://${domain}/static/logo.svg`,
        address: `ul. ${random.pick(STREETS)} ${random.int(1, 90)}, ${random.pick(homeCity.postcodePrefixes)}-${String(random.int(1, 999)).padStart(3, '0')} ${homeCity.name}`,
        website: `https://${domain}`,
        phone_number: phone(random),
        description: `${name} to biuro nieruchomości działające w mieście ${homeCity.name} i okolicach od ${random.int(1995, 2015)} roku. Pomagamy kupić, sprzedać i wynająć mieszkania, domy oraz lokale użytkowe.`,
        cover_image_url: `https://${domain}/static/cover.jpg`,
        location: location(random, homeCity, random.pick(homeCity.districts)),
        social_media_links: [`https://www.facebook.com/${slug(name)}`, `https://www.instagram.com/${slug(name).replace(/-/g, '')}`],
        contact_email: `kontakt@${domain}`,
      });

      const website_id = random.uuid();
      const key = deterministicKey(seed, index);
      await writer.write({
        type: 'website',
        website_id,
        organization_id,
        name: `${name} – strona główna`,
        api_keys: [{ key_id: random.uuid(), key, is_active: true, label: 'benchmark' }],
      });

      const branches: OrgContext['branches'] = [];
      const branchCount = random.int(3, 6);
      for (let b = 0; b < branchCount; b++) {
        const city = b === 0 ? homeCity : pickAwayCity(random, homeCity);
        const district = random.pick(city.districts);
        const branch = { branch_id: random.uuid(), webpage_id: random.uuid() };
        branches.push(branch);
        await writer.write({
          type: 'branch',
          ...branch,
          organization_id,
          name: `${name} – oddział ${city.name} ${district}`,
          description: `Oddział w mieście ${city.name}, dzielnica ${district}. Zapraszamy od poniedziałku do piątku.`,
          address: `ul. ${random.pick(STREETS)} ${random.int(1, 90)}, ${city.name}`,
          cover_image_url: `https://${domain}/static/branch-${b + 1}.jpg`,
          logo_url: `https://${domain}/static/logo.svg`,
          email: `${slug(city.name)}.${b + 1}@${domain}`,
          phone_number: phone(random),
          open_time: openTime(random),
          location: location(random, city, district),
        });
      }

      const agents: OrgContext['agents'] = [];
      for (const branch of branches) {
        const agentCount = random.int(4, 8);
        for (let a = 0; a < agentCount; a++) {
          const first = random.pick(FIRST_NAMES);
          const last = random.pick(LAST_NAMES);
          const agent = { agent_id: random.uuid(), branch_id: branch.branch_id };
          agents.push(agent);
          await writer.write({
            type: 'agent',
            agent_id: agent.agent_id,
            webpage_id: branch.webpage_id,
            organization_id,
            branch_id: branch.branch_id,
            email: `${slug(first)}.${slug(last)}${a}@${domain}`,
            phone_number: phone(random),
            first_name: first,
            last_name: last,
            avatar_url: `https://${domain}/team/${agent.agent_id}/avatar.jpg`,
            job_title: random.pick(JOB_TITLES),
            description: `${first} ${last} pomaga klientom w transakcjach na rynku nieruchomości od ${random.int(2, 20)} lat.`,
            cover_image_url: `https://${domain}/team/${agent.agent_id}/cover.jpg`,
            profile_image_url: `https://${domain}/team/${agent.agent_id}/profile.jpg`,
          });
        }
      }

      const investments: OrgContext['investments'] = [];
      const investmentCount = random.int(12, 18);
      for (let i = 0; i < investmentCount; i++) {
        const city = random.chance(0.7) ? homeCity : pickAwayCity(random, homeCity);
        const district = random.pick(city.districts);
        const investment = { investment_id: random.uuid(), city, district, yearBuilt: random.int(2022, 2027) };
        investments.push(investment);
        await writer.write({
          type: 'investment',
          investment_id: investment.investment_id,
          webpage_id: random.pick(branches).webpage_id,
          organization_id,
          name: `${random.pick(INVESTMENT_WORDS)} ${random.pick(INVESTMENT_NAMES)} ${i + 1}`,
          description: `Nowa inwestycja mieszkaniowa w dzielnicy ${district} (${city.name}), oddanie w ${investment.yearBuilt} roku.`,
          is_active: !random.chance(0.15),
        });
      }

      contexts.push({ index, organization_id, homeCity, branches, agents, investments });
      manifests.push({
        organization_id,
        website_id,
        key,
        name,
        homeCity: homeCity.name,
        branchIds: branches.map((b) => b.branch_id),
        investmentIds: investments.map((i) => i.investment_id),
        activeOfferIds: [],
      });
    }

    // Offers interleaved across organizations, as a real feed would mix them.
    let offerBytes = 0;
    let activeOffers = 0;
    for (let n = 0; n < options.offers; n++) {
      const orgIndex = n % organizationCount;
      const { record, is_active } = offerRecord(random, contexts[orgIndex]!, Math.floor(n / organizationCount) + 1);
      offerBytes += await writer.write(record);
      if (is_active) {
        activeOffers += 1;
        manifests[orgIndex]!.activeOfferIds.push(record.offer_id);
      }
    }
    await writer.close();
    return {
      organizations: manifests,
      offers: options.offers,
      activeOffers,
      records: writer.records,
      bytes: writer.bytes,
      averageOfferBytes: options.offers > 0 ? Math.round(offerBytes / options.offers) : 0,
      cities: CITIES.map((c) => c.name),
    };
  } catch (error) {
    await writer.close().catch(() => {});
    throw error;
  }
}

// `npx tsx bench/catalog.ts --offers N --out FILE` writes a catalog on its own.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const value = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const offers = Number(value('--offers') ?? 100_000);
  const outFile = value('--out') ?? 'catalog.ndjson';
  const started = Date.now();
  generateCatalog({ offers, outFile })
    .then((manifest) => {
      const { organizations, ...summary } = manifest;
      process.stdout.write(
        JSON.stringify({ ...summary, organizations: organizations.length, file: outFile, seconds: (Date.now() - started) / 1000 }) + '\n',
      );
    })
    .catch((error: unknown) => {
      process.stderr.write(`catalog generation failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
}
