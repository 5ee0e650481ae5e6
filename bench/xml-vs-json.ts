/**
 * What the XML form of an offer page costs next to the JSON form: 100 realistic offers (about
 * 6.5 KB of offer_data each, HTML descriptions, every entity included), built as the offer
 * queries build them, rendered N times by each renderer.
 *
 *   npx tsx bench/xml-vs-json.ts [iterations=300]
 *
 * "XML warm" is the steady state (offer_data fragments cached, so offer_data is neither parsed nor
 * escaped); "XML cold" empties the cache before every page, as the first request after an import
 * sees it (offer_data parsed from its JSON text and escaped). "render + UTF-8 encode" is the
 * figure to compare: a response is sent as bytes, and encoding also flattens the string.
 */
import { normalizeOfferData, renderOfferDataJson } from '../src/features/offers/offer-data.js';
import { offersPageToJson, type OfferView, type OffersPageView } from '../src/features/offers/model.js';
import type { Agent, Branch, Investment, Organization } from '../src/contract/resources.js';
import { FragmentCache } from '../src/xml/fragment-cache.js';
import { OFFER_DATA_FRAGMENT_CHARS, offersPageToXml } from '../src/features/offers/xml.js';

// The service's XML fragment cache (buildApp makes one per process).
const fragments = new FragmentCache(OFFER_DATA_FRAGMENT_CHARS);

const iterations = Number(process.argv[2] ?? 300);
const OFFERS = 100;

const uuid = (n: number, tag: number) =>
  `${tag.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

const paragraph = (i: number) =>
  `<p>Przestronne, jasne mieszkanie nr ${i} na <strong>Starym Mieście</strong> w Krakowie &amp; ` +
  `tuż przy Plantach. Salon z aneksem kuchennym, dwie sypialnie, łazienka z oknem &ndash; ` +
  `idealne dla rodziny lub jako inwestycja pod wynajem.</p>\n`;
const description = (i: number) =>
  Array.from({ length: 7 }, (_, k) => paragraph(i + k)).join('') +
  '<ul><li>balkon 6 m²</li><li>komórka lokatorska</li><li>miejsce w garażu podziemnym</li></ul>';

function location(i: number) {
  return {
    address_city: 'Kraków',
    address_community: 'Kraków',
    address_country: 'Polska',
    address_county: 'krakowski',
    address_district: 'Stare Miasto',
    address_subdistrict: null,
    address_state: 'małopolskie',
    address_street: 'ul. Floriańska',
    address_street_number: String(10 + i),
    address_flat_number: null,
    address_zip_code: '31-019',
    community_type: 'urban',
    location_latitude: 50.0647 + i / 10000,
    location_longitude: 19.945 + i / 10000,
    location_approximation: 100,
  };
}

function offerData(i: number, offerId: string, externalId: string): Record<string, unknown> {
  const photos = Array.from({ length: 16 }, (_, k) => `https://cdn.example.pl/offers/${offerId}/photos/${k + 1}.jpg`);
  return normalizeOfferData(
    {
      price: 650000 + i * 1000,
      price_currency: 'PLN',
      price_per_meter: 12345.67,
      property_size: 52.65,
      administrative_rent: 540,
      rooms: 3,
      market_type: 'SECONDARY',
      building_type: 'TENEMENT',
      kitchen_type: 'ANNEX',
      building_stage: null,
      building_material: 'cegła',
      roof_material: null,
      windows_material: 'PCV',
      year_built: 1912,
      floor_no_lower_bound: 2,
      total_levels_in_building_lower_bound: 4,
      levels: 1,
      bathroom_count: 1,
      ownership_type: 'OWNERSHIP',
      has_land_and_mortgage_register: true,
      sewage: 'MUNICIPAL',
      water_access: 'WATER_SUPPLY',
      heating: 'MUNICIPAL',
      has_cable_telephone_access: false,
      has_cable_television_access: true,
      has_cable_internet_access: true,
      has_electricity_access: true,
      has_gas_access: true,
      has_high_voltage_plug: false,
      parking: 'UNDERGROUND_PARKING_LOT',
      parking_lots: 1,
      has_balcony: true,
      has_terrace: false,
      has_garden: false,
      has_storage: true,
      has_basement: null,
      has_elevator: false,
      is_furnished: true,
      has_air_conditioning: false,
      is_gated_community: false,
      has_anti_theft_protection: true,
      available_from_date: '2025-03-01T00:00:00Z',
      address_country: 'Polska',
      address_county: 'krakowski',
      address_community: 'Kraków',
      address_city: 'Kraków',
      address_district: 'Stare Miasto',
      address_subdistrict: 'Kleparz',
      address_street: 'ul. Floriańska',
      address_street_number: String(10 + i),
      address_flat_number: '7',
      address_postcode: '31-019',
      community_type: 'urban',
      location_latitude: 50.0647,
      location_longitude: 19.945,
      location_approximation: null,
      title: `Trzy pokoje z balkonem przy Plantach (${i})`,
      description: description(i),
      film_url: null,
      virtual_walk_url: `https://tour.example.pl/${offerId}`,
      address_state: 'małopolskie',
      offer_type: 'APARTMENT_SALES',
      property_condition: 'GOOD',
      photos_urls: photos,
      date_modified: '2025-01-31T09:15:00Z',
      date_posted: '2025-01-20T08:00:00Z',
      floor_plan_urls: [`https://cdn.example.pl/offers/${offerId}/plan.pdf`],
    },
    { offer_id: offerId, external_id: externalId },
  );
}

