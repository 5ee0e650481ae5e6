/**
 * The demo data set as a content bundle, built in memory from a seed: one Polish agency with its
 * website, 3 branches, 12 agents, 3 investments (one inactive) and offers across Warszawa, Kraków,
 * Gdańsk and Wrocław. The same seed always gives the same bundle (ids included); nothing depends
 * on the clock. The benchmark generator reuses the offer builder with longer descriptions.
 */
import { asciiFold, CITIES, FIRST_NAMES_FEMALE, FIRST_NAMES_MALE, LAST_NAMES, type City, type District } from './places.js';
import { Random, seededUuid } from './random.js';
import { offerDescription, offerInEnglish, offerTitle, type OfferFacts } from './texts.js';
import { DEMO_PHOTO_COUNT, DEMO_PLAN_COUNT, demoPhotoUrl } from '../features/photos/index.js';

export const DEMO_SEED = 'estate-content-demo-v1';
export const DEMO_OFFER_COUNT = 300;

type Json = Record<string, unknown>;

export interface Bundle {
  organizations: Json[];
  websites: Json[];
  branches: Json[];
  agents: Json[];
  investments: Json[];
  offers: Json[];
}

export interface DemoEntities {
  seed: string;
  organizationId: string;
  websiteId: string;
  organization: Json;
  website: Json;
  branches: Json[];
  agents: Json[];
  investments: Json[];
  /** Which branch serves which city. */
  branchOfCity: ReadonlyMap<string, number>;
  /** Agents by branch index. */
  agentsOfBranch: ReadonlyArray<readonly Json[]>;
  investmentPlaces: ReadonlyArray<{ city: City; district: District; name: string; active: boolean; share: number }>;
}

/** Every date of the data set is counted from here, not from the clock. */
const BASE_TIME = Date.UTC(2026, 9, 1, 8, 0, 0);
const DAY = 86_400_000;
const DOMAIN = 'wislana.example';

/** A number of an offer id, for picking its demo photos (no draw of the generator, so the rest of the data stays as it was). */
const offerNumber = (offerId: string) => parseInt(offerId.replace(/-/g, '').slice(-6), 16);

const photo = (seed: string, label: string, width = 1280, height = 853) =>
  `https://picsum.photos/seed/${seed.slice(0, 8)}-${label}/${width}/${height}`;

