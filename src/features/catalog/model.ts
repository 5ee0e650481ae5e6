/**
 * Database rows to the public objects of the interface, built field by field in table order
 * (an allow-list: a column that is not named here never reaches a client).
 */
import type { AgentRow, BranchRow, InvestmentRow, LocationData, OrganizationRow } from '../../db/database.js';
import type { Agent, Branch, Investment, Location, OpenTime, Organization } from '../../contract/resources.js';
import { WEEKDAYS } from '../../contract/resources.js';

const LOCATION_FIELDS = [
  'address_city',
  'address_community',
  'address_country',
  'address_county',
  'address_district',
  'address_subdistrict',
  'address_state',
  'address_street',
  'address_street_number',
  'address_flat_number',
  'address_zip_code',
  'community_type',
  'location_latitude',
  'location_longitude',
  'location_approximation',
] as const;

export function toLocation(stored: LocationData | null | undefined): Location | null {
  if (!stored) return null;
  const out: Record<string, unknown> = {};
  for (const field of LOCATION_FIELDS) out[field] = stored[field] ?? null;
  return out as Location;
}

function toOpenTime(stored: OpenTime | null | undefined): OpenTime | null {
  if (!stored) return null;
  const out: Record<string, { from_time: string; to_time: string }[]> = {};
  for (const day of WEEKDAYS) {
    out[day] = (stored[day] ?? []).map((i) => ({ from_time: i.from_time, to_time: i.to_time }));
  }
  return out as OpenTime;
}

export function toOrganization(row: OrganizationRow): Organization {
  return {
    organization_id: row.organization_id,
    name: row.name,
    legal_name: row.legal_name,
    nip: row.nip,
    logo_url: row.logo_url,
    address: row.address,
    website: row.website,
    phone_number: row.phone_number,
    description: row.description,
    cover_image_url: row.cover_image_url,
    location: toLocation(row.location),
    social_media_links: row.social_media_links ?? null,
    contact_email: row.contact_email,
  };
}

export function toBranch(row: BranchRow): Branch {
  return {
    branch_id: row.branch_id,
    webpage_id: row.webpage_id,
    organization_id: row.organization_id,
    name: row.name,
    description: row.description,
    address: row.address,
    cover_image_url: row.cover_image_url,
    logo_url: row.logo_url,
    email: row.email,
    phone_number: row.phone_number,
    open_time: toOpenTime(row.open_time),
    location: toLocation(row.location),
  };
}

export function toAgent(row: AgentRow): Agent {
  return {
    agent_id: row.agent_id,
    webpage_id: row.webpage_id,
    organization_id: row.organization_id,
    branch_id: row.branch_id,
    email: row.email,
    phone_number: row.phone_number,
    first_name: row.first_name,
    last_name: row.last_name,
    avatar_url: row.avatar_url,
    job_title: row.job_title,
    description: row.description,
    cover_image_url: row.cover_image_url,
    profile_image_url: row.profile_image_url,
  };
}

export function toInvestment(row: InvestmentRow): Investment {
  return {
    investment_id: row.investment_id,
    webpage_id: row.webpage_id,
    organization_id: row.organization_id,
    name: row.name,
    description: row.description,
    is_active: row.is_active,
  };
}
