/** Branches of one organization, ordered by name (byte order, as the index) and then id. */
import { sql } from 'kysely';
import { toBranch } from '../domain/entities.js';
import type { Branch } from '../schemas/resources.js';
import type { ReadDb } from './readonly.js';

export async function listBranches(db: ReadDb, organizationId: string): Promise<Branch[]> {
  const rows = await db
    .selectFrom('branches')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy(sql`name collate "C"`)
    .orderBy('branch_id')
    .execute();
  return rows.map(toBranch);
}

export async function findBranch(db: ReadDb, organizationId: string, branchId: string): Promise<Branch | undefined> {
  const row = await db
    .selectFrom('branches')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('branch_id', '=', branchId)
    .executeTakeFirst();
  return row ? toBranch(row) : undefined;
}

export async function branchExists(db: ReadDb, organizationId: string, branchId: string): Promise<boolean> {
  const row = await db
    .selectFrom('branches')
    .select('branch_id')
    .where('organization_id', '=', organizationId)
    .where('branch_id', '=', branchId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Branches by id, limited to the organization (for `include=branch`). */
export async function findBranchesByIds(db: ReadDb, organizationId: string, ids: readonly string[]): Promise<Map<string, Branch>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('branches')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('branch_id', 'in', ids)
    .execute();
  return new Map(rows.map((row) => [row.branch_id, toBranch(row)]));
}
