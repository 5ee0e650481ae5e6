/**
 * Investments of one organization, ordered by name (byte order, as the index), then id. Queries of
 * fixed text, prepared once per connection (src/db/prepared.ts); columns listed, never `*`.
 *
 * A website whose scope lists investments (extension E7) sees only those: its queries add the
 * scope rule (ecs_investment_in_scope, src/db/website-scope.ts) under their own statement names,
 * so that the unscoped statements keep their text.
 */
import { sql, type RawBuilder } from 'kysely';
import type { InvestmentRow } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import { investmentInScopeSql, scopeJson } from '../db/website-scope.js';
import { toInvestment } from '../domain/entities.js';
import type { Investment } from '../domain/resources.js';
import type { Visibility } from '../domain/visibility.js';
import type { ReadDb } from './readonly.js';

const COLUMNS = sql.raw('investment_id, organization_id, webpage_id, name, description, is_active, created_at, updated_at');

/** The scope condition of a scoped caller (with its statement name suffix), or none. */
function scoped(visibility: Visibility): { name: string; condition: RawBuilder<unknown> } {
  return visibility.scope?.investment_ids
    ? { name: '_scoped', condition: sql`and ${investmentInScopeSql(scopeJson(visibility.scope), 'investment_id')}` }
    : { name: '', condition: sql`` };
}

export async function listInvestments(db: ReadDb, visibility: Visibility, isActive?: boolean): Promise<Investment[]> {
  const scope = scoped(visibility);
  const result = await sql<InvestmentRow>`${prepared(`list_investments${scope.name}`)}
    select ${COLUMNS} from investments
    where organization_id = ${visibility.organizationId} and (${isActive ?? null}::boolean is null or is_active = ${isActive ?? null}::boolean)
    ${scope.condition}
    order by name collate "C", investment_id`.execute(db);
  return result.rows.map(toInvestment);
}

export async function findInvestment(db: ReadDb, visibility: Visibility, investmentId: string): Promise<Investment | undefined> {
  const scope = scoped(visibility);
  const result = await sql<InvestmentRow>`${prepared(`find_investment${scope.name}`)}
    select ${COLUMNS} from investments where organization_id = ${visibility.organizationId} and investment_id = ${investmentId}
    ${scope.condition}`.execute(db);
  const row = result.rows[0];
  return row ? toInvestment(row) : undefined;
}

export async function investmentExists(db: ReadDb, visibility: Visibility, investmentId: string): Promise<boolean> {
  const scope = scoped(visibility);
  const result = await sql`${prepared(`investment_exists${scope.name}`)}
    select 1 from investments where organization_id = ${visibility.organizationId} and investment_id = ${investmentId}
    ${scope.condition}`.execute(db);
  return result.rows.length > 0;
}

/** Investments by id that the caller sees (for `include=investment`). */
export async function findInvestmentsByIds(
  db: ReadDb,
  visibility: Visibility,
  ids: readonly string[],
): Promise<Map<string, Investment>> {
  if (ids.length === 0) return new Map();
  const scope = scoped(visibility);
  const result = await sql<InvestmentRow>`${prepared(`find_investments_by_ids${scope.name}`)}
    select ${COLUMNS} from investments where organization_id = ${visibility.organizationId} and investment_id = any(${ids}::uuid[])
    ${scope.condition}`.execute(db);
  return new Map(result.rows.map((row) => [row.investment_id, toInvestment(row)]));
}
