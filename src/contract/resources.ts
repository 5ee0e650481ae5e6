/**
 * The resources of the interface as TypeBox schemas: one definition that types the code, shapes
 * the responses and generates the OpenAPI document. Field order is the order of the interface
 * tables, which is also the order of every JSON and XML rendering.
 */
import Type, { type Static, type TSchema } from 'typebox';
import { OFFER_DATA_FIELDS, type FieldKind } from './offer-fields.js';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const NString = (description?: string) => Nullable(Type.String(description ? { description } : {}));
const Uuid = (description?: string) => Type.String({ format: 'uuid', ...(description ? { description } : {}) });

export const LocationSchema = Type.Object(
  {
    address_city: NString(),
    address_community: NString(),
    address_country: NString(),
    address_county: NString(),
    address_district: NString(),
    address_subdistrict: NString(),
    address_state: NString(),
    address_street: NString(),
    address_street_number: NString(),
    address_flat_number: NString(),
    address_zip_code: NString(),
    community_type: NString('For example urban or rural (lower case).'),
    location_latitude: Nullable(Type.Number()),
    location_longitude: Nullable(Type.Number()),
    location_approximation: Nullable(Type.Number({ description: 'Radius of the approximation of the location, in metres.' })),
  },
  { $id: 'Location', title: 'Location' },
);
export type Location = Static<typeof LocationSchema>;

export const OrganizationSchema = Type.Object(
  {
    organization_id: Uuid(),
    name: Type.String(),
    legal_name: NString(),
    nip: NString('Tax identification number (NIP).'),
    logo_url: NString(),
    address: NString('Legal address.'),
    website: NString(),
    phone_number: NString(),
    description: NString(),
    cover_image_url: NString(),
    location: Nullable(LocationSchema),
    social_media_links: Nullable(Type.Array(Type.String(), { description: 'Profile URLs.' })),
    contact_email: NString(),
  },
  { $id: 'Organization', title: 'Organization' },
);
export type Organization = Static<typeof OrganizationSchema>;

const HHMM = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, 24-hour' });
export const IntervalSchema = Type.Object({ from_time: HHMM, to_time: HHMM }, { $id: 'OpeningInterval', title: 'OpeningInterval' });
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export const OpenTimeSchema = Type.Object(
  {
    monday: Type.Array(IntervalSchema),
    tuesday: Type.Array(IntervalSchema),
    wednesday: Type.Array(IntervalSchema),
    thursday: Type.Array(IntervalSchema),
    friday: Type.Array(IntervalSchema),
    saturday: Type.Array(IntervalSchema),
    sunday: Type.Array(IntervalSchema),
  },
  { $id: 'OpenTime', title: 'OpenTime', description: 'Opening hours; an empty array means closed that day.' },
);
export type OpenTime = Static<typeof OpenTimeSchema>;

export const BranchSchema = Type.Object(
  {
    branch_id: Uuid(),
    webpage_id: Uuid('The associated webpage.'),
    organization_id: Uuid(),
    name: Type.String(),
    description: NString(),
    address: NString('Legal address.'),
    cover_image_url: NString(),
    logo_url: NString(),
    email: NString(),
    phone_number: NString(),
    open_time: Nullable(OpenTimeSchema),
    location: Nullable(LocationSchema),
  },
  { $id: 'Branch', title: 'Branch' },
);
export type Branch = Static<typeof BranchSchema>;

export const AgentSchema = Type.Object(
  {
    agent_id: Uuid(),
    webpage_id: Nullable(Uuid()),
    organization_id: Uuid(),
    branch_id: Nullable(Uuid()),
    email: NString(),
    phone_number: NString(),
    first_name: NString(),
    last_name: NString(),
    avatar_url: NString(),
    job_title: NString(),
    description: NString(),
    cover_image_url: NString(),
    profile_image_url: NString(),
  },
  { $id: 'Agent', title: 'Agent' },
);
export type Agent = Static<typeof AgentSchema>;

export const InvestmentSchema = Type.Object(
  {
    investment_id: Uuid(),
    webpage_id: Nullable(Uuid()),
    organization_id: Uuid(),
    name: Type.String(),
    description: NString(),
    is_active: Type.Boolean(),
  },
  { $id: 'Investment', title: 'Investment' },
);
export type Investment = Static<typeof InvestmentSchema>;

/** JSON schema of one offer_data field, built from its kind in the field catalogue. */
export function offerDataFieldSchema(kind: FieldKind, known?: readonly string[]): TSchema {
  switch (kind) {
    case 'number':
      return Nullable(Type.Number());
    case 'integer':
      return Nullable(Type.Integer());
    case 'boolean':
      return Nullable(Type.Boolean());
    case 'uuid':
      return Nullable(Uuid());
    case 'enum':
      return Nullable(Type.String(known ? { description: `Open set; known values: ${known.join(', ')}.` } : {}));
    case 'datetime':
    case 'datetime_ms':
    case 'datetime_offset':
      return Nullable(Type.String({ format: 'date-time' }));
    case 'url_list':
      return Nullable(Type.Array(Type.String()));
    case 'text':
      return Nullable(Type.String());
  }
}

export const OfferDataSchema = Type.Object(
  Object.fromEntries(OFFER_DATA_FIELDS.map((field) => [field.name, offerDataFieldSchema(field.kind, field.known)])),
  { $id: 'OfferData', title: 'OfferData', description: 'Every field is present; null where there is no value.' },
);
export type OfferData = Record<string, unknown>;

export const OfferSchema = Type.Object(
  {
    offer_id: Uuid(),
    external_id: Type.String({ description: 'External reference of the offer (CRM id).' }),
    created_at: Type.String({ format: 'date-time', examples: ['2025-01-31T09:15:00.123456Z'] }),
    updated_at: Type.String({ format: 'date-time' }),
    offer_data: OfferDataSchema,
    version: Type.Integer({ description: 'Grows by 1 whenever an import changes the offer.' }),
    agent: Nullable(AgentSchema),
    branch: Nullable(BranchSchema),
    organization: Nullable(OrganizationSchema),
    investment: Nullable(InvestmentSchema),
  },
  { $id: 'Offer', title: 'Offer' },
);

export const OffersPageSchema = Type.Object(
  {
    items: Type.Array(OfferSchema),
    page: Type.Integer({ description: 'Current page number (from 1).' }),
    size: Type.Integer({ description: 'Number of items per page.' }),
    total: Type.Integer({ description: 'Total number of matching offers.' }),
    pages: Type.Integer({ description: 'Total number of pages: ceil(total / size), 0 when total is 0.' }),
  },
  { $id: 'OffersResponse', title: 'OffersResponse' },
);
