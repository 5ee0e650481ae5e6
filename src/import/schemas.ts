/**
 * The records a content bundle may hold, as TypeBox schemas derived from the resource schemas of
 * the interface (src/contract/resources.ts), so a field's type is written down once. On top of the
 * resources they carry the import-only fields of CONTRACT 8 (a website's api_keys; an offer's
 * organization_id, links, is_active, created_at). Optional interface fields may be absent or
 * null; unknown fields are errors (additionalProperties: false everywhere).
 */
import Type, { type Static, type TSchema } from 'typebox';
import {
  AgentSchema,
  BranchSchema,
  IntervalSchema,
  InvestmentSchema,
  LocationSchema,
  Nullable,
  OfferDataSchema,
  OfferSchema,
  OpenTimeSchema,
  OrganizationSchema,
} from '../contract/resources.js';
import { OFFER_DATA_FIELDS } from '../contract/offer-fields.js';
import { MAX_SCOPE_IDS, SCOPE_OFFER_TYPES } from '../features/access/index.js';
import { ANCILLARY_KINDS, MAX_ANCILLARY } from '../features/prices/index.js';
import { ADDRESS_KEYS, POSTCODE_PATTERN } from '../features/transparency/index.js';
import { URL_TEMPLATE_MAX_LENGTH, URL_TEMPLATE_PATTERN } from '../features/seo/index.js';
import { INVESTMENT_TRANSLATABLE, MAX_LANGUAGES, OFFER_TRANSLATABLE } from '../features/translations/index.js';

