/**
 * Validated bundle records to table rows. A record describes its entity completely: an optional
 * field that is absent is stored as null, nested objects are stored with every field present, so
 * that the same content always gives the same row and a re-import can tell "unchanged" exactly.
 * offer_data goes through normalizeOfferData / renderOfferDataJson and nothing else.
 */
import { createHash } from 'node:crypto';
import { hashKey, VISIBLE_PREFIX_LENGTH } from '../features/access/index.js';
import { toLocation } from '../features/catalog/index.js';
import { htmlToCleanText, normalizeOfferData, renderOfferDataJson } from '../features/offers/index.js';
import { normalizeInvestmentTranslations, normalizeOfferTranslations } from '../features/translations/index.js';
import { offerSearchWords, searchVector } from '../features/offers/index.js';
import { toStoredTimestamp } from '../contract/timestamps.js';
import { WEEKDAYS } from '../contract/resources.js';
import { normalizeWebsiteScope } from '../features/access/index.js';
import type {
  AgentInput,
  ApiKeyInputRecord,
  BranchInput,
  InvestmentInput,
  OfferInput,
  OrganizationInput,
  WebsiteInput,
} from './schemas.js';
import type { Row } from '../db/upsert.js';
import { type ApiKeyRowDraft } from '../features/access/index.js';
import { type OfferRowDraft } from '../features/offers/index.js';
import { ancillaryJson, priceEntryDraft, type PriceEntryDraft } from '../features/prices/index.js';
import { normalizeAddress, normalizeDeveloper } from '../features/transparency/index.js';
import type { WebsiteRowDraft } from '../features/access/index.js';


const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));
const opt = <T>(value: T | null | undefined): T | null => value ?? null;

export function organizationRow(r: OrganizationInput): Row {
  return {
    organization_id: r.organization_id,
    name: r.name,
    legal_name: opt(r.legal_name),
    nip: opt(r.nip),
    logo_url: opt(r.logo_url),
    address: opt(r.address),
    website: opt(r.website),
    phone_number: opt(r.phone_number),
    description: opt(r.description),
    cover_image_url: opt(r.cover_image_url),
    location: json(toLocation(r.location as Parameters<typeof toLocation>[0])),
    social_media_links: json(r.social_media_links),
    contact_email: opt(r.contact_email),
    // Extension E10: the developer's legal data (for the transparency dataset), every key present.
    developer: json(r.developer ? normalizeDeveloper(r.developer) : null),
  };
}

/**
 * The exception to "a record describes its entity completely": a record without `scope` leaves the
 * stored scope as it is (a new website has none), since a scope is often set with `websites scope`
 * and a CRM export that knows nothing of it must not widen what the website's keys see. `null` or
 * `{}` removes it.
 */
export function websiteRow(r: WebsiteInput): WebsiteRowDraft {
  return {
    website_id: r.website_id,
    organization_id: r.organization_id,
    name: r.name,
    scope: r.scope === undefined ? undefined : json(normalizeWebsiteScope(r.scope)),
  };
}

/** An id for an imported key that names none: derived from its hash, so re-imports agree. */
export function derivedKeyId(keySha256: string): string {
  const bytes = createHash('sha256').update(`api-key:${keySha256}`).digest();
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}


/** The plain key is hashed here and goes no further. */
export function apiKeyDraft(websiteId: string, k: ApiKeyInputRecord): ApiKeyRowDraft {
  return {
    key_id: k.key_id,
    website_id: websiteId,
    key_sha256: k.key !== undefined ? hashKey(k.key) : k.key_sha256!,
    key_prefix: k.key !== undefined ? k.key.slice(0, VISIBLE_PREFIX_LENGTH) : null,
    label: opt(k.label),
    is_active: k.is_active,
    expires_at: k.expires_at ? toStoredTimestamp(k.expires_at)! : null,
  };
}

