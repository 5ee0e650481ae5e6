/**
 * Investments of one organization, ordered by name (byte order, as the index), then id. Queries of
 * fixed text, prepared once per connection (src/db/prepared.ts); columns listed, never `*`.
 */
import { sql } from 'kysely';
import type { InvestmentRow } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import { toInvestment } from '../domain/entities.js';
import type { Investment } from '../domain/resources.js';
import type { ReadDb } from './readonly.js';

const COLUMNS = sql.raw('investment_id, organization_id, webpage_id, name, description, is_active, created_at, updated_at');

export async function listInvestments(db: ReadDb, organizationId: string, isActive?: boolean): Promise<Investment[]> {
  const result = await sql<InvestmentRow>`${prepared('list_investments')}
    select ${COLUMNS} from investments
    where organization_id = ${organizationId} and (${isActive ?? null}::boolean is null or is_active = ${isActive ?? null}::boolean)
    order by name collate "C", investment_id`.execute(db);
  return result.rows.map(toInvestment);
}

export async function findInvestment(db: ReadDb, organizationId: string, investmentId: string): Promise<Investment | undefined> {
  const result = await sql<InvestmentRow>`${prepared('find_investment')}
    select ${COLUMNS} from investments where organization_id = ${organizationId} and investment_id = ${investmentId}`.execute(db);
  const row = result.rows[0];
  return row ? toInvestment(row) : undefined;
}

export async function investmentExists(db: ReadDb, organizationId: string, investmentId: string): Promise<boolean> {
  const result = await sql`${prepared('investment_exists')}
    select 1 from investments where organization_id = ${organizationId} and investment_id = ${investmentId}`.execute(db);
  return result.rows.length > 0;
}

/** Investments by id, limited to the organization (for `include=investment`). */
export async function findInvestmentsByIds(
  db: ReadDb,
  organizationId: string,
  ids: readonly string[],
): Promise<Map<string, Investment>> {
  if (ids.length === 0) return new Map();
  const result = await sql<InvestmentRow>`${prepared('find_investments_by_ids')}
    select ${COLUMNS} from investments where organization_id = ${organizationId} and investment_id = any(${ids}::uuid[])`.execute(db);
  return new Map(result.rows.map((row) => [row.investment_id, toInvestment(row)]));
}