const organization = (): Organization => ({
  organization_id: uuid(1, 1),
  name: 'Nieruchomości Wawel',
  legal_name: 'Nieruchomości Wawel sp. z o.o.',
  nip: '6762461234',
  logo_url: 'https://cdn.example.pl/logo.png',
  address: 'ul. Długa 1, 31-147 Kraków',
  website: 'https://wawel-nieruchomosci.example.pl',
  phone_number: '+48 12 345 67 89',
  description: '<p>Biuro nieruchomości z tradycjami &amp; doświadczeniem od 1995 roku.</p>',
  cover_image_url: 'https://cdn.example.pl/cover.jpg',
  location: location(0),
  social_media_links: ['https://facebook.com/wawel', 'https://instagram.com/wawel'],
  contact_email: 'biuro@wawel.example.pl',
});

const week = () => ({
  monday: [{ from_time: '09:00', to_time: '17:00' }],
  tuesday: [{ from_time: '09:00', to_time: '17:00' }],
  wednesday: [{ from_time: '09:00', to_time: '17:00' }],
  thursday: [{ from_time: '09:00', to_time: '17:00' }],
  friday: [{ from_time: '09:00', to_time: '13:00' }, { from_time: '14:00', to_time: '17:00' }],
  saturday: [{ from_time: '10:00', to_time: '14:00' }],
  sunday: [],
});

const branch = (n: number): Branch => ({
  branch_id: uuid(n, 2),
  webpage_id: uuid(3, 2),
  organization_id: uuid(1, 1),
  name: 'Oddział Kazimierz',
  description: 'Oddział przy placu Nowym.',
  address: 'pl. Nowy 5, 31-056 Kraków',
  cover_image_url: 'https://cdn.example.pl/branch.jpg',
  logo_url: null,
  email: 'kazimierz@wawel.example.pl',
  phone_number: '+48 12 000 00 00',
  open_time: week(),
  location: location(1),
});

const agent = (n: number): Agent => ({
  agent_id: uuid(n, 3),
  webpage_id: uuid(n, 4),
  organization_id: uuid(1, 1),
  branch_id: uuid(n % 3, 2),
  email: 'jan.kowalski@wawel.example.pl',
  phone_number: '+48 600 100 200',
  first_name: 'Jan',
  last_name: 'Kowalski',
  avatar_url: 'https://cdn.example.pl/agents/jk.jpg',
  job_title: 'Doradca ds. nieruchomości',
  description: 'Specjalista od rynku wtórnego w Krakowie.',
  cover_image_url: null,
  profile_image_url: 'https://cdn.example.pl/agents/jk-profile.jpg',
});

const investment = (n: number): Investment => ({
  investment_id: uuid(n, 5),
  webpage_id: null,
  organization_id: uuid(1, 1),
  name: 'Rezydencja Floriańska',
  description: 'Kameralna inwestycja w sercu Starego Miasta.',
  is_active: true,
});

/** The stored offer_data JSON texts of the offers, rendered once. */
const storedOfferData = Array.from({ length: OFFERS }, (_, i) =>
  renderOfferDataJson(offerData(i, uuid(i, 0xabc), `CRM-${1000 + i}`)),
);

