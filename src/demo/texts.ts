/**
 * Polish titles and HTML descriptions of demo offers, written from the offer's facts so that the
 * text agrees with the numbers (rooms, area, floor, price).
 */
import type { Random } from './random.js';

export interface OfferFacts {
  offerType: 'APARTMENT_SALES' | 'APARTMENT_RENTALS' | 'HOUSE_SALES' | 'HOUSE_RENTALS' | 'COMMERCIAL_RENTALS';
  rooms: number;
  size: number;
  city: string;
  district: string;
  subdistrict: string;
  street: string;
  floor: number;
  totalFloors: number;
  yearBuilt: number;
  buildingType: string;
  buildingMaterial: string | null;
  kitchenType: string;
  hasBalcony: boolean;
  hasTerrace: boolean;
  hasGarden: boolean;
  hasElevator: boolean;
  hasStorage: boolean;
  isFurnished: boolean;
  isGated: boolean;
  parking: string;
  condition: string;
  price: number;
  pricePerMeter: number;
  administrativeRent: number | null;
  investmentName: string | null;
  bathrooms: number | null;
}

/** 912000 -> "912 000" (Polish thousands separator). */
export function formatAmount(value: number): string {
  const [whole, fraction] = value.toFixed(value % 1 === 0 ? 0 : 2).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return fraction ? `${grouped},${fraction}` : grouped;
}

const area = (value: number) => `${formatAmount(value)} m²`;

function roomsAdjective(rooms: number): string {
  return rooms === 1 ? 'jednopokojowe' : `${rooms}-pokojowe`;
}

function floorPhrase(floor: number): string {
  return floor === 0 ? 'na parterze' : `na ${floor}. piętrze`;
}

const TRANSPORT: Readonly<Record<string, readonly string[]>> = {
  Warszawa: ['stacji metra', 'przystanku tramwajowego', 'stacji Szybkiej Kolei Miejskiej'],
  Kraków: ['przystanku tramwajowego', 'pętli autobusowej', 'dworca Kraków Główny'],
  Gdańsk: ['przystanku SKM', 'przystanku tramwajowego', 'Pomorskiej Kolei Metropolitalnej'],
  Wrocław: ['przystanku tramwajowego', 'dworca Wrocław Główny', 'ścieżki rowerowej wzdłuż Odry'],
};

export function offerTitle(f: OfferFacts, rng: Random): string {
  const feature = f.hasTerrace ? ' z tarasem' : f.hasGarden ? ' z ogródkiem' : f.hasBalcony ? ' z balkonem' : '';
  switch (f.offerType) {
    case 'APARTMENT_SALES': {
      const adjective = rng.pick(['Przestronne', 'Słoneczne', 'Nowoczesne', 'Jasne', 'Komfortowe']);
      if (f.rooms === 1) return `Kawalerka${feature}, ${f.district}, ${area(f.size)}`;
      const where = f.investmentName ? f.investmentName : `${f.district}, ul. ${f.street}`;
      return `${adjective} ${roomsAdjective(f.rooms)} mieszkanie${feature} – ${where}`;
    }
    case 'APARTMENT_RENTALS':
      if (f.rooms === 1) return `Kawalerka do wynajęcia${feature}, ${f.district}`;
      return `Do wynajęcia: ${roomsAdjective(f.rooms)} mieszkanie${feature}, ${f.district}`;
    case 'HOUSE_SALES':
      return `Dom ${f.buildingType === 'TERRACED_HOUSE' ? 'w zabudowie szeregowej' : f.buildingType === 'SEMI_DETACHED_HOUSE' ? 'w zabudowie bliźniaczej' : 'wolnostojący'} ${area(f.size)} z ogrodem, ${f.district}`;
    case 'HOUSE_RENTALS':
      return `Dom do wynajęcia, ${f.rooms} pokoi, ${f.district}`;
    case 'COMMERCIAL_RENTALS':
      return `Lokal usługowy ${area(f.size)} przy ul. ${f.street}, ${f.district}`;
  }
}

