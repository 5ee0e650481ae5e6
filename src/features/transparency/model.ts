/**
 * The price-transparency dataset (extension E10), pure: the developer's data and its checks (NIP,
 * REGON and KRS numbers), the ministry's CSV template (58 columns, `;`, UTF-8 without BOM, `X` for
 * an empty value), the CSV of one day built from the offers and their price history, and the
 * harvester XML (`urn:otwarte-dane:harvester:1.13`) that lists one CSV per day.
 *
 * Everything here is a function of its inputs (the day is given, never read from a clock), so the
 * same day and the same data always give the same bytes.
 */

/** An address as the dataset names it (voivodeship, county, community, city, ...). */
export interface Address {
  readonly voivodeship: string | null;
  readonly county: string | null;
  readonly community: string | null;
  readonly city: string | null;
  readonly street: string | null;
  readonly building_number: string | null;
  readonly flat_number: string | null;
  readonly postcode: string | null;
}

export const ADDRESS_KEYS = ['voivodeship', 'county', 'community', 'city', 'street', 'building_number', 'flat_number', 'postcode'] as const;

/** A Polish postcode: NN-NNN. */
export const POSTCODE_PATTERN = '^[0-9]{2}-[0-9]{3}$';

export interface Developer {
  readonly legal_name: string | null;
  readonly legal_form: string | null;
  readonly krs: string | null;
  readonly ceidg: string | null;
  readonly nip: string | null;
  readonly regon: string | null;
  readonly phone: string | null;
  readonly email: string | null;
  readonly fax: string | null;
  readonly website: string | null;
  readonly seat: Address | null;
  readonly sales_offices: Address[];
  readonly contact_method: string | null;
}

export const DEVELOPER_TEXT_KEYS = [
  'legal_name', 'legal_form', 'krs', 'ceidg', 'nip', 'regon', 'phone', 'email', 'fax', 'website', 'contact_method',
] as const;

type Loose<T> = { [K in keyof T]?: T[K] | null | undefined };

/** An address with every key present (null when absent). */
export function normalizeAddress(address: Loose<Address>): Address {
  return Object.fromEntries(ADDRESS_KEYS.map((key) => [key, address[key] ?? null])) as unknown as Address;
}

/** The developer's data with every key present, addresses normalized. */
export function normalizeDeveloper(developer: Loose<Omit<Developer, 'seat' | 'sales_offices'>> & {
  seat?: Loose<Address> | null | undefined;
  sales_offices?: ReadonlyArray<Loose<Address>> | null | undefined;
}): Developer {
  const text = Object.fromEntries(DEVELOPER_TEXT_KEYS.map((key) => [key, developer[key] ?? null]));
  return {
    ...(text as Record<(typeof DEVELOPER_TEXT_KEYS)[number], string | null>),
    seat: developer.seat ? normalizeAddress(developer.seat) : null,
    sales_offices: (developer.sales_offices ?? []).map(normalizeAddress),
  };
}

const digits = (value: string): number[] => [...value].map(Number);

/** NIP: 10 digits, the last the weighted sum (6 5 7 2 3 4 5 6 7) of the others modulo 11. */
export function isValidNip(value: string): boolean {
  if (!/^[0-9]{10}$/.test(value)) return false;
  const d = digits(value);
  const sum = [6, 5, 7, 2, 3, 4, 5, 6, 7].reduce((acc, w, i) => acc + w * d[i]!, 0);
  const check = sum % 11;
  return check !== 10 && check === d[9];
}

function regonCheck(d: number[], weights: readonly number[]): number {
  const check = weights.reduce((acc, w, i) => acc + w * d[i]!, 0) % 11;
  return check === 10 ? 0 : check;
}

/** REGON: 9 digits (weights 8 9 2 3 4 5 6 7) or 14 (a valid 9-digit REGON, then weights 2 4 8 5 0 9 7 3 6 1 2 4 8). */
export function isValidRegon(value: string): boolean {
  if (!/^([0-9]{9}|[0-9]{14})$/.test(value)) return false;
  const d = digits(value);
  if (regonCheck(d, [8, 9, 2, 3, 4, 5, 6, 7]) !== d[8]) return false;
  return value.length === 9 || regonCheck(d, [2, 4, 8, 5, 0, 9, 7, 3, 6, 1, 2, 4, 8]) === d[13];
}

/** KRS: 10 digits (the register gives no check digit). */
export const isValidKrs = (value: string): boolean => /^[0-9]{10}$/.test(value);

