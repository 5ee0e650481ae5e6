/**
 * The four cities of the demo data set with real districts, estates and streets, the voivodeship,
 * postcode prefixes, coordinates of each district and the going rates per square metre in PLN.
 */

export interface District {
  readonly name: string;
  /** Estates / neighbourhoods (address_subdistrict). */
  readonly subdistricts: readonly string[];
  readonly streets: readonly string[];
  readonly postcodePrefix: string;
  readonly lat: number;
  readonly lon: number;
  /** Old town districts have tenements; outer districts more new estates and houses. */
  readonly character: 'historic' | 'central' | 'residential' | 'suburban';
}

export interface City {
  readonly name: string;
  /** Voivodeship (address_state). */
  readonly state: string;
  readonly districts: readonly District[];
  /** Sale price per m² in PLN, [min, max]. */
  readonly salePerMeter: readonly [number, number];
  /** Monthly rent per m² in PLN, [min, max]. */
  readonly rentPerMeter: readonly [number, number];
  /** Phone area code. */
  readonly areaCode: string;
}

export const CITIES: readonly City[] = [
  {
    name: 'Warszawa',
    state: 'mazowieckie',
    areaCode: '22',
    salePerMeter: [13500, 26000],
    rentPerMeter: [65, 110],
    districts: [
      { name: 'Śródmieście', subdistricts: ['Śródmieście Południowe', 'Muranów', 'Powiśle'], streets: ['Marszałkowska', 'Hoża', 'Wilcza', 'Poznańska', 'Nowy Świat', 'Mokotowska'], postcodePrefix: '00', lat: 52.2297, lon: 21.0122, character: 'historic' },
      { name: 'Mokotów', subdistricts: ['Stary Mokotów', 'Górny Mokotów', 'Sadyba', 'Ksawerów'], streets: ['Puławska', 'Racławicka', 'Odyńca', 'Woronicza', 'Bukowińska', 'Madalińskiego'], postcodePrefix: '02', lat: 52.1935, lon: 21.0358, character: 'central' },
      { name: 'Wola', subdistricts: ['Mirów', 'Czyste', 'Odolany'], streets: ['Żelazna', 'Grzybowska', 'Prosta', 'Kasprzaka', 'Górczewska', 'Wolska'], postcodePrefix: '01', lat: 52.2361, lon: 20.9746, character: 'central' },
      { name: 'Żoliborz', subdistricts: ['Stary Żoliborz', 'Sady Żoliborskie', 'Marymont-Kaskada'], streets: ['Słowackiego', 'Mickiewicza', 'Krasińskiego', 'Popiełuszki'], postcodePrefix: '01', lat: 52.2676, lon: 20.9829, character: 'central' },
      { name: 'Ursynów', subdistricts: ['Natolin', 'Kabaty', 'Stokłosy'], streets: ['Komisji Edukacji Narodowej', 'Dereniowa', 'Puszczyka', 'Surowieckiego', 'Wąwozowa'], postcodePrefix: '02', lat: 52.1410, lon: 21.0320, character: 'residential' },
      { name: 'Praga-Południe', subdistricts: ['Saska Kępa', 'Gocław', 'Grochów'], streets: ['Grochowska', 'Francuska', 'Zamieniecka', 'Ostrobramska', 'Meissnera'], postcodePrefix: '03', lat: 52.2395, lon: 21.0830, character: 'residential' },
      { name: 'Wilanów', subdistricts: ['Miasteczko Wilanów', 'Zawady', 'Powsin'], streets: ['Sarmacka', 'Klimczaka', 'Branickiego', 'Aleja Rzeczypospolitej', 'Hlonda'], postcodePrefix: '02', lat: 52.1636, lon: 21.0870, character: 'suburban' },
      { name: 'Bielany', subdistricts: ['Chomiczówka', 'Wawrzyszew', 'Stare Bielany'], streets: ['Broniewskiego', 'Marymoncka', 'Żeromskiego', 'Conrada', 'Kasprowicza'], postcodePrefix: '01', lat: 52.2851, lon: 20.9470, character: 'residential' },
    ],
  },
  {
    name: 'Kraków',
    state: 'małopolskie',
    areaCode: '12',
    salePerMeter: [12000, 21000],
    rentPerMeter: [55, 95],
    districts: [
      { name: 'Stare Miasto', subdistricts: ['Kleparz', 'Wesoła', 'Piasek'], streets: ['Długa', 'Karmelicka', 'Starowiślna', 'Dietla', 'Sławkowska'], postcodePrefix: '31', lat: 50.0614, lon: 19.9366, character: 'historic' },
      { name: 'Krowodrza', subdistricts: ['Łobzów', 'Nowa Wieś', 'Czarna Wieś'], streets: ['Królewska', 'Kazimierza Wielkiego', 'Łobzowska', 'Wrocławska'], postcodePrefix: '30', lat: 50.0775, lon: 19.9145, character: 'central' },
      { name: 'Podgórze', subdistricts: ['Zabłocie', 'Płaszów', 'Rękawka'], streets: ['Kalwaryjska', 'Limanowskiego', 'Wielicka', 'Lipowa', 'Zabłocie'], postcodePrefix: '30', lat: 50.0437, lon: 19.9612, character: 'central' },
      { name: 'Dębniki', subdistricts: ['Ruczaj', 'Ludwinów', 'Pychowice'], streets: ['Konopnickiej', 'Kapelanka', 'Zachodnia', 'Grota-Roweckiego', 'Bobrzyńskiego'], postcodePrefix: '30', lat: 50.0360, lon: 19.9050, character: 'residential' },
      { name: 'Prądnik Biały', subdistricts: ['Azory', 'Bronowice Wielkie', 'Górka Narodowa'], streets: ['Wybickiego', 'Opolska', 'Górnickiego', 'Pachońskiego'], postcodePrefix: '31', lat: 50.0930, lon: 19.9250, character: 'residential' },
      { name: 'Grzegórzki', subdistricts: ['Wesoła', 'Dąbie', 'Olsza'], streets: ['Grzegórzecka', 'Daszyńskiego', 'Mogilska', 'Fabryczna'], postcodePrefix: '31', lat: 50.0600, lon: 19.9650, character: 'central' },
    ],
  },
  {
    name: 'Gdańsk',
    state: 'pomorskie',
    areaCode: '58',
    salePerMeter: [11500, 22000],
    rentPerMeter: [55, 100],
    districts: [
      { name: 'Śródmieście', subdistricts: ['Główne Miasto', 'Dolne Miasto', 'Wyspa Spichrzów'], streets: ['Ogarna', 'Chmielna', 'Szafarnia', 'Toruńska', 'Motławska'], postcodePrefix: '80', lat: 54.3485, lon: 18.6530, character: 'historic' },
      { name: 'Wrzeszcz', subdistricts: ['Wrzeszcz Górny', 'Wrzeszcz Dolny', 'Strzyża'], streets: ['Grunwaldzka', 'Partyzantów', 'Jaśkowa Dolina', 'Wajdeloty', 'Kościuszki'], postcodePrefix: '80', lat: 54.3780, lon: 18.6040, character: 'central' },
      { name: 'Oliwa', subdistricts: ['Stara Oliwa', 'Polanki', 'Oliwa Dolna'], streets: ['Opacka', 'Pomorska', 'Piastowska', 'Polanki', 'Czyżewskiego'], postcodePrefix: '80', lat: 54.4110, lon: 18.5630, character: 'residential' },
      { name: 'Przymorze', subdistricts: ['Przymorze Wielkie', 'Przymorze Małe'], streets: ['Obrońców Wybrzeża', 'Kołobrzeska', 'Chłopska', 'Jagiellońska'], postcodePrefix: '80', lat: 54.4060, lon: 18.5910, character: 'residential' },
      { name: 'Letnica', subdistricts: ['Letnica', 'Nowe Letnica'], streets: ['Starowiejska', 'Letnicka', 'Uczniowska'], postcodePrefix: '80', lat: 54.3900, lon: 18.6400, character: 'central' },
      { name: 'Jasień', subdistricts: ['Jasień Zachód', 'Kiełpinek', 'Lawendowe Wzgórze'], streets: ['Jabłoniowa', 'Kartuska', 'Lawendowe Wzgórze', 'Niepołomicka'], postcodePrefix: '80', lat: 54.3420, lon: 18.5400, character: 'suburban' },
    ],
  },
  {
    name: 'Wrocław',
    state: 'dolnośląskie',
    areaCode: '71',
    salePerMeter: [10500, 18000],
    rentPerMeter: [50, 85],
    districts: [
      { name: 'Stare Miasto', subdistricts: ['Rynek', 'Przedmieście Świdnickie', 'Nadodrze'], streets: ['Ruska', 'Kazimierza Wielkiego', 'Świdnicka', 'Włodkowica'], postcodePrefix: '50', lat: 51.1100, lon: 17.0320, character: 'historic' },
      { name: 'Śródmieście', subdistricts: ['Ołbin', 'Plac Grunwaldzki', 'Zacisze'], streets: ['Jedności Narodowej', 'Nowowiejska', 'Sienkiewicza', 'Prusa'], postcodePrefix: '50', lat: 51.1200, lon: 17.0550, character: 'central' },
      { name: 'Krzyki', subdistricts: ['Gaj', 'Borek', 'Partynice', 'Ołtaszyn'], streets: ['Powstańców Śląskich', 'Borowska', 'Ołtaszyńska', 'Karkonoska', 'Sudecka'], postcodePrefix: '53', lat: 51.0750, lon: 17.0100, character: 'residential' },
      { name: 'Fabryczna', subdistricts: ['Nowy Dwór', 'Muchobór Wielki', 'Leśnica'], streets: ['Legnicka', 'Strzegomska', 'Grabiszyńska', 'Rogowska'], postcodePrefix: '54', lat: 51.1150, lon: 16.9600, character: 'residential' },
      { name: 'Psie Pole', subdistricts: ['Zakrzów', 'Sołtysowice', 'Karłowice'], streets: ['Kiełczowska', 'Bierutowska', 'Sołtysowicka', 'Kasprowicza'], postcodePrefix: '51', lat: 51.1450, lon: 17.1000, character: 'suburban' },
    ],
  },
];

