/**
 * Offers for the XML tests, built the way the service builds them: offer_data through
 * normalizeOfferData and its JSON text through renderOfferDataJson.
 */
import { normalizeOfferData, renderOfferDataJson } from '../../src/features/offers/offer-data.js';
import type { OfferView } from '../../src/features/offers/model.js';
import type { Agent, Branch, Investment, Location, Organization } from '../../src/contract/resources.js';

export const OFFER_ID = '0b9f3c2e-7d41-4a8e-9c55-3f6d2a1b8e90';
export const BARE_OFFER_ID = '5c1d7e02-94ab-4f3c-8d21-6a0e9b3c7f14';

export function offerView(
  fields: Omit<OfferView, 'offer_data' | 'offer_data_json'>,
  data: Record<string, unknown>,
): OfferView {
  const offerData = normalizeOfferData(data, { offer_id: fields.offer_id, external_id: fields.external_id });
  return { ...fields, offer_data: offerData, offer_data_json: renderOfferDataJson(offerData) };
}

const location = (overrides: Partial<Location> = {}): Location => ({
  address_city: 'Kraków',
  address_community: 'Kraków',
  address_country: 'Polska',
  address_county: 'krakowski',
  address_district: 'Stare Miasto',
  address_subdistrict: null,
  address_state: 'małopolskie',
  address_street: 'ul. Floriańska',
  address_street_number: '15',
  address_flat_number: null,
  address_zip_code: '31-019',
  community_type: 'urban',
  location_latitude: 50.0647,
  location_longitude: 19.945,
  location_approximation: 250,
  ...overrides,
});

export const agent: Agent = {
  agent_id: '7e2a9b40-1c3d-4e5f-8a6b-9c0d1e2f3a4b',
  webpage_id: '8f3b0c51-2d4e-4f60-9b7c-0d1e2f3a4b5c',
  organization_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  branch_id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
  email: 'anna.nowak@wawel.example.pl',
  phone_number: '+48 600 100 200',
  first_name: 'Anna',
  last_name: 'Nowak',
  avatar_url: 'https://cdn.example.pl/agents/an.jpg',
  job_title: 'Doradca ds. nieruchomości',
  description: 'Rynek wtórny <i>Kraków</i> & okolice',
  cover_image_url: null,
  profile_image_url: 'https://cdn.example.pl/agents/an-profile.jpg?w=200&h=200',
};

export const branch: Branch = {
  branch_id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
  webpage_id: '3c4d5e6f-7a8b-4c9d-8e0f-2a3b4c5d6e7f',
  organization_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  name: 'Oddział Kazimierz',
  description: null,
  address: 'pl. Nowy 5, 31-056 Kraków',
  cover_image_url: 'https://cdn.example.pl/branch.jpg',
  logo_url: null,
  email: 'kazimierz@wawel.example.pl',
  phone_number: '+48 12 000 00 00',
  open_time: {
    monday: [{ from_time: '09:00', to_time: '17:00' }],
    tuesday: [{ from_time: '09:00', to_time: '17:00' }],
    wednesday: [],
    thursday: [{ from_time: '09:00', to_time: '17:00' }],
    friday: [
      { from_time: '09:00', to_time: '13:00' },
      { from_time: '14:00', to_time: '18:30' },
    ],
    saturday: [{ from_time: '10:00', to_time: '14:00' }],
    sunday: [],
  },
  location: location({ address_district: 'Kazimierz', address_street: 'pl. Nowy', address_street_number: '5' }),
};

export const organization: Organization = {
  organization_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  name: 'Nieruchomości Wawel',
  legal_name: 'Nieruchomości Wawel sp. z o.o.',
  nip: '6762461234',
  logo_url: 'https://cdn.example.pl/logo.png',
  address: 'ul. Długa 1, 31-147 Kraków',
  website: 'https://wawel.example.pl',
  phone_number: '+48 12 345 67 89',
  description: '<p>Od 1995 roku &amp; z pasją</p>',
  cover_image_url: null,
  location: location(),
  social_media_links: ['https://facebook.com/wawel', 'https://instagram.com/wawel'],
  contact_email: 'biuro@wawel.example.pl',
};