export function branchRow(r: BranchInput): Row {
  const openTime = r.open_time
    ? Object.fromEntries(
        WEEKDAYS.map((day) => [day, (r.open_time?.[day] ?? []).map((i) => ({ from_time: i.from_time, to_time: i.to_time }))]),
      )
    : null;
  return {
    branch_id: r.branch_id,
    organization_id: r.organization_id,
    webpage_id: r.webpage_id,
    name: r.name,
    description: opt(r.description),
    address: opt(r.address),
    cover_image_url: opt(r.cover_image_url),
    logo_url: opt(r.logo_url),
    email: opt(r.email),
    phone_number: opt(r.phone_number),
    open_time: json(openTime),
    location: json(toLocation(r.location as Parameters<typeof toLocation>[0])),
  };
}

export function agentRow(r: AgentInput): Row {
  return {
    agent_id: r.agent_id,
    organization_id: r.organization_id,
    webpage_id: opt(r.webpage_id),
    branch_id: opt(r.branch_id),
    email: opt(r.email),
    phone_number: opt(r.phone_number),
    first_name: opt(r.first_name),
    last_name: opt(r.last_name),
    avatar_url: opt(r.avatar_url),
    job_title: opt(r.job_title),
    description: opt(r.description),
    cover_image_url: opt(r.cover_image_url),
    profile_image_url: opt(r.profile_image_url),
  };
}

export function investmentRow(r: InvestmentInput): Row {
  return {
    investment_id: r.investment_id,
    organization_id: r.organization_id,
    webpage_id: opt(r.webpage_id),
    name: r.name,
    description: opt(r.description),
    is_active: r.is_active ?? true,
    location: json(r.location ? normalizeAddress(r.location) : null),
    translations: normalizeInvestmentTranslations(r.translations),
  };
}


export function offerRow(r: OfferInput): OfferRowDraft {
  const stored = normalizeOfferData(r.offer_data as Record<string, unknown>, { offer_id: r.offer_id, external_id: r.external_id });
  const text = renderOfferDataJson(stored);
  return {
    offer_id: r.offer_id,
    organization_id: r.organization_id,
    external_id: r.external_id,
    agent_id: opt(r.agent_id),
    branch_id: opt(r.branch_id),
    investment_id: opt(r.investment_id),
    is_active: r.is_active ?? true,
    created_at: r.created_at === undefined ? undefined : toStoredTimestamp(r.created_at),
    offer_data_json: text,
    search_vector: searchVector(offerSearchWords(stored, r.external_id)),
    ancillary_json: r.ancillary && r.ancillary.length > 0 ? ancillaryJson(r.ancillary) : null,
    translations_json: normalizeOfferTranslations(r.translations, htmlToCleanText),
    slug_source: r.slug === undefined ? `${textOf(stored['title'])} ${textOf(stored['address_city'])}` : null,
    made_slug: null,
    made_slug_written: null,
    prices_valid_from: pricesValidFrom(r),
  };
}

/**
 * A stored field as `offer_data->>'field'` reads it for a made slug ('' when absent): the text the
 * insert makes a new offer's slug from is the one step 3 would make it from the row.
 */
const textOf = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** The record's prices_valid_from in stored form, null when absent (the time of the import). */
const pricesValidFrom = (r: OfferInput): string | null => (r.prices_valid_from ? toStoredTimestamp(r.prices_valid_from) ?? null : null);

/** The price entry an offer record would append (extension E10): offer_data's prices and the record's ancillary. */
export function offerPriceEntry(r: OfferInput): PriceEntryDraft {
  const data = r.offer_data as { price?: number | null; price_per_meter?: number | null; price_currency?: string | null };
  const validFrom = pricesValidFrom(r);
  // Only the price fields (not a copy of the whole offer_data per offer).
  const prices = { price: data.price, price_per_meter: data.price_per_meter, price_currency: data.price_currency, ancillary: r.ancillary };
  return priceEntryDraft(r.offer_id, r.organization_id, prices, validFrom);
}