export const RECORD_KINDS = ['organization', 'website', 'branch', 'agent', 'investment', 'offer'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/** The array of a JSON bundle that holds each kind. */
export const BUNDLE_KEY: Readonly<Record<RecordKind, string>> = {
  organization: 'organizations',
  website: 'websites',
  branch: 'branches',
  agent: 'agents',
  investment: 'investments',
  offer: 'offers',
};
export const KIND_OF_BUNDLE_KEY: ReadonlyMap<string, RecordKind> = new Map(
  RECORD_KINDS.map((kind) => [BUNDLE_KEY[kind], kind]),
);

const strict = { additionalProperties: false } as const;
const Uuid = OrganizationSchema.properties.organization_id;
/** A record may name its kind (NDJSON must; in a JSON bundle it may, if it matches the array). */
const KindTag = <K extends RecordKind>(kind: K) => Type.Optional(Type.Literal(kind));
const OptionalNullable = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** A location on import: every field optional; stored with every field present (null if absent). */
export const LocationInput = Type.Object({ ...Type.Partial(LocationSchema).properties }, strict);

// The interval shape of the interface, closed against unknown fields.
const IntervalInput = Type.Object({ ...IntervalSchema.properties }, strict);
const DayInput = Type.Optional(Type.Array(IntervalInput));

/** Opening hours on import: a day that is absent has no opening hours. */
export const OpenTimeInput = Type.Object(
  {
    monday: DayInput,
    tuesday: DayInput,
    wednesday: DayInput,
    thursday: DayInput,
    friday: DayInput,
    saturday: DayInput,
    sunday: DayInput,
  },
  strict,
);
// Keep the day list in step with the interface's opening hours object.
for (const day of Object.keys(OpenTimeSchema.properties)) {
  if (!(day in OpenTimeInput.properties)) throw new Error(`OpenTimeInput lacks ${day}`);
}

/**
 * An address as the price-transparency dataset names it (extension E10): every part optional, the
 * postcode NN-NNN.
 */
export const AddressInput = Type.Object(
  Object.fromEntries(
    ADDRESS_KEYS.map((key) => [
      key,
      OptionalNullable(key === 'postcode' ? Type.String({ pattern: POSTCODE_PATTERN, description: 'a postcode NN-NNN' }) : Type.String()),
    ]),
  ),
  strict,
);

/** Most sales offices of one developer. */
export const MAX_SALES_OFFICES = 50;

/**
 * The developer's legal data (extension E10), for the price-transparency dataset. NIP, REGON and
 * KRS are also checked with their check digits (validate.ts).
 */
export const DeveloperInput = Type.Object(
  {
    legal_name: OptionalNullable(Type.String()),
    legal_form: OptionalNullable(Type.String()),
    krs: OptionalNullable(Type.String()),
    ceidg: OptionalNullable(Type.String()),
    nip: OptionalNullable(Type.String()),
    regon: OptionalNullable(Type.String()),
    phone: OptionalNullable(Type.String()),
    email: OptionalNullable(Type.String()),
    fax: OptionalNullable(Type.String()),
    website: OptionalNullable(Type.String()),
    seat: OptionalNullable(AddressInput),
    sales_offices: OptionalNullable(Type.Array(AddressInput, { maxItems: MAX_SALES_OFFICES })),
    contact_method: OptionalNullable(Type.String()),
  },
  strict,
);

export const OrganizationRecord = Type.Object(
  {
    type: KindTag('organization'),
    ...Type.Partial(OrganizationSchema).properties,
    organization_id: Uuid,
    name: OrganizationSchema.properties.name,
    location: OptionalNullable(LocationInput),
    developer: OptionalNullable(DeveloperInput),
  },
  strict,
);

export const ApiKeyInput = Type.Object(
  {
    key_id: Type.Optional(Uuid),
    key: Type.Optional(Type.String({ minLength: 32, description: 'at least 32 characters' })),
    key_sha256: Type.Optional(
      Type.String({ pattern: '^[0-9a-f]{64}$', description: '64 lower-case hexadecimal characters' }),
    ),
    is_active: Type.Boolean(),
    expires_at: OptionalNullable(Type.String({ format: 'date-time' })),
    label: OptionalNullable(Type.String()),
  },
  strict,
);

const ScopeIds = Type.Optional(Type.Array(Uuid, { minItems: 1, maxItems: MAX_SCOPE_IDS }));

/**
 * A website's scope (extension E7): each list optional, none empty. Absent, null or {}: the
 * website sees its whole organization.
 */
export const WebsiteScopeInput = Type.Object(
  {
    investment_ids: ScopeIds,
    branch_ids: ScopeIds,
    offer_types: Type.Optional(
      Type.Array(Type.String({ enum: [...SCOPE_OFFER_TYPES] }), { minItems: 1, maxItems: SCOPE_OFFER_TYPES.length }),
    ),
  },
  strict,
);

const UrlTemplate = Type.Optional(
  Type.String({ pattern: URL_TEMPLATE_PATTERN, maxLength: URL_TEMPLATE_MAX_LENGTH, description: 'an http(s) address with {slug} in it' }),
);

/** A website's URL templates (extension E12); absent: the stored ones stay; null or {}: none. */
export const WebsiteUrlsInput = Type.Object({ offer: UrlTemplate, investment: UrlTemplate }, strict);

export const WebsiteRecord = Type.Object(
  {
    type: KindTag('website'),
    website_id: Uuid,
    organization_id: Uuid,
    name: Type.String(),
    api_keys: Type.Optional(Type.Array(ApiKeyInput)),
    scope: OptionalNullable(WebsiteScopeInput),
    urls: OptionalNullable(WebsiteUrlsInput),
  },
  strict,
);

export const BranchRecord = Type.Object(
  {
    type: KindTag('branch'),
    ...Type.Partial(BranchSchema).properties,
    branch_id: BranchSchema.properties.branch_id,
    webpage_id: BranchSchema.properties.webpage_id,
    organization_id: BranchSchema.properties.organization_id,
    name: BranchSchema.properties.name,
    open_time: OptionalNullable(OpenTimeInput),
    location: OptionalNullable(LocationInput),
  },
  strict,
);

export const AgentRecord = Type.Object(
  {
    type: KindTag('agent'),
    ...Type.Partial(AgentSchema).properties,
    agent_id: AgentSchema.properties.agent_id,
    organization_id: AgentSchema.properties.organization_id,
  },
  strict,
);

/**
 * The slug a record gives (E12): made a slug as the service makes them (lower case, ASCII, words
 * joined by `-`, at most 80 characters), it replaces the current one; the old one keeps resolving.
 * Absent: the stored slug is kept (a new entity gets one made from its title or name).
 */
const GivenSlug = Type.Optional(Type.String({ minLength: 1, maxLength: 200 }));

/**
 * A record's translations (E12): by BCP 47 language tag (checked in validate.ts), the translated
 * fields, each optional (null or absent: the original is served). Absent or null: none (a record
 * without them removes the stored ones, as with any other field).
 */
const Translations = (fields: readonly string[]) =>
  OptionalNullable(
    Type.Record(Type.String(), Type.Object(Object.fromEntries(fields.map((field) => [field, OptionalNullable(Type.String())])), strict), {
      maxProperties: MAX_LANGUAGES,
    }),
  );

export const InvestmentRecord = Type.Object(
  {
    type: KindTag('investment'),
    ...Type.Partial(InvestmentSchema).properties,
    investment_id: InvestmentSchema.properties.investment_id,
    organization_id: InvestmentSchema.properties.organization_id,
    name: InvestmentSchema.properties.name,
    is_active: Type.Optional(InvestmentSchema.properties.is_active),
    // Extension E10: the investment's address, as the price-transparency dataset names it.
    location: OptionalNullable(AddressInput),
    slug: GivenSlug,
    translations: Translations(INVESTMENT_TRANSLATABLE),
  },
  strict,
);

/** Integers are stored where PostgreSQL's integer must hold them (rooms is an indexed integer column). */
export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;

/**
 * offer_data on import: any subset of the interface's fields (the rest are stored as null), with
 * integer fields bounded to PostgreSQL's integer.
 */
export const OfferDataInput = Type.Object(
  Object.fromEntries(
    OFFER_DATA_FIELDS.map((field) => [
      field.name,
      Type.Optional(
        field.kind === 'integer'
          ? Nullable(Type.Integer({ minimum: INT32_MIN, maximum: INT32_MAX }))
          : (OfferDataSchema.properties as Record<string, TSchema>)[field.name]!,
      ),
    ]),
  ),
  strict,
);

/** An ancillary price of an offer (extension E10): a parking space, garage, storage room or other. */
export const AncillaryInput = Type.Object(
  {
    kind: Type.String({ enum: [...ANCILLARY_KINDS] }),
    label: OptionalNullable(Type.String()),
    price: Type.Number(),
  },
  strict,
);

export const OfferRecord = Type.Object(
  {
    type: KindTag('offer'),
    offer_id: OfferSchema.properties.offer_id,
    organization_id: Uuid,
    external_id: Type.String({ minLength: 1 }),
    agent_id: OptionalNullable(Uuid),
    branch_id: OptionalNullable(Uuid),
    investment_id: OptionalNullable(Uuid),
    is_active: Type.Optional(Type.Boolean()),
    created_at: Type.Optional(OfferSchema.properties.created_at),
    offer_data: OfferDataInput,
    // Extension E10: when the prices of this record started to hold (not in the future), and the
    // prices sold beside the flat or house. Neither is shown in the original interface's answers.
    prices_valid_from: OptionalNullable(Type.String({ format: 'date-time' })),
    ancillary: OptionalNullable(Type.Array(AncillaryInput, { maxItems: MAX_ANCILLARY })),
    slug: GivenSlug,
    translations: Translations(OFFER_TRANSLATABLE),
  },
  strict,
);

export type OrganizationInput = Static<typeof OrganizationRecord>;
export type WebsiteInput = Static<typeof WebsiteRecord>;
export type ApiKeyInputRecord = Static<typeof ApiKeyInput>;
export type BranchInput = Static<typeof BranchRecord>;
export type AgentInput = Static<typeof AgentRecord>;
export type InvestmentInput = Static<typeof InvestmentRecord>;
export type OfferInput = Static<typeof OfferRecord>;

export interface RecordInputs {
  organization: OrganizationInput;
  website: WebsiteInput;
  branch: BranchInput;
  agent: AgentInput;
  investment: InvestmentInput;
  offer: OfferInput;
}

export const RECORD_SCHEMAS: Readonly<Record<RecordKind, TSchema>> = {
  organization: OrganizationRecord,
  website: WebsiteRecord,
  branch: BranchRecord,
  agent: AgentRecord,
  investment: InvestmentRecord,
  offer: OfferRecord,
};
