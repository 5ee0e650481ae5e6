/**
 * Branches of one organization, ordered by name (byte order, as the index) and then id. Queries of
 * fixed text, prepared once per connection (src/db/prepared.ts); columns listed, never `*`.
 */
import { sql } from 'kysely';
import type { BranchRow } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import { toBranch } from '../domain/entities.js';
import type { Branch } from '../domain/resources.js';
import type { ReadDb } from './readonly.js';

const COLUMNS = sql.raw(
  'branch_id, organization_id, webpage_id, name, description, address, cover_image_url, logo_url, email, phone_number, open_time, location, created_at, updated_at',
);

export async function listBranches(db: ReadDb, organizationId: string): Promise<Branch[]> {
  const result = await sql<BranchRow>`${prepared('list_branches')}
    select ${COLUMNS} from branches where organization_id = ${organizationId}
    order by name collate "C", branch_id`.execute(db);
  return result.rows.map(toBranch);
}

export async function findBranch(db: ReadDb, organizationId: string, branchId: string): Promise<Branch | undefined> {
  const result = await sql<BranchRow>`${prepared('find_branch')}
    select ${COLUMNS} from branches where organization_id = ${organizationId} and branch_id = ${branchId}`.execute(db);
  const row = result.rows[0];
  return row ? toBranch(row) : undefined;
}

export async function branchExists(db: ReadDb, organizationId: string, branchId: string): Promise<boolean> {
  const result = await sql`${prepared('branch_exists')}
    select 1 from branches where organization_id = ${organizationId} and branch_id = ${branchId}`.execute(db);
  return result.rows.length > 0;
}

/** Branches by id, limited to the organization (for `include=branch`). */
export async function findBranchesByIds(db: ReadDb, organizationId: string, ids: readonly string[]): Promise<Map<string, Branch>> {
  if (ids.length === 0) return new Map();
  const result = await sql<BranchRow>`${prepared('find_branches_by_ids')}
    select ${COLUMNS} from branches where organization_id = ${organizationId} and branch_id = any(${ids}::uuid[])`.execute(db);
  return new Map(result.rows.map((row) => [row.branch_id, toBranch(row)]));
}