/**
 * What the dataset needs of the developer's data and lacks: every field but `fax`, with `krs` or
 * `ceidg`, a seat and at least one sales office, each address with every part but `flat_number`.
 * Empty: the dataset can be turned on.
 */
export function missingDeveloperFields(developer: Developer | null): string[] {
  if (!developer) return ['developer'];
  const missing: string[] = [];
  for (const key of DEVELOPER_TEXT_KEYS) {
    if (key === 'fax' || key === 'krs' || key === 'ceidg') continue;
    if (!developer[key]) missing.push(`developer.${key}`);
  }
  if (!developer.krs && !developer.ceidg) missing.push('developer.krs or developer.ceidg');
  const address = (path: string, a: Address | null | undefined) => {
    if (!a) return missing.push(path);
    for (const key of ADDRESS_KEYS) if (key !== 'flat_number' && !a[key]) missing.push(`${path}.${key}`);
    return undefined;
  };
  address('developer.seat', developer.seat);
  if (developer.sales_offices.length === 0) missing.push('developer.sales_offices');
  developer.sales_offices.forEach((office, i) => address(`developer.sales_offices[${i}]`, office));
  return missing;
}

/** The marker of an empty value, as the template asks. */
export const EMPTY = 'X';

const SEAT = 'adresu siedziby/głównego miejsca wykonywania działalności gospodarczej dewelopera';
const OFFICE = 'adresu lokalu, w którym prowadzona jest sprzedaż';
const SITE = 'lokalizacji przedsięwzięcia deweloperskiego lub zadania inwestycyjnego';
const OWNERSHIP_ACT = 'o których mowa w art. 2 ust. 4 ustawy z dnia 24 czerwca 1994 r. o własności lokali';
const ART_19A = 'o których mowa w art. 19a ust. 1 pkt 1), 2) lub 3)';
const UNIT_PRICE = 'Cena lokalu mieszkalnego lub domu jednorodzinnego będących przedmiotem umowy stanowiąca iloczyn ceny m2 oraz powierzchni';
const FULL_PRICE = `Cena lokalu mieszkalnego lub domu jednorodzinnego uwzględniająca cenę lokalu stanowiącą iloczyn powierzchni oraz metrażu i innych składowych ceny, ${ART_19A}`;
const RIGHTS = 'praw niezbędnych do korzystania z lokalu mieszkalnego lub domu jednorodzinnego';
const OTHER_PAYMENTS = 'innych świadczeń pieniężnych, które nabywca zobowiązany jest spełnić na rzecz dewelopera w wykonaniu umowy przenoszącej własność';

/** The template's 58 columns, names verbatim, in order. */
export const CSV_COLUMNS: readonly string[] = [
  'Nazwa dewelopera',
  'Forma prawna dewelopera',
  'Nr KRS',
  'Nr wpisu do CEiDG',
  'Nr NIP',
  'Nr REGON',
  'Nr telefonu',
  'Adres poczty elektronicznej',
  'Nr faxu',
  'Adres strony internetowej dewelopera',
  ...['Województwo', 'Powiat', 'Gmina', 'Miejscowość', 'Ulica', 'Nr nieruchomości', 'Nr lokalu', 'Kod pocztowy'].map((p) => `${p} ${SEAT}`),
  ...['Województwo', 'Powiat', 'Gmina', 'Miejscowość', 'Ulica', 'Nr nieruchomości', 'Nr lokalu', 'Kod pocztowy'].map((p) => `${p} ${OFFICE}`),
  'Dodatkowe lokalizacje, w których prowadzona jest sprzedaż',
  'Sposób kontaktu nabywcy z deweloperem',
  ...['Województwo', 'Powiat', 'Gmina', 'Miejscowość', 'Ulica', 'Nr nieruchomości', 'Kod pocztowy'].map((p) => `${p} ${SITE}`),
  'Rodzaj nieruchomości: lokal mieszkalny, dom jednorodzinny',
  'Nr lokalu lub domu jednorodzinnego nadany przez dewelopera',
  'Cena m 2 powierzchni użytkowej lokalu mieszkalnego / domu jednorodzinnego [zł]',
  'Data od której cena obowiązuje cena m 2 powierzchni użytkowej lokalu mieszkalnego / domu jednorodzinnego',
  `${UNIT_PRICE} [zł]`,
  `Data od której cena obowiązuje ${UNIT_PRICE.charAt(0).toLowerCase()}${UNIT_PRICE.slice(1)}`,
  `${FULL_PRICE} [zł]`,
  `Data od której obowiązuje ${FULL_PRICE.charAt(0).toLowerCase()}${FULL_PRICE.slice(1)}`,
  'Rodzaj części nieruchomości będących przedmiotem umowy',
  'Oznaczenie części nieruchomości nadane przez dewelopera',
  'Cena części nieruchomości, będących przedmiotem umowy [zł]',
  'Data od której obowiązuje cena części nieruchomości, będących przedmiotem umowy',
  `Rodzaj pomieszczeń przynależnych, ${OWNERSHIP_ACT}`,
  `Oznaczenie pomieszczeń przynależnych, ${OWNERSHIP_ACT}`,
  `Wyszczególnienie cen pomieszczeń przynależnych, ${OWNERSHIP_ACT} [zł]`,
  `Data od której obowiązuje cena wyszczególnionych pomieszczeń przynależnych, ${OWNERSHIP_ACT}`,
  `Wyszczególnienie ${RIGHTS}`,
  `Wartość ${RIGHTS} [zł]`,
  `Data od której obowiązuje cena wartości ${RIGHTS}`,
  `Wyszczególnienie rodzajów ${OTHER_PAYMENTS}`,
  `Wartość ${OTHER_PAYMENTS} [zł]`,
  `Data od której obowiązuje cena wartości ${OTHER_PAYMENTS}`,
  'Adres strony internetowej, pod którym dostępny jest prospekt informacyjny',
];
if (CSV_COLUMNS.length !== 58) throw new Error(`the template has 58 columns, not ${CSV_COLUMNS.length}`);