function location(city: City, district: District, street: string, number: string, rng: Random): Json {
  return {
    address_city: city.name,
    address_community: city.name,
    address_country: 'Polska',
    address_county: city.name,
    address_district: district.name,
    address_subdistrict: rng.pick(district.subdistricts),
    address_state: city.state,
    address_street: street,
    address_street_number: number,
    address_flat_number: null,
    address_zip_code: `${district.postcodePrefix}-${String(rng.int(1, 999)).padStart(3, '0')}`,
    community_type: 'urban',
    location_latitude: round(district.lat + (rng.next() - 0.5) * 0.01, 6),
    location_longitude: round(district.lon + (rng.next() - 0.5) * 0.01, 6),
    location_approximation: null,
  };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

function city(name: string): City {
  return CITIES.find((c) => c.name === name)!;
}

function district(c: City, name: string): District {
  return c.districts.find((d) => d.name === name)!;
}

function phone(rng: Random, mobile: boolean, areaCode = '22'): string {
  const digits = () => String(rng.int(0, 999)).padStart(3, '0');
  return mobile ? `+48 ${rng.pick(['501', '502', '600', '601', '602', '694', '730', '790'])} ${digits()} ${digits()}` : `+48 ${areaCode} ${digits()} ${String(rng.int(0, 99)).padStart(2, '0')} ${String(rng.int(0, 99)).padStart(2, '0')}`;
}

/** A NIP with a valid check digit. */
function nip(rng: Random): string {
  const weights = [6, 5, 7, 2, 3, 4, 5, 6, 7];
  for (;;) {
    const digits = Array.from({ length: 9 }, (_, i) => (i === 0 ? rng.int(1, 9) : rng.int(0, 9)));
    const check = digits.reduce((sum, d, i) => sum + d * weights[i]!, 0) % 11;
    if (check !== 10) return [...digits, check].join('');
  }
}

const weekdays = (from: string, to: string) => [{ from_time: from, to_time: to }];

export function demoEntities(seed: string = DEMO_SEED): DemoEntities {
  const rng = new Random(`${seed}:entities`);
  const id = (label: string) => seededUuid(seed, label);
  const organizationId = id('organization');
  const websiteId = id('website');
  const warszawa = city('Warszawa');
  const krakow = city('Kraków');
  const gdansk = city('Gdańsk');
  const wroclaw = city('Wrocław');

  const organization: Json = {
    organization_id: organizationId,
    name: 'Wiślana Nieruchomości',
    legal_name: 'Wiślana Nieruchomości sp. z o.o.',
    nip: nip(rng),
    logo_url: photo(organizationId, 'logo', 400, 400),
    address: 'ul. Marszałkowska 84/92 lok. 110, 00-514 Warszawa',
    website: `https://www.${DOMAIN}`,
    phone_number: phone(rng, false, warszawa.areaCode),
    description:
      'Wiślana Nieruchomości to biuro pośrednictwa działające od 2004 roku w Warszawie, Krakowie, Trójmieście i we Wrocławiu. Sprzedajemy i wynajmujemy mieszkania, domy i lokale usługowe, współpracujemy z deweloperami i pomagamy w uzyskaniu kredytu hipotecznego.',
    cover_image_url: photo(organizationId, 'cover', 1920, 640),
    location: { ...location(warszawa, district(warszawa, 'Śródmieście'), 'Marszałkowska', '84/92', rng), address_zip_code: '00-514' },
    social_media_links: [
      'https://www.facebook.com/wislana.nieruchomosci',
      'https://www.instagram.com/wislana.nieruchomosci',
      'https://www.linkedin.com/company/wislana-nieruchomosci',
      'https://www.youtube.com/@wislananieruchomosci',
    ],
    contact_email: `kontakt@${DOMAIN}`,
    // Extension E10: the legal data the price-transparency dataset publishes (valid check digits).
    developer: {
      legal_name: 'Wiślana Nieruchomości sp. z o.o.',
      legal_form: 'spółka z ograniczoną odpowiedzialnością',
      krs: '0000123456',
      nip: '1234563218',
      regon: '123456785',
      phone: '+48 22 100 20 30',
      email: `sprzedaz@${DOMAIN}`,
      website: `https://www.${DOMAIN}`,
      seat: { voivodeship: 'mazowieckie', county: 'Warszawa', community: 'Warszawa', city: 'Warszawa', street: 'Marszałkowska', building_number: '84/92', flat_number: '110', postcode: '00-514' },
      sales_offices: [
        { voivodeship: 'mazowieckie', county: 'Warszawa', community: 'Warszawa', city: 'Warszawa', street: 'Marszałkowska', building_number: '84/92', flat_number: '110', postcode: '00-514' },
        { voivodeship: 'pomorskie', county: 'Gdańsk', community: 'Gdańsk', city: 'Gdańsk', street: 'Długa', building_number: '12', postcode: '80-827' },
      ],
      contact_method: 'telefon, e-mail, biuro sprzedaży',
    },
  };

  // The website's pages by slug (E12): the sitemap and the structured data make their addresses from these.
  const website: Json = {
    website_id: websiteId,
    organization_id: organizationId,
    name: `www.${DOMAIN}`,
    urls: { offer: `https://www.${DOMAIN}/oferta/{slug}`, investment: `https://www.${DOMAIN}/inwestycja/{slug}` },
  };

  const branchSpecs = [
    {
      name: 'Oddział Warszawa Mokotów', city: warszawa, district: 'Mokotów', street: 'Puławska', number: '145',
      hours: { monday: weekdays('09:00', '18:00'), tuesday: weekdays('09:00', '18:00'), wednesday: weekdays('09:00', '18:00'), thursday: weekdays('09:00', '18:00'), friday: weekdays('09:00', '17:00'), saturday: weekdays('10:00', '14:00'), sunday: [] },
      email: 'warszawa',
    },
    {
      name: 'Oddział Kraków Stare Miasto', city: krakow, district: 'Stare Miasto', street: 'Długa', number: '12',
      // A lunch break: two intervals a day.
      hours: Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [d, [{ from_time: '09:00', to_time: '13:00' }, { from_time: '14:00', to_time: '18:00' }]]).concat([['saturday', weekdays('10:00', '13:00')], ['sunday', []]])),
      email: 'krakow',
    },
    {
      name: 'Oddział Trójmiasto', city: gdansk, district: 'Wrzeszcz', street: 'Grunwaldzka', number: '82',
      hours: { monday: weekdays('08:30', '17:00'), tuesday: weekdays('08:30', '17:00'), wednesday: weekdays('08:30', '17:00'), thursday: weekdays('08:30', '17:00'), friday: weekdays('08:30', '16:00'), saturday: [], sunday: [] },
      email: 'trojmiasto',
    },
  ];
  const branches = branchSpecs.map((spec, index) => {
    const branchId = id(`branch:${index}`);
    return {
      branch_id: branchId,
      webpage_id: id(`branch-webpage:${index}`),
      organization_id: organizationId,
      name: spec.name,
      description: `${spec.name} – sprzedaż i wynajem nieruchomości w ${spec.city.name === 'Gdańsk' ? 'Trójmieście' : spec.city.name === 'Kraków' ? 'Krakowie i we Wrocławiu' : 'Warszawie'}. Zapraszamy do biura lub na spotkanie w nieruchomości.`,
      address: `ul. ${spec.street} ${spec.number}, ${spec.city.name}`,
      cover_image_url: photo(branchId, 'cover', 1600, 600),
      logo_url: photo(organizationId, 'logo', 400, 400),
      email: `${spec.email}@${DOMAIN}`,
      phone_number: phone(rng, false, spec.city.areaCode),
      open_time: spec.hours,
      location: location(spec.city, district(spec.city, spec.district), spec.street, spec.number, rng),
    } as Json;
  });
  const branchOfCity = new Map([
    ['Warszawa', 0],
    ['Kraków', 1],
    ['Wrocław', 1],
    ['Gdańsk', 2],
  ]);

  const jobTitles = ['Kierownik oddziału', 'Starszy doradca ds. nieruchomości', 'Doradca ds. nieruchomości', 'Specjalista ds. najmu'];
  const usedNames = new Set<string>();
  const agents: Json[] = [];
  const agentsOfBranch: Json[][] = [[], [], []];
  for (let index = 0; index < 12; index += 1) {
    const branchIndex = Math.floor(index / 4);
    let first: string;
    let last: string;
    do {
      const female = rng.chance(0.55);
      first = female ? rng.pick(FIRST_NAMES_FEMALE) : rng.pick(FIRST_NAMES_MALE);
      const surname = rng.pick(LAST_NAMES);
      last = female ? surname[1] : surname[0];
    } while (usedNames.has(`${first} ${last}`));
    usedNames.add(`${first} ${last}`);
    const agentId = id(`agent:${index}`);
    const jobTitle = jobTitles[index % 4]!;
    const agent: Json = {
      agent_id: agentId,
      webpage_id: id(`agent-webpage:${index}`),
      organization_id: organizationId,
      branch_id: (branches[branchIndex] as { branch_id: string }).branch_id,
      email: `${asciiFold(first)}.${asciiFold(last)}@${DOMAIN}`,
      phone_number: phone(rng, true),
      first_name: first,
      last_name: last,
      avatar_url: photo(agentId, 'avatar', 256, 256),
      job_title: jobTitle,
      description: `${first} ${last} – ${jobTitle.toLowerCase()} w oddziale ${branchSpecs[branchIndex]!.name.replace('Oddział ', '')}. Licencjonowany pośrednik, ${rng.int(3, 18)} lat doświadczenia na rynku nieruchomości. Mówi po polsku i angielsku${rng.chance(0.3) ? ' oraz niemiecku' : ''}.`,
      cover_image_url: photo(agentId, 'cover', 1600, 600),
      profile_image_url: photo(agentId, 'profile', 800, 1000),
    };
    agents.push(agent);
    agentsOfBranch[branchIndex]!.push(agent);
  }

  const investmentPlaces = [
    { city: warszawa, district: district(warszawa, 'Wilanów'), name: 'Osiedle Zielone Tarasy', active: true, share: 24,
      description: 'Kameralne osiedle czterech budynków w Miasteczku Wilanów: zielone dachy, ogródki na parterze, hala garażowa i plac zabaw. Zakończenie budowy: IV kwartał 2027.',
      english: { name: 'Green Terraces Estate',
        description: 'A small estate of four buildings in Miasteczko Wilanów: green roofs, gardens on the ground floor, an underground car park and a playground. Completion: Q4 2027.' } },
    { city: gdansk, district: district(gdansk, 'Śródmieście'), name: 'Apartamenty Nad Motławą', active: true, share: 20,
      description: 'Apartamenty na Wyspie Spichrzów z widokiem na Motławę i Główne Miasto. Lokale usługowe w parterze, recepcja i strefa wellness dla mieszkańców.' },
    { city: krakow, district: district(krakow, 'Dębniki'), name: 'Rezydencja Pod Wawelem', active: false, share: 12,
      description: 'Inwestycja zakończona w 2024 roku – sprzedaż lokali zakończona, pozostały pojedyncze mieszkania z rynku wtórnego.' },
  ];
  const investments = investmentPlaces.map((place, index) => ({
    investment_id: id(`investment:${index}`),
    webpage_id: id(`investment-webpage:${index}`),
    organization_id: organizationId,
    name: place.name,
    description: place.description,
    is_active: place.active,
    // Extension E12: names and descriptions in English.
    ...(place.english ? { translations: { en: place.english } } : {}),
    // Extension E10: the investment's address, as the price-transparency dataset names it.
    location: {
      voivodeship: place.city.state,
      county: place.city.name,
      community: place.city.name,
      city: place.city.name,
      street: place.district.streets[0] ?? null,
      building_number: String(10 + index * 7),
      postcode: `${place.district.postcodePrefix}-${String(100 + index * 11).padStart(3, '0')}`,
    },
  }));

  return {
    seed, organizationId, websiteId, organization, website, branches, agents, investments, branchOfCity, agentsOfBranch,
    investmentPlaces,
  };
}

