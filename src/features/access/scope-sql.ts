/**
 * The rule of a website's scope (extension E7) as SQL, in one place for every reader: the API's
 * reads (the catalog's and the offers') and whatever computes "what a website sees" on the write
 * side (the change feed). An offer is in scope when it matches every list the scope gives (any value
 * within a list; an offer without an investment, branch or offer type matches no list of that
 * kind); an investment is in scope when the scope has no `investment_ids` or names it. Branches,
 * agents and the organization are never restricted.
 *
 * Two forms of the same rule:
 * - for one caller whose scope is known (a parameter): conditions on the offer's own columns that
 *   indexes can serve (`o.investment_id = any($1::uuid[])`), or undefined without a scope, so an
 *   unscoped query keeps its exact text;
 * - for many websites at once (a join with `websites`): calls of the SQL functions
 *   `ecs_offer_in_scope(scope jsonb, investment_id uuid, branch_id uuid, offer_type text)` and
 *   `ecs_investment_in_scope(scope jsonb, investment_id uuid)` (true for a null scope), defined in
 *   src/db/routines/website-scope.ts. test/features/access/scope-sql.test.ts holds the two forms
 *   to each other.
 */
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { WebsiteScope } from '../../db/database.js';

type ScopeSource = WebsiteScope | null | undefined;

const column = (alias: string, name: string) => sql.ref(`${alias}.${name}`);

/**
 * The offers of table alias `alias` (an `offers` row: investment_id, branch_id, offer_type) that
 * the scope lets its website see; undefined when the scope restricts nothing.
 */
export function offerScopeCondition(scope: ScopeSource, alias: string): RawBuilder<SqlBool> | undefined {
  if (!scope) return undefined;
  const parts: RawBuilder<SqlBool>[] = [];
  if (scope.investment_ids) parts.push(sql<SqlBool>`${column(alias, 'investment_id')} = any(${[...scope.investment_ids]}::uuid[])`);
  if (scope.branch_ids) parts.push(sql<SqlBool>`${column(alias, 'branch_id')} = any(${[...scope.branch_ids]}::uuid[])`);
  if (scope.offer_types) parts.push(sql<SqlBool>`${column(alias, 'offer_type')} = any(${[...scope.offer_types]}::text[])`);
  return parts.length === 0 ? undefined : sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

/** The investments (column `investmentColumn`, e.g. 'i.investment_id') in scope; undefined when all are. */
export function investmentScopeCondition(scope: ScopeSource, investmentColumn: string): RawBuilder<SqlBool> | undefined {
  if (!scope?.investment_ids) return undefined;
  return sql<SqlBool>`${sql.ref(investmentColumn)} = any(${[...scope.investment_ids]}::uuid[])`;
}

/** A scope as an SQL jsonb value (a parameter; null for no scope). */
export function scopeJson(scope: ScopeSource): RawBuilder<unknown> {
  return sql`${scope ? JSON.stringify(scope) : null}::jsonb`;
}

/**
 * `ecs_offer_in_scope(scope, alias.investment_id, alias.branch_id, alias.offer_type)`: for set-based
 * SQL over many websites, e.g. `offerInScopeSql(sql.ref('w.scope'), 'o')` in a query joining
 * `websites as w` and `offers as o`. `scope` is any jsonb expression (a column, or scopeJson()).
 */
export function offerInScopeSql(scope: Expression<unknown> | RawBuilder<unknown>, alias: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`ecs_offer_in_scope(${scope}, ${column(alias, 'investment_id')}, ${column(alias, 'branch_id')}, ${column(alias, 'offer_type')})`;
}

/** `ecs_investment_in_scope(scope, investmentColumn)`, the investment rule for set-based SQL. */
export function investmentInScopeSql(scope: Expression<unknown> | RawBuilder<unknown>, investmentColumn: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`ecs_investment_in_scope(${scope}, ${sql.ref(investmentColumn)})`;
}