/** One ancillary price as the history keeps it. */
export interface AncillaryEntry {
  readonly kind: string;
  readonly label: string | null;
  readonly price: number;
}

/** One entry of an offer's price history (oldest first in a list). */
export interface HistoryEntry {
  /** The Europe/Warsaw day of valid_from, YYYY-MM-DD. */
  readonly day: string;
  readonly price: string | null;
  readonly price_per_meter: string | null;
  readonly ancillary: readonly AncillaryEntry[];
}

/** One offer of the dataset, with its history up to the end of the file's day. */
export interface DatasetOffer {
  readonly offer_id: string;
  readonly external_id: string;
  readonly offer_type: string;
  readonly property_size: string | null;
  readonly investment_location: Address | null;
  readonly history: readonly HistoryEntry[];
}

/** offer_type values that sell a flat or a house, and how the template names them. */
export const DATASET_OFFER_TYPES: Readonly<Record<string, string>> = {
  APARTMENT_SALES: 'lokal mieszkalny',
  HOUSE_SALES: 'dom jednorodzinny',
};

/** Ancillary kinds the template lists as parts of the property (parking) or as rooms that belong to it. */
const PART_KINDS: Readonly<Record<string, string>> = { parking: 'miejsce postojowe', garage: 'garaż' };
const ROOM_KINDS: Readonly<Record<string, string>> = { storage: 'komórka lokatorska', other: 'pomieszczenie przynależne' };

/** A decimal as the file writes it: JavaScript's shortest form, a dot, no thousands separator. */
const decimal = (text: string | null): string | null => (text === null ? null : String(Number(text)));

/** Rounds half away from zero to 2 decimals, in integer hundredths (exact for prices of this size). */
function hundredths(value: number): string {
  const cents = Math.sign(value) * Math.round(Math.abs(value) * 100);
  return String(cents / 100);
}

/** The day since which the value `pick` gives for the last entry has held (walking back over equal values). */
function since(history: readonly HistoryEntry[], pick: (e: HistoryEntry) => string): string {
  let i = history.length - 1;
  const value = pick(history[i]!);
  while (i > 0 && pick(history[i - 1]!) === value) i -= 1;
  return history[i]!.day;
}