export interface OfferOptions {
  /** General paragraphs added to each description (0 for the demo; more for benchmark-size offers). */
  extraParagraphs?: number;
  /** Share of inactive offers. */
  inactiveShare?: number;
}

type OfferType = OfferFacts['offerType'];

/** Offers one by one (never all in memory), deterministic for the seed. */
export function* demoOffers(entities: DemoEntities, count: number, options: OfferOptions = {}): Generator<Json> {
  const rng = new Random(`${entities.seed}:offers`);
  const cityWeights: ReadonlyArray<readonly [City, number]> = [
    [city('Warszawa'), 40],
    [city('Kraków'), 25],
    [city('Gdańsk'), 18],
    [city('Wrocław'), 17],
  ];
  // The first offers belong to the investments (in proportion when count is not 300).
  const investmentSlots: number[] = [];
  entities.investmentPlaces.forEach((place, index) => {
    const n = Math.round((place.share * count) / DEMO_OFFER_COUNT);
    for (let i = 0; i < n; i += 1) investmentSlots.push(index);
  });
  for (let i = 0; i < count; i += 1) {
    const investmentIndex = investmentSlots[i];
    yield buildOffer(entities, rng, i, investmentIndex, cityWeights, options);
  }
}

function buildOffer(
  entities: DemoEntities,
  rng: Random,
  index: number,
  investmentIndex: number | undefined,
  cityWeights: ReadonlyArray<readonly [City, number]>,
  options: OfferOptions,
): Json {
  const seed = entities.seed;
  const offerId = seededUuid(seed, `offer:${index}`);
  const place = investmentIndex === undefined ? undefined : entities.investmentPlaces[investmentIndex]!;
  const investment = investmentIndex === undefined ? undefined : (entities.investments[investmentIndex] as { investment_id: string });
  const c = place?.city ?? rng.weighted(cityWeights);
  const d = place?.district ?? rng.pick(c.districts);
  const offerType: OfferType = place
    ? 'APARTMENT_SALES'
    : rng.weighted<OfferType>([
        ['APARTMENT_SALES', 60],
        ['APARTMENT_RENTALS', 22],
        ['HOUSE_SALES', 9],
        ['HOUSE_RENTALS', 3],
        ['COMMERCIAL_RENTALS', 6],
      ]);
  const house = offerType === 'HOUSE_SALES' || offerType === 'HOUSE_RENTALS';
  const commercial = offerType === 'COMMERCIAL_RENTALS';
  const rental = offerType.endsWith('RENTALS');
  const primary = place !== undefined || (!rental && d.character !== 'historic' && rng.chance(0.2));

  // Building
  const buildingType = house
    ? rng.weighted([['DETACHED_HOUSE', 5], ['SEMI_DETACHED_HOUSE', 2], ['TERRACED_HOUSE', 3]] as const)
    : primary
      ? 'APARTMENT_COMPLEX'
      : d.character === 'historic'
        ? rng.weighted([['TENEMENT', 6], ['BLOCK_OF_FLATS', 2], ['LOFT', 1]] as const)
        : rng.weighted([['BLOCK_OF_FLATS', 5], ['APARTMENT_COMPLEX', 4], ['TENEMENT', 1]] as const);
  const yearBuilt =
    primary ? rng.int(2025, 2027)
    : buildingType === 'TENEMENT' ? rng.int(1890, 1938)
    : buildingType === 'LOFT' ? rng.int(1900, 1930)
    : buildingType === 'BLOCK_OF_FLATS' ? rng.int(1962, 1998)
    : house ? rng.int(1985, 2022)
    : rng.int(2000, 2023);
  const totalFloors = house ? rng.int(1, 2) : buildingType === 'TENEMENT' || buildingType === 'LOFT' ? rng.int(3, 5) : buildingType === 'BLOCK_OF_FLATS' ? rng.pick([4, 5, 10, 11]) : rng.int(4, 9);
  const floor = house ? 0 : commercial ? 0 : rng.int(0, totalFloors);

  // Size and price: price = price_per_meter * property_size exactly (integer PLN).
  let rooms: number;
  let size: number;
  let pricePerMeter: number;
  let price: number;
  const characterFactor = { historic: 1.15, central: 1.05, residential: 0.95, suburban: 0.9 }[d.character];
  if (!rental) {
    rooms = house ? rng.int(4, 7) : rng.weighted([[1, 12], [2, 35], [3, 33], [4, 15], [5, 5]] as const);
    const sizeCents = house ? rng.int(11000, 26000) : Math.round((rooms * 15 + 12 + rng.int(-4, 10)) * 100 + rng.int(0, 99));
    const [low, high] = c.salePerMeter;
    const base = (low + rng.next() * (high - low)) * characterFactor * (house ? 0.72 : 1) * (primary ? 1.05 : 1);
    pricePerMeter = Math.round(base / 100) * 100;
    size = sizeCents / 100;
    price = (sizeCents * pricePerMeter) / 100;
  } else {
    rooms = house ? rng.int(4, 6) : commercial ? rng.int(1, 4) : rng.weighted([[1, 25], [2, 45], [3, 22], [4, 8]] as const);
    const sizeTenths = 2 * (house ? rng.int(550, 1100) : commercial ? rng.int(150, 900) : Math.round((rooms * 15 + 14 + rng.int(-4, 8)) * 5) + rng.int(0, 4));
    const [low, high] = c.rentPerMeter;
    const base = (low + rng.next() * (high - low)) * characterFactor * (house ? 0.75 : commercial ? 1.2 : 1);
    pricePerMeter = Math.round(base / 5) * 5;
    size = sizeTenths / 10;
    price = (sizeTenths * pricePerMeter) / 10;
  }

  const street = rng.pick(d.streets);
  const streetNumber = `${rng.int(1, 180)}${rng.chance(0.15) ? rng.pick(['A', 'B', 'C']) : ''}`;
  const subdistrict = rng.pick(d.subdistricts);
  const hasBalcony = !house && !commercial && rng.chance(buildingType === 'TENEMENT' ? 0.4 : 0.8);
  const hasTerrace = house || (!commercial && floor === totalFloors && rng.chance(0.5));
  const hasGarden = house || (!commercial && floor === 0 && primary && rng.chance(0.6));
  const hasElevator = !house && (totalFloors > 4 || primary || (buildingType === 'APARTMENT_COMPLEX' && rng.chance(0.8)));
  const parking = house ? 'GARAGE' : primary || buildingType === 'APARTMENT_COMPLEX' ? rng.weighted([['UNDERGROUND_PARKING_LOT', 4], ['PARKING_LOT', 1]] as const) : buildingType === 'BLOCK_OF_FLATS' ? rng.weighted([['PARKING_LOT', 3], ['STREET', 2]] as const) : 'STREET';
  const condition = primary ? 'DEVELOPER_STATE' : rng.weighted([['VERY_GOOD', 3], ['GOOD', 4], ['AVERAGE', 2], ['TO_RENOVATE', 1], ['BELOW_AVERAGE', 1]] as const);
  const kitchenType = house ? 'SEPARATE' : rooms === 1 ? 'KITCHENETTE' : rng.weighted([['KITCHENETTE', 5], ['SEPARATE', 3], ['ANNEX', 2]] as const);
  const bathrooms = rng.chance(0.15) ? null : house ? rng.int(2, 3) : rooms >= 4 ? 2 : 1;
  const buildingMaterial = rng.chance(0.15) ? null : buildingType === 'TENEMENT' || buildingType === 'LOFT' ? 'cegła' : buildingType === 'BLOCK_OF_FLATS' ? rng.pick(['wielka płyta', 'cegła', 'beton']) : rng.pick(['silikat', 'beton', 'pustak ceramiczny']);
  const administrativeRent = commercial ? rng.int(3, 9) * 100 : house ? rng.int(15, 30) * 10 : Math.round((size * rng.int(8, 14)) / 10) * 10;
  const isFurnished = rental ? rng.chance(0.8) : rng.chance(0.1);
  const isGated = buildingType === 'APARTMENT_COMPLEX' && rng.chance(0.7);
  const hasStorage = !commercial && rng.chance(0.5);

  const facts: OfferFacts = {
    offerType, rooms, size, city: c.name, district: d.name, subdistrict, street, floor, totalFloors, yearBuilt, buildingType,
    buildingMaterial, kitchenType, hasBalcony, hasTerrace, hasGarden, hasElevator, hasStorage, isFurnished, isGated, parking,
    condition, price, pricePerMeter, administrativeRent, investmentName: place?.name ?? null, bathrooms,
  };

  const branchIndex = entities.branchOfCity.get(c.name) ?? 0;
  const agent = rng.pick(entities.agentsOfBranch[branchIndex]!) as { agent_id: string; branch_id: string };
  const posted = BASE_TIME - rng.int(1, 240) * DAY - rng.int(0, 86_399) * 1000;
  const modified = Math.min(BASE_TIME, posted + rng.int(0, 60) * DAY + rng.int(0, 86_399) * 1000);
  const available = BASE_TIME + rng.int(0, 180) * DAY;
  const cityCode = { Warszawa: 'WA', Kraków: 'KR', Gdańsk: 'GD', Wrocław: 'WR' }[c.name] ?? 'PL';
  const externalId = `WN/${cityCode}/${new Date(posted).getUTCFullYear()}/${String(index + 1).padStart(5, '0')}`;
  const photoCount = rng.int(5, 15);
  const planCount = house ? rng.int(2, 3) : rng.int(1, 2);
  // Local time of the feed (Poland, +01:00 / +02:00); stored in the contract's forms.
  const localOffset = rng.pick(['+01:00', '+02:00']);

  const offerData: Json = {
    price,
    price_currency: 'PLN',
    price_per_meter: pricePerMeter,
    property_size: size,
    administrative_rent: administrativeRent,
    rooms,
    market_type: primary ? 'PRIMARY' : 'SECONDARY',
    building_type: buildingType,
    kitchen_type: kitchenType,
    building_stage: primary ? rng.pick(['w budowie', 'stan surowy zamknięty', 'gotowy']) : rng.chance(0.5) ? 'gotowy' : null,
    building_material: buildingMaterial,
    roof_material: house ? rng.pick(['dachówka ceramiczna', 'blachodachówka', 'dachówka betonowa']) : rng.chance(0.5) ? 'papa' : null,
    windows_material: rng.chance(0.1) ? null : rng.weighted([['PCV', 6], ['drewniane', 3], ['aluminiowe', 1]] as const),
    year_built: yearBuilt,
    floor_no_lower_bound: floor,
    total_levels_in_building_lower_bound: totalFloors,
    levels: house ? totalFloors : rng.chance(0.1) ? 2 : rng.chance(0.5) ? 1 : null,
    bathroom_count: bathrooms,
    ownership_type: primary || house ? 'OWNERSHIP' : rng.weighted([['OWNERSHIP', 8], ['COOPERATIVE_OWNERSHIP', 2], ['PERPETUAL_USUFRUCT', 1]] as const),
    has_land_and_mortgage_register: rng.chance(0.92),
    sewage: house && rng.chance(0.3) ? 'SEPTIC_TANK' : 'MUNICIPAL',
    water_access: house && rng.chance(0.1) ? 'WELL' : 'WATER_SUPPLY',
    heating: house ? rng.pick(['GAS', 'HEAT_PUMP', 'GAS']) : buildingType === 'TENEMENT' ? rng.pick(['GAS', 'MUNICIPAL', 'ELECTRIC']) : 'MUNICIPAL',
    has_cable_telephone_access: rng.chance(0.6),
    has_cable_television_access: rng.chance(0.85),
    has_cable_internet_access: rng.chance(0.95),
    has_electricity_access: true,
    has_gas_access: house || buildingType === 'TENEMENT' ? true : rng.chance(0.4),
    has_high_voltage_plug: house || commercial ? rng.chance(0.7) : rng.chance(0.1),
    parking,
    parking_lots: parking === 'STREET' ? 0 : house ? rng.int(1, 2) : rng.int(0, 1),
    has_balcony: hasBalcony,
    has_terrace: hasTerrace,
    has_garden: hasGarden,
    has_storage: hasStorage,
    has_basement: rng.chance(0.2) ? null : house || buildingType === 'BLOCK_OF_FLATS' ? rng.chance(0.8) : rng.chance(0.3),
    has_elevator: hasElevator,
    is_furnished: isFurnished,
    has_air_conditioning: rng.chance(primary ? 0.4 : 0.15),
    is_gated_community: isGated,
    has_anti_theft_protection: rng.chance(0.5),
    available_from_date: new Date(available).toISOString(),
    address_country: 'Polska',
    address_county: c.name,
    address_community: c.name,
    address_city: c.name,
    address_district: d.name,
    address_subdistrict: subdistrict,
    address_street: street,
    address_street_number: streetNumber,
    address_flat_number: house || commercial ? null : String(rng.int(1, 120)),
    address_postcode: `${d.postcodePrefix}-${String(rng.int(1, 999)).padStart(3, '0')}`,
    community_type: 'urban',
    location_latitude: round(d.lat + (rng.next() - 0.5) * 0.02, 6),
    location_longitude: round(d.lon + (rng.next() - 0.5) * 0.03, 6),
    location_approximation: rng.chance(0.5) ? null : rng.pick([100, 250, 500]),
    title: offerTitle(facts, rng),
    description: offerDescription(facts, rng, options.extraParagraphs ?? 0),
    film_url: rng.chance(0.25) ? `https://www.youtube.com/watch?v=${rng.token(11)}` : null,
    virtual_walk_url: rng.chance(0.3) ? `https://my.matterport.com/show/?m=${rng.token(11)}` : null,
    address_state: c.state,
    offer_type: offerType,
    property_condition: condition,
    id: offerId,
    external_id: externalId,
    // The demo's own photos (drawn by the service, so variants work on a fresh clone with no
    // network): a few distinct ones, in an order of the offer's own.
    photos_urls: Array.from({ length: photoCount }, (_, n) => demoPhotoUrl(`photo-${((offerNumber(offerId) + n) % DEMO_PHOTO_COUNT) + 1}`)),
    date_modified: withOffset(modified, localOffset),
    date_posted: withOffset(posted, localOffset),
    description_clean_text: null,
    floor_plan_urls: Array.from({ length: planCount }, (_, n) => demoPhotoUrl(`plan-${((offerNumber(offerId) + n) % DEMO_PLAN_COUNT) + 1}`)),
  };

  return {
    offer_id: offerId,
    organization_id: entities.organizationId,
    external_id: externalId,
    agent_id: agent.agent_id,
    branch_id: agent.branch_id,
    investment_id: investment?.investment_id ?? null,
    // Offers of the sold-out investment are mostly gone; a few others were withdrawn.
    is_active: place && !place.active ? rng.chance(0.35) : !rng.chance(options.inactiveShare ?? 0.04),
    created_at: new Date(posted).toISOString(),
    offer_data: offerData,
    // Extension E12: every fifth offer has an English translation (`?lang=en`).
    ...(index % 5 === 0 ? { translations: { en: offerInEnglish(facts) } } : {}),
  };
}

/** 2026-05-01T10:00:00+02:00 style: the instant written in a local offset. */
function withOffset(epochMs: number, offset: string): string {
  const sign = offset.startsWith('-') ? -1 : 1;
  const minutes = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
  return new Date(epochMs + minutes * 60_000).toISOString().slice(0, 19) + offset;
}

export function buildDemoBundle(seed: string = DEMO_SEED, offerCount: number = DEMO_OFFER_COUNT): Bundle {
  const entities = demoEntities(seed);
  return {
    organizations: [entities.organization],
    websites: [entities.website],
    branches: entities.branches,
    agents: entities.agents,
    investments: entities.investments,
    offers: [...demoOffers(entities, offerCount)],
  };
}