export const FIRST_NAMES_FEMALE = ['Anna', 'Katarzyna', 'Magdalena', 'Agnieszka', 'Joanna', 'Monika', 'Aleksandra', 'Karolina', 'Natalia', 'Zofia'] as const;
export const FIRST_NAMES_MALE = ['Piotr', 'Tomasz', 'Paweł', 'Michał', 'Krzysztof', 'Marcin', 'Jakub', 'Łukasz', 'Mateusz', 'Bartosz'] as const;
/** Surnames as [male form, female form]. */
export const LAST_NAMES = [
  ['Nowak', 'Nowak'],
  ['Kowalski', 'Kowalska'],
  ['Wiśniewski', 'Wiśniewska'],
  ['Wójcik', 'Wójcik'],
  ['Kamiński', 'Kamińska'],
  ['Lewandowski', 'Lewandowska'],
  ['Zieliński', 'Zielińska'],
  ['Szymański', 'Szymańska'],
  ['Woźniak', 'Woźniak'],
  ['Dąbrowski', 'Dąbrowska'],
  ['Kozłowski', 'Kozłowska'],
  ['Mazur', 'Mazur'],
  ['Krawczyk', 'Krawczyk'],
  ['Grabowski', 'Grabowska'],
] as const;

/** Polish letters to ASCII, for e-mail addresses. */
export function asciiFold(text: string): string {
  const map: Record<string, string> = { ą: 'a', ć: 'c', ę: 'e', ł: 'l', ń: 'n', ó: 'o', ś: 's', ź: 'z', ż: 'z' };
  return text.toLowerCase().replace(/[ąćęłńóśźż]/g, (c) => map[c] ?? c);
}
