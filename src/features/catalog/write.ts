/**
 * The catalog's writes, for the import (src/import) inside its transaction: organizations,
 * branches, agents and investments, upserted in batches (src/db/upsert.ts).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { touched, upsert, type Row } from '../../db/upsert.js';

const ORGANIZATION_COLUMNS = [
  'name', 'legal_name', 'nip', 'logo_url', 'address', 'website', 'phone_number', 'description',
  'cover_image_url', 'location', 'social_media_links', 'contact_email', 'developer',
] as const;

export const upsertOrganizations = (db: Kysely<Database>, rows: readonly Row[]) =>
  upsert(db, {
    table: 'organizations', key: 'organization_id', columns: ['organization_id', ...ORGANIZATION_COLUMNS],
    compare: ORGANIZATION_COLUMNS, update: ORGANIZATION_COLUMNS, also: touched,
  }, rows);

const BRANCH_COLUMNS = [
  'webpage_id', 'name', 'description', 'address', 'cover_image_url', 'logo_url', 'email', 'phone_number', 'open_time', 'location',
] as const;

export const upsertBranches = (db: Kysely<Database>, rows: readonly Row[]) =>
  upsert(db, {
    table: 'branches', key: 'branch_id', columns: ['branch_id', 'organization_id', ...BRANCH_COLUMNS],
    compare: BRANCH_COLUMNS, update: BRANCH_COLUMNS, also: touched,
  }, rows);

const AGENT_COLUMNS = [
  'webpage_id', 'branch_id', 'email', 'phone_number', 'first_name', 'last_name', 'avatar_url', 'job_title',
  'description', 'cover_image_url', 'profile_image_url',
] as const;

export const upsertAgents = (db: Kysely<Database>, rows: readonly Row[]) =>
  upsert(db, {
    table: 'agents', key: 'agent_id', columns: ['agent_id', 'organization_id', ...AGENT_COLUMNS],
    compare: AGENT_COLUMNS, update: AGENT_COLUMNS, also: touched,
  }, rows);

// translations (E12): a change of them alone is a change of the investment (updated_at, feed).
const INVESTMENT_COLUMNS = ['webpage_id', 'name', 'description', 'is_active', 'location', 'translations'] as const;

export const upsertInvestments = (db: Kysely<Database>, rows: readonly Row[]) =>
  upsert(db, {
    table: 'investments', key: 'investment_id', columns: ['investment_id', 'organization_id', ...INVESTMENT_COLUMNS],
    compare: INVESTMENT_COLUMNS, update: INVESTMENT_COLUMNS, also: touched,
  }, rows);