/**
 * A page as src/features/offers/read.ts builds it from the rows of one request: new strings and objects
 * every time, offer_data parsed from its JSON text only when read, and each included entity one
 * object per id shared by the offers that link it (one organization, 3 branches, 12 agents,
 * 4 investments).
 */
function freshPage(): OffersPageView {
  const org = organization();
  const branches = Array.from({ length: 3 }, (_, n) => branch(n));
  const agents = Array.from({ length: 12 }, (_, n) => agent(n));
  const investments = Array.from({ length: 4 }, (_, n) => investment(n));
  const items = storedOfferData.map((stored, i): OfferView => {
    // A new string with the same text, as the database driver gives.
    const offerDataJson = Buffer.from(stored, 'utf8').toString('utf8');
    let parsed: Record<string, unknown> | undefined;
    return {
      offer_id: uuid(i, 0xabc),
      external_id: `CRM-${1000 + i}`,
      created_at: '2025-01-20 08:00:00.123456+00',
      updated_at: '2025-01-31 09:15:00+00',
      get offer_data(): Record<string, unknown> {
        parsed ??= JSON.parse(offerDataJson) as Record<string, unknown>;
        return parsed;
      },
      offer_data_json: offerDataJson,
      version: 3,
      agent: agents[i % agents.length]!,
      branch: branches[i % branches.length]!,
      organization: org,
      investment: investments[i % investments.length]!,
    };
  });
  return { items, page: 1, size: OFFERS, total: 2345, pages: 24 };
}

interface Timing {
  /** Building the string. */
  render: number;
  /** Building it and encoding it as UTF-8, as sending it does (this also flattens V8's string ropes). */
  send: number;
}

interface Contender {
  readonly name: string;
  readonly render: (page: OffersPageView) => string;
  readonly before?: () => void;
  readonly rounds: Timing[];
}

/** Mean time per page over `count` fresh pages (built outside the timing), for one contender. */
function measure(contender: Contender, count: number): Timing {
  let rendering = 0n;
  let sending = 0n;
  for (let i = 0; i < count; i++) {
    const page = freshPage();
    contender.before?.();
    const start = process.hrtime.bigint();
    const text = contender.render(page);
    const rendered = process.hrtime.bigint();
    if (Buffer.from(text, 'utf8').length === 0) throw new Error('empty document');
    const sent = process.hrtime.bigint();
    rendering += rendered - start;
    sending += sent - start;
  }
  return { render: Number(rendering) / 1e6 / count, send: Number(sending) / 1e6 / count };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const sample = freshPage();
const dataBytes = sample.items.reduce((n, o) => n + Buffer.byteLength(o.offer_data_json), 0) / OFFERS;
console.log(`${OFFERS} offers per page, offer_data ${(dataBytes / 1024).toFixed(1)} KB each, all entities included`);
console.log(`JSON page ${(Buffer.byteLength(offersPageToJson(sample)) / 1024).toFixed(0)} KB, XML page ${(Buffer.byteLength(offersPageToXml(sample)) / 1024).toFixed(0)} KB; ${iterations} iterations\n`);

const contenders: Contender[] = [
  { name: 'JSON', render: offersPageToJson, rounds: [] },
  { name: 'XML warm', render: (page) => offersPageToXml(page, fragments), rounds: [] },
  { name: 'XML cold', render: (page) => offersPageToXml(page, fragments), before: () => fragments.clear(), rounds: [] },
];
for (const contender of contenders) measure(contender, 30); // warm-up
// Rounds alternate between the contenders, and medians are reported, so that a busy machine
// slows all of them alike rather than one.
const ROUNDS = 15;
for (let round = 0; round < ROUNDS; round++) {
  for (const contender of contenders) contender.rounds.push(measure(contender, Math.ceil(iterations / ROUNDS)));
}
const result = (c: Contender): Timing => ({
  render: median(c.rounds.map((t) => t.render)),
  send: median(c.rounds.map((t) => t.send)),
});
const json = result(contenders[0]!);
console.log('medians per page       render (ratio)        render + UTF-8 encode (ratio)');
for (const contender of contenders) {
  const t = result(contender);
  console.log(
    `${contender.name.padEnd(18)} ${t.render.toFixed(3).padStart(8)} ms (${(t.render / json.render).toFixed(2)}x)` +
      `   ${t.send.toFixed(3).padStart(8)} ms (${(t.send / json.send).toFixed(2)}x)`,
  );
}