export const investment: Investment = {
  investment_id: '4d5e6f7a-8b9c-4d0e-9f1a-3b4c5d6e7f80',
  webpage_id: null,
  organization_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  name: 'Rezydencja "Floriańska" ]]> etap II',
  description: 'Kameralna inwestycja 🏡',
  is_active: false,
};

/** Every offer_data field set, with text that needs escaping and every kind of value. */
export const fullOffer: OfferView = offerView(
  {
    offer_id: OFFER_ID,
    external_id: 'CRM-2025/0042',
    created_at: '2025-01-20 08:00:00.123456+00',
    updated_at: '2025-01-31 09:15:00+00',
    version: 3,
    agent,
    branch,
    organization,
    investment,
  },
  {
    price: 1250000,
    price_currency: 'PLN',
    price_per_meter: 18939.39,
    property_size: 66,
    administrative_rent: 0,
    rooms: 3,
    market_type: 'PRIMARY',
    building_type: 'APARTMENT_COMPLEX',
    kitchen_type: 'KITCHENETTE',
    building_stage: 'w budowie',
    building_material: 'cegła',
    roof_material: 'blacha',
    windows_material: 'PCV',
    year_built: 2025,
    floor_no_lower_bound: -1,
    total_levels_in_building_lower_bound: 6,
    levels: 2,
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
    has_gas_access: false,
    has_high_voltage_plug: false,
    parking: 'UNDERGROUND_PARKING_LOT',
    parking_lots: 1,
    has_balcony: true,
    has_terrace: false,
    has_garden: false,
    has_storage: true,
    has_basement: false,
    has_elevator: true,
    is_furnished: false,
    has_air_conditioning: false,
    is_gated_community: true,
    has_anti_theft_protection: false,
    available_from_date: '2025-03-01T00:00:00Z',
    address_country: 'Polska',
    address_county: 'krakowski',
    address_community: 'Kraków',
    address_city: 'Kraków',
    address_district: 'Stare Miasto',
    address_subdistrict: 'Kleparz',
    address_street: 'ul. Floriańska',
    address_street_number: '15',
    address_flat_number: '7a',
    address_postcode: '31-019',
    community_type: 'urban',
    location_latitude: 50.0647,
    location_longitude: -19.945,
    location_approximation: 1e-7,
    title: 'Dom "Pod Lipami" & ogród <3 🏡',
    description: '<p>Słoneczne mieszkanie &amp; <b>balkon</b></p>\n<p>Cena: 1&nbsp;250&nbsp;000 zł</p>',
    film_url: 'https://video.example.pl/watch?v=1&t=2',
    virtual_walk_url: 'https://tour.example.pl/0b9f3c2e',
    address_state: 'małopolskie',
    offer_type: 'APARTMENT_SALES',
    property_condition: 'BELOW_AVERAGE',
    photos_urls: ['https://cdn.example.pl/o/1.jpg', 'https://cdn.example.pl/o/2.jpg?size=large&v=2'],
    date_modified: '2025-01-31T09:15:00Z',
    date_posted: '2025-01-20T08:00:00.5Z',
    description_clean_text: 'Słoneczne mieszkanie & balkon\nCena: 1 250 000 zł',
    floor_plan_urls: ['https://cdn.example.pl/o/plan.pdf'],
  },
);

/** Nothing but the required fields; no entity included. */
export const bareOffer: OfferView = offerView(
  {
    offer_id: BARE_OFFER_ID,
    external_id: 'CRM-7',
    created_at: '2024-12-31 23:59:59+00',
    updated_at: '2024-12-31 23:59:59+00',
    version: 1,
    agent: null,
    branch: null,
    organization: null,
    investment: null,
  },
  { floor_plan_urls: [] },
);

/** A second offer with entities whose nested values are null or empty. */
export const sparseOffer: OfferView = offerView(
  {
    offer_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    external_id: 'CRM-8',
    created_at: '2025-02-01 10:00:00.5+00',
    updated_at: '2025-02-02 10:00:00.000001+00',
    version: 12,
    agent: { ...agent, webpage_id: null, branch_id: null, email: null, description: null },
    branch: { ...branch, open_time: null, location: null },
    organization: { ...organization, location: null, social_media_links: [] },
    investment: null,
  },
  { price: 399000.5, rooms: 1, has_balcony: false, title: 'Kawalerka', photos_urls: ['https://cdn.example.pl/k/1.jpg'] },
);
