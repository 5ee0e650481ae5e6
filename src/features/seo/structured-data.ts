/**
 * An offer as schema.org JSON-LD (extension E12), pure: a RealEstateListing (the page) whose
 * `offers` Offer (price and currency) offers the dwelling itself: an Apartment, a House, a Place
 * for a plot, an Accommodation otherwise, with its floor size (QuantitativeValue in square metres,
 * UN/CEFACT code MTK), rooms, PostalAddress and GeoCoordinates. A value the offer does not have is
 * left out (schema.org has no null); an object left with nothing but its type is left out too.
 * Every type and property used is checked against schema.org's own definitions in
 * test/features/seo/structured-data.test.ts.
 */

/** The schema.org type of the dwelling an offer type offers. */
export function dwellingType(offerType: unknown): 'Apartment' | 'House' | 'Place' | 'Accommodation' {
  if (typeof offerType !== 'string') return 'Accommodation';
  if (offerType.startsWith('APARTMENT_')) return 'Apartment';
  if (offerType.startsWith('HOUSE_')) return 'House';
  if (offerType.startsWith('PLOT_')) return 'Place';
  return 'Accommodation';
}

type Node = Record<string, unknown>;

/** The node with its empty values dropped; undefined when only its @type is left. */
function node(type: string, fields: Node): Node | undefined {
  const out: Node = { '@type': type };
  let any = false;
  for (const [key, value] of Object.entries(fields)) {
    if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    out[key] = value;
    any = true;
  }
  return any ? out : undefined;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

export interface StructuredDataSource {
  /** offer_data as stored (every field present). */
  readonly data: Readonly<Record<string, unknown>>;
  /** The offer's address on the website (its URL template with its slug), if the website has a template. */
  readonly url: string | undefined;
  /** The offer's created_at in the API's form, when offer_data has no date_posted. */
  readonly createdAt: string;
}

export function offerStructuredData({ data, url, createdAt }: StructuredDataSource): Node {
  const street = [text(data.address_street), text(data.address_street_number)].filter(Boolean).join(' ');
  const dwellingKind = dwellingType(data.offer_type);
  const accommodation = dwellingKind !== 'Place';
  const size = num(data.property_size);
  const dwelling = node(dwellingKind, {
    ...(accommodation
      ? {
          floorSize: size === undefined ? undefined : { '@type': 'QuantitativeValue', value: size, unitCode: 'MTK' },
          numberOfRooms: num(data.rooms),
        }
      : {}),
    address: node('PostalAddress', {
      streetAddress: street,
      addressLocality: text(data.address_city),
      postalCode: text(data.address_postcode),
      addressRegion: text(data.address_state),
      addressCountry: text(data.address_country),
    }),
    geo:
      num(data.location_latitude) !== undefined && num(data.location_longitude) !== undefined
        ? { '@type': 'GeoCoordinates', latitude: data.location_latitude, longitude: data.location_longitude }
        : undefined,
  }) ?? { '@type': dwellingKind };
  return {
    '@context': 'https://schema.org',
    ...node('RealEstateListing', {
      url,
      name: text(data.title),
      // Plain text: the stored clean text of the HTML description.
      description: text(data.description_clean_text),
      datePosted: text(data.date_posted) ?? createdAt,
      image: Array.isArray(data.photos_urls) ? data.photos_urls : undefined,
      offers: node('Offer', { price: num(data.price), priceCurrency: text(data.price_currency), itemOffered: dwelling }),
    }),
  };
}
