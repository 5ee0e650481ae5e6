/** Investments of one organization, ordered by name (byte order, as the index), then id. */
import { sql } from 'kysely';
import { toInvestment } from '../domain/entities.js';
import type { Investment } from '../schemas/resources.js';
import type { ReadDb } from './readonly.js';

export async function listInvestments(db: ReadDb, organizationId: string, isActive?: boolean): Promise<Investment[]> {
  let query = db
    .selectFrom('investments')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy(sql`name collate "C"`)
    .orderBy('investment_id');
  if (isActive !== undefined) query = query.where('is_active', '=', isActive);
  return (await query.execute()).map(toInvestment);
}

export async function findInvestment(db: ReadDb, organizationId: string, investmentId: string): Promise<Investment | undefined> {
  const row = await db
    .selectFrom('investments')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('investment_id', '=', investmentId)
    .executeTakeFirst();
  return row ? toInvestment(row) : undefined;
}

export async function investmentExists(db: ReadDb, organizationId: string, investmentId: string): Promise<boolean> {
  const row = await db
    .selectFrom('investments')
    .select('investment_id')
    .where('organization_id', '=', organizationId)
    .where('investment_id', '=', investmentId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Investments by id, limited to the organization (for `include=investment`). */
export async function findInvestmentsByIds(
  db: ReadDb,
  organizationId: string,
  ids: readonly string[],
): Promise<Map<string, Investment>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('investments')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('investment_id', 'in', ids)
    .execute();
  return new Map(rows.map((row) => [row.investment_id, toInvestment(row)]));
}