/** One cell: empty is X; a value with `;`, a quote or a line break is quoted, quotes doubled. */
export function csvCell(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return EMPTY;
  return /[;"\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

const addressCells = (a: Address | null, keys: readonly (keyof Address)[]) => keys.map((k) => a?.[k] ?? null);
const FULL_ADDRESS: readonly (keyof Address)[] = ADDRESS_KEYS;
const SITE_ADDRESS: readonly (keyof Address)[] = ['voivodeship', 'county', 'community', 'city', 'street', 'building_number', 'postcode'];

/** An address on one line, for "Dodatkowe lokalizacje". */
function addressLine(a: Address): string {
  const street = [a.street, [a.building_number, a.flat_number].filter(Boolean).join('/')].filter(Boolean).join(' ');
  return [street, [a.postcode, a.city].filter(Boolean).join(' '), a.community && `gm. ${a.community}`, a.county && `pow. ${a.county}`, a.voivodeship && `woj. ${a.voivodeship}`]
    .filter(Boolean)
    .join(', ');
}

/** The cells of one offer's row (58), as the offer stood at the end of the file's day. */
export function rowCells(developer: Developer, offer: DatasetOffer): Array<string | null> {
  const latest = offer.history.at(-1)!;
  const price = decimal(latest.price);
  const size = offer.property_size === null ? null : Number(offer.property_size);
  // The price per m² as given; else the price over the area, to the grosz.
  const perMeter = decimal(latest.price_per_meter) ?? (price !== null && size ? hundredths(Number(price) / size) : null);
  const parts = latest.ancillary.filter((a) => a.kind in PART_KINDS);
  const rooms = latest.ancillary.filter((a) => a.kind in ROOM_KINDS);
  const total = price === null ? null : hundredths(latest.ancillary.reduce((sum, a) => sum + a.price, Number(price)));
  const list = (items: readonly AncillaryEntry[], f: (a: AncillaryEntry) => string) => (items.length === 0 ? null : items.map(f).join(', '));
  const ancillaryKey = (kinds: Readonly<Record<string, string>>) => (e: HistoryEntry) =>
    JSON.stringify(e.ancillary.filter((a) => a.kind in kinds));
  const priceDay = since(offer.history, (e) => String(e.price));
  const [first, ...others] = developer.sales_offices;
  return [
    developer.legal_name,
    developer.legal_form,
    developer.krs,
    developer.ceidg,
    developer.nip,
    developer.regon,
    developer.phone,
    developer.email,
    developer.fax,
    developer.website,
    ...addressCells(developer.seat, FULL_ADDRESS),
    ...addressCells(first ?? null, FULL_ADDRESS),
    others.length === 0 ? null : others.map(addressLine).join(' | '),
    developer.contact_method,
    ...addressCells(offer.investment_location, SITE_ADDRESS),
    DATASET_OFFER_TYPES[offer.offer_type] ?? null,
    offer.external_id,
    perMeter,
    perMeter === null ? null : since(offer.history, (e) => String(e.price_per_meter ?? e.price)),
    price,
    price === null ? null : priceDay,
    total,
    total === null ? null : since(offer.history, (e) => `${e.price}|${JSON.stringify(e.ancillary)}`),
    list(parts, (a) => PART_KINDS[a.kind]!),
    list(parts, (a) => a.label ?? EMPTY),
    list(parts, (a) => String(a.price)),
    parts.length === 0 ? null : since(offer.history, ancillaryKey(PART_KINDS)),
    list(rooms, (a) => ROOM_KINDS[a.kind]!),
    list(rooms, (a) => a.label ?? EMPTY),
    list(rooms, (a) => String(a.price)),
    rooms.length === 0 ? null : since(offer.history, ancillaryKey(ROOM_KINDS)),
    null,
    null,
    null,
    null,
    null,
    null,
    null,
  ];
}

/** Cells of every row that come from the developer alone (the first 28): written once per file. */
const DEVELOPER_CELLS = 28;

/** The whole CSV: the header and one row per offer (in the given order), CRLF line ends, no BOM. */
export function buildCsv(developer: Developer, offers: readonly DatasetOffer[]): string {
  const lines = [CSV_COLUMNS.map(csvCell).join(';')];
  let prefix: string | undefined;
  for (const offer of offers) {
    const cells = rowCells(developer, offer);
    prefix ??= cells.slice(0, DEVELOPER_CELLS).map(csvCell).join(';');
    lines.push(`${prefix};${cells.slice(DEVELOPER_CELLS).map(csvCell).join(';')}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** Escapes text for XML element content and attribute values. */
export function xmlText(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** The harvester schema's namespace this service writes. */
export const HARVESTER_NAMESPACE = 'urn:otwarte-dane:harvester:1.13';

/** The dataset's identifier: the organization's id without hyphens (32 characters, stable forever). */
export const datasetExtIdent = (organizationId: string): string => organizationId.replace(/-/g, '');
/** One day's resource: the first 24 characters of the dataset's identifier and the day (32 characters). */
export const resourceExtIdent = (organizationId: string, day: string): string =>
  `${datasetExtIdent(organizationId).slice(0, 24)}${day.replace(/-/g, '')}`;

/** The URL of one day's CSV under the public URL the operator gave. */
export const dayFileUrl = (publicUrl: string, organizationId: string, day: string): string =>
  `${publicUrl.replace(/\/+$/, '')}/open-data/${organizationId}/prices/${day}.csv`;

const bool = (name: string, value: boolean) => `<${name}>${value}</${name}>`;

/**
 * The harvester XML: one dataset for the organization, one resource per day from the first day of
 * its history to today (oldest first), each pointing at that day's CSV.
 */
export function buildDatasetXml(input: { organizationId: string; developerName: string; publicUrl: string; days: readonly string[] }): string {
  const name = xmlText(input.developerName);
  const resources = input.days.map(
    (day) =>
      `<resource status="published">` +
      `<extIdent>${resourceExtIdent(input.organizationId, day)}</extIdent>` +
      `<url>${xmlText(dayFileUrl(input.publicUrl, input.organizationId, day))}</url>` +
      `<title><polish>Ceny ofertowe mieszkań dewelopera ${name} ${day}</polish><english>Offer prices of flats of the developer ${name} ${day}</english></title>` +
      `<description><polish>Dane o cenach ofertowych mieszkań dewelopera ${name} na dzień ${day}.</polish>` +
      `<english>Offer prices of flats and houses of the developer ${name} on ${day}.</english></description>` +
      `<availability>remote</availability>` +
      `<dataDate>${day}</dataDate>` +
      `<specialSigns><specialSign>${EMPTY}</specialSign></specialSigns>` +
      bool('hasDynamicData', false) +
      bool('hasHighValueData', true) +
      bool('hasHighValueDataFromEuropeanCommissionList', false) +
      bool('hasResearchData', false) +
      bool('containsProtectedData', false) +
      `</resource>`,
  );
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<ns2:datasets xmlns:ns2="${HARVESTER_NAMESPACE}">` +
    `<dataset status="published">` +
    `<extIdent>${datasetExtIdent(input.organizationId)}</extIdent>` +
    `<title><polish>Ceny ofertowe mieszkań dewelopera ${name}</polish><english>Offer prices of flats of the developer ${name}</english></title>` +
    `<description><polish>Zbiór danych zawiera informacje o cenach ofertowych mieszkań i domów jednorodzinnych dewelopera ${name}, ` +
    `udostępniane zgodnie z art. 19b ust. 1 ustawy z dnia 20 maja 2021 r. o ochronie praw nabywcy lokalu mieszkalnego lub domu jednorodzinnego ` +
    `oraz Deweloperskim Funduszu Gwarancyjnym.</polish>` +
    `<english>Offer prices of flats and houses of the developer ${name}, published under art. 19b(1) of the Polish act of 20 May 2021 ` +
    `on the protection of the rights of buyers of a flat or a house and the Developer Guarantee Fund.</english></description>` +
    `<updateFrequency>daily</updateFrequency>` +
    bool('hasDynamicData', false) +
    bool('hasHighValueData', true) +
    bool('hasHighValueDataFromEuropeanCommissionList', false) +
    bool('hasResearchData', false) +
    `<categories><category>ECON</category></categories>` +
    `<resources>${resources.join('')}</resources>` +
    `<tags><tag lang="pl">Deweloper</tag><tag lang="pl">ceny mieszkań</tag></tags>` +
    `</dataset>` +
    `</ns2:datasets>\n`
  );
}

const WARSAW_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw', year: 'numeric', month: '2-digit', day: '2-digit' });
const WARSAW_HOUR = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Warsaw', hour: '2-digit', hourCycle: 'h23' });

/** The calendar day in Europe/Warsaw of an instant, YYYY-MM-DD (the day the dataset's files are named by). */
export function warsawDay(at: Date): string {
  return WARSAW_DAY.format(at);
}

/** The instant a Europe/Warsaw day ends (midnight starting the next day). */
export function endOfWarsawDay(day: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const utcMidnight = Date.UTC(y, m - 1, d + 1);
  // Warsaw is UTC+1 or UTC+2: try both offsets, keep the one whose local day is the next day at 00:00.
  for (const hours of [1, 2]) {
    const at = new Date(utcMidnight - hours * 3_600_000);
    const local = WARSAW_HOUR.format(at);
    if (local === '00' && warsawDay(at) === warsawDay(new Date(utcMidnight))) return at;
  }
  return new Date(utcMidnight - 3_600_000);
}

/** Every day from `first` to `last`, inclusive, YYYY-MM-DD. */
export function daysBetween(first: string, last: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${first}T00:00:00Z`); t <= Date.parse(`${last}T00:00:00Z`); t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** A UUID in its hyphenated text form, any letter case. */
export const isUuidText = (value: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

/** A real calendar day written YYYY-MM-DD. */
export function isDay(value: string): boolean {
  return /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;
}
