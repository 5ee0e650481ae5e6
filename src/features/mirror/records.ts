/**
 * API resources back to bundle records (the import's record schemas, src/import/schemas.ts): each
 * record takes the fields of its resource by allow-list, so a field the source adds beyond the
 * interface never reaches the import. What the interface does not carry gets the import's default;
 * docs/import.md ("Mirror") lists every such decision.
 */
import { createHash } from 'node:crypto';
import { OFFER_DATA_FIELDS } from '../../contract/offer-fields.js';
import {
  AgentSchema,
  BranchSchema,
  IntervalSchema,
  InvestmentSchema,
  LocationSchema,
  OrganizationSchema,
  WEEKDAYS,
} from '../../contract/resources.js';
import type { EntityValue, OfferValue, OrganizationValue } from './answers.js';

type Json = Record<string, unknown>;

const keysOf = (schema: { properties: object }) => Object.keys(schema.properties);
const ORGANIZATION_FIELDS = keysOf(OrganizationSchema);
const BRANCH_FIELDS = keysOf(BranchSchema);
const AGENT_FIELDS = keysOf(AgentSchema);
const INVESTMENT_FIELDS = keysOf(InvestmentSchema);
const LOCATION_FIELDS = keysOf(LocationSchema);
const INTERVAL_FIELDS = keysOf(IntervalSchema);
/** offer_data.id and offer_data.external_id are the offer's own; the import sets them. */
const OFFER_DATA_NAMES = OFFER_DATA_FIELDS.map((f) => f.name).filter((name) => name !== 'id' && name !== 'external_id');
const KNOWN_OFFER_DATA = new Set(OFFER_DATA_FIELDS.map((f) => f.name));

/** The fields of `value` named in `fields` that are present (absent stays absent: the import's default). */
function pick(value: Json, fields: readonly string[]): Json {
  const out: Json = {};
  for (const field of fields) if (value[field] !== undefined) out[field] = value[field];
  return out;
}

function location(value: unknown): Json | null | undefined {
  if (value === null || value === undefined) return value;
  return pick(value as Json, LOCATION_FIELDS);
}

function openTime(value: unknown): Json | null | undefined {
  if (value === null || value === undefined) return value;
  const days = value as Record<string, unknown>;
  const out: Json = {};
  for (const day of WEEKDAYS) {
    const intervals = days[day];
    if (Array.isArray(intervals)) out[day] = intervals.map((i) => pick(i as Json, INTERVAL_FIELDS));
  }
  return out;
}

export function organizationRecord(o: OrganizationValue): Json {
  const record = { type: 'organization', ...pick(o, ORGANIZATION_FIELDS) };
  if ('location' in record) record.location = location(record.location);
  return record;
}

export function branchRecord(b: EntityValue): Json {
  const record: Json = { type: 'branch', ...pick(b, BRANCH_FIELDS) };
  if ('location' in record) record.location = location(record.location);
  if ('open_time' in record) record.open_time = openTime(record.open_time);
  return record;
}

/** An agent or investment without an organization_id belongs to the key's organization. */
export function agentRecord(a: EntityValue, organizationId: string): Json {
  return { type: 'agent', ...pick(a, AGENT_FIELDS), organization_id: (a.organization_id as string | undefined) ?? organizationId };
}

export function investmentRecord(i: EntityValue, organizationId: string): Json {
  return { type: 'investment', ...pick(i, INVESTMENT_FIELDS), organization_id: (i.organization_id as string | undefined) ?? organizationId };
}

/**
 * An offer as a record of the key's organization: links from the included agent, branch and
 * investment (null when not linked or not visible to the key), created_at kept; version and
 * updated_at are not carried (the import starts them afresh). Returns the offer_data fields this
 * service does not know, which are left out.
 */
export function offerRecord(o: OfferValue, organizationId: string): { record: Json; unknownFields: string[] } {
  const data = o.offer_data;
  const unknownFields = Object.keys(data).filter((name) => !KNOWN_OFFER_DATA.has(name));
  const record: Json = {
    type: 'offer',
    offer_id: o.offer_id,
    organization_id: organizationId,
    external_id: o.external_id,
    agent_id: (o.agent?.agent_id as string | undefined) ?? null,
    branch_id: (o.branch?.branch_id as string | undefined) ?? null,
    investment_id: (o.investment?.investment_id as string | undefined) ?? null,
    created_at: o.created_at,
    offer_data: pick(data, OFFER_DATA_NAMES),
  };
  return { record, unknownFields };
}

/**
 * The website a mirror fills when --website-id is not given: a UUID (version 5, URL namespace) of
 * the source's address and the key's SHA-256, so the same source and key always fill the same
 * website and the key itself is not recoverable from it.
 */
export function derivedWebsiteId(base: string, keySha256: string): string {
  const URL_NAMESPACE = '6ba7b8119dad11d180b400c04fd430c8';
  const bytes = createHash('sha1')
    .update(Buffer.from(URL_NAMESPACE, 'hex'))
    .update(`${base}#key-sha256=${keySha256}`)
    .digest();
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