function layoutList(f: OfferFacts, rng: Random): string {
  const items: string[] = [];
  let left = f.size;
  if (f.kitchenType === 'KITCHENETTE') {
    const living = Math.round(f.size * (f.rooms === 1 ? 0.55 : 0.34));
    items.push(`salon z aneksem kuchennym (${living} m²)`);
    left -= living;
  } else {
    const living = Math.round(f.size * 0.28);
    const kitchen = rng.int(7, 12);
    items.push(`salon (${living} m²)`, `kuchnia ${f.kitchenType === 'SEPARATE' ? 'z oknem' : 'otwarta na jadalnię'} (${kitchen} m²)`);
    left -= living + kitchen;
  }
  const livingRoom = Math.round(f.size * 0.3);
  for (let room = 2; room <= f.rooms; room += 1) {
    const size = Math.max(8, Math.min(livingRoom - 2, Math.round((left * 0.6) / Math.max(1, f.rooms - 1))));
    items.push(room === 2 ? `sypialnia główna (${size} m²)` : `pokój (${size} m²)`);
  }
  items.push(f.bathrooms && f.bathrooms > 1 ? 'łazienka z wanną i osobne WC' : 'łazienka z prysznicem');
  items.push('przedpokój z miejscem na zabudowę');
  if (f.hasBalcony) items.push(`balkon (${rng.int(3, 9)} m²)`);
  if (f.hasTerrace) items.push(`taras (${rng.int(12, 40)} m²)`);
  if (f.hasStorage) items.push('komórka lokatorska');
  return `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;
}

const EXTRA_PARAGRAPHS: readonly string[] = [
  'Okolica oferuje pełną infrastrukturę: szkoły podstawowe, przedszkola, przychodnię, apteki oraz liczne sklepy i punkty usługowe. W pobliżu znajdują się tereny zielone idealne na spacery i aktywny wypoczynek.',
  'Budynek jest zarządzany przez profesjonalnego zarządcę, części wspólne są zadbane i regularnie sprzątane. Na klatce schodowej znajduje się monitoring, a wejście zabezpieczone jest domofonem.',
  'Pomagamy w uzyskaniu finansowania: nasi doradcy kredytowi współpracują z wiodącymi bankami i bezpłatnie porównają dla Państwa oferty kredytów hipotecznych.',
  'Mieszkanie jest bardzo ciche – okna sypialni wychodzą na zielone podwórze. Dzięki ustawności pomieszczeń łatwo zaaranżować je według własnych potrzeb, także jako przestrzeń do pracy zdalnej.',
  'Do dyspozycji mieszkańców jest plac zabaw, stojaki na rowery oraz wózkownia. W najbliższej okolicy powstają nowe ścieżki rowerowe i skwery.',
  'Lokal przeszedł w ostatnich latach remont instalacji elektrycznej i wodno-kanalizacyjnej. Wymieniono także drzwi wejściowe na antywłamaniowe oraz okna na energooszczędne.',
  'Zapewniamy pełną obsługę transakcji: od prezentacji, przez sprawdzenie stanu prawnego, aż po podpisanie aktu notarialnego i protokół przekazania lokalu.',
  'W cenie znajduje się zabudowa kuchenna ze sprzętem AGD (płyta indukcyjna, piekarnik, zmywarka, lodówka) oraz szafy wnękowe w przedpokoju i sypialni.',
];

/** The HTML description; extraParagraphs adds general paragraphs (longer offers for benchmarks). */
export function offerDescription(f: OfferFacts, rng: Random, extraParagraphs = 0): string {
  const parts: string[] = [];
  const place = `${f.subdistrict}, ${f.district}`;
  const transport = rng.pick(TRANSPORT[f.city] ?? ['przystanku komunikacji miejskiej']);
  const minutes = rng.int(3, 12);
  if (f.offerType === 'COMMERCIAL_RENTALS') {
    parts.push(`<p><strong>Lokal usługowy o powierzchni ${area(f.size)}</strong> ${floorPhrase(f.floor)} budynku przy ul. ${f.street} (${place}). Witryna od strony ulicy, duży ruch pieszy, ${f.rooms} ${f.rooms === 1 ? 'pomieszczenie' : 'pomieszczenia'} oraz zaplecze socjalne z WC.</p>`);
    parts.push('<p>Lokal sprawdzi się jako biuro, gabinet, kawiarnia &amp; piekarnia rzemieślnicza lub salon usługowy. Możliwość montażu szyldu na elewacji.</p>');
  } else if (f.offerType === 'HOUSE_SALES' || f.offerType === 'HOUSE_RENTALS') {
    parts.push(`<p><strong>Dom o powierzchni użytkowej ${area(f.size)}</strong> w spokojnej części dzielnicy ${f.district} (${f.subdistrict}), przy ul. ${f.street}. ${f.rooms} pokoi, ${f.bathrooms ?? 2} łazienki, garaż i zadbany ogród.</p>`);
    parts.push(`<p>Na parterze salon z kominkiem i wyjściem na taras, kuchnia z jadalnią &amp; spiżarnią oraz gabinet. Na piętrze sypialnie i łazienka. Budynek z ${f.yearBuilt} roku${f.buildingMaterial ? `, wzniesiony z materiału: ${f.buildingMaterial}` : ''}.</p>`);
  } else {
    const building = f.investmentName
      ? `w inwestycji <strong>${f.investmentName}</strong>`
      : `w ${f.totalFloors}-piętrowym budynku z ${f.yearBuilt} roku`;
    parts.push(`<p><strong>${f.rooms === 1 ? 'Kawalerka' : `Mieszkanie ${roomsAdjective(f.rooms)}`} o powierzchni ${area(f.size)}</strong> ${floorPhrase(f.floor)} ${building}, ul. ${f.street} (${place}).</p>`);
    parts.push(`<p>Układ pomieszczeń:</p>${layoutList(f, rng)}`);
    const extras = [
      f.hasElevator ? 'winda' : null,
      f.parking === 'UNDERGROUND_PARKING_LOT' ? 'hala garażowa' : f.parking === 'PARKING_LOT' ? 'parking dla mieszkańców' : null,
      f.isGated ? 'ogrodzony teren z ochroną' : null,
    ].filter(Boolean);
    const state = f.condition === 'DEVELOPER_STATE'
      ? 'Mieszkanie w stanie deweloperskim – gotowe do wykończenia według własnego projektu.'
      : 'Mieszkanie jest zadbane i gotowe do zamieszkania.';
    parts.push(`<p>${extras.length > 0 ? `Do dyspozycji mieszkańców: ${extras.join(', ')}. ` : ''}${state}</p>`);
  }
  parts.push(`<p>Świetna lokalizacja: ${minutes} minut pieszo do ${transport}. W okolicy sklepy, kawiarnie, szkoły i tereny rekreacyjne.</p>`);
  for (const paragraph of rng.sample(EXTRA_PARAGRAPHS, extraParagraphs)) parts.push(`<p>${paragraph}</p>`);
  const rental = f.offerType === 'APARTMENT_RENTALS' || f.offerType === 'HOUSE_RENTALS' || f.offerType === 'COMMERCIAL_RENTALS';
  if (rental) {
    parts.push(`<p>Czynsz najmu: <strong>${formatAmount(f.price)} zł miesięcznie</strong>${f.administrativeRent ? ` + opłaty administracyjne ${formatAmount(f.administrativeRent)} zł` : ''}. Kaucja w wysokości jednomiesięcznego czynszu. ${f.isFurnished ? 'Lokal umeblowany i wyposażony.' : 'Lokal nieumeblowany.'}</p>`);
  } else {
    parts.push(`<p>Cena: <strong>${formatAmount(f.price)} zł</strong> (${formatAmount(f.pricePerMeter)} zł/m²)${f.administrativeRent ? `, czynsz administracyjny ${formatAmount(f.administrativeRent)} zł` : ''}. Zapraszamy na prezentację – prosimy o wcześniejszy kontakt telefoniczny.</p>`);
  }
  parts.push('<p><em>Niniejsze ogłoszenie nie stanowi oferty w rozumieniu art. 66 Kodeksu cywilnego.</em></p>');
  return parts.join('\n');
}

/**
 * Translations (extension E12): an English title and description of an offer, from its facts, for
 * the demo's translated offers (`?lang=en`). Deterministic: no random draw, so the demo's other
 * data stays as it was.
 */
export function offerInEnglish(f: OfferFacts): { title: string; description: string } {
  const what =
    f.offerType === 'HOUSE_SALES' || f.offerType === 'HOUSE_RENTALS'
      ? 'house'
      : f.offerType === 'COMMERCIAL_RENTALS'
        ? 'commercial space'
        : `${f.rooms}-room flat`;
  const deal = f.offerType.endsWith('RENTALS') ? 'for rent' : 'for sale';
  const size = String(f.size);
  const extras = [f.hasBalcony && 'a balcony', f.hasTerrace && 'a terrace', f.hasGarden && 'a garden', f.hasElevator && 'a lift']
    .filter((x): x is string => typeof x === 'string');
  const floor = f.floor === 0 ? 'on the ground floor' : `on floor ${f.floor} of ${f.totalFloors}`;
  return {
    title: `${what[0]!.toUpperCase()}${what.slice(1)} ${deal}, ${size} m², ${f.city} ${f.district}`,
    description:
      `<p>A ${what} of ${size} m² ${deal} in ${f.city}, ${f.district} (${f.street}), ${floor}, built in ${f.yearBuilt}.</p>` +
      (extras.length > 0 ? `<p>With ${extras.join(', ')}.</p>` : '') +
      `<p>Price: ${formatAmount(f.price)} PLN${f.offerType.endsWith('RENTALS') ? ' a month' : ''}.</p>`,
  };
}
