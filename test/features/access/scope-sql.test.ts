/**
 * The two forms of the scope rule (src/features/access/scope-sql.ts) agree: the indexable conditions the
 * API's lists use and the SQL functions of src/db/routines/website-scope.ts (for the change feed and
 * any set-based reader), on random scopes and random offers, nulls included; and both agree with the rule as
 * written in the docs (every given list holds the offer's value).
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebsiteScope } from '../../../src/db/database.js';
import { investmentInScopeSql, investmentScopeCondition, offerInScopeSql, offerScopeCondition, scopeJson } from '../../../src/features/access/scope-sql.js';
import { normalizeWebsiteScope, SCOPE_OFFER_TYPES } from '../../../src/features/access/scope.js';
import { createTestDb, type TestDb } from '../../helpers/db.js';
import { scaled } from '../../helpers/scale.js';
import { offerInScope } from '../../helpers/scoped-websites.js';

const INVESTMENTS = ['11111111-0000-4000-8000-000000000001', '11111111-0000-4000-8000-000000000002', '11111111-0000-4000-8000-000000000003'];
const BRANCHES = ['22222222-0000-4000-8000-000000000001', '22222222-0000-4000-8000-000000000002'];
const TYPES = [...SCOPE_OFFER_TYPES.slice(0, 3), 'SOMETHING_ELSE'];

const list = <T>(values: readonly T[]) => fc.option(fc.uniqueArray(fc.constantFrom(...values), { minLength: 1 }), { nil: undefined });
const scopeArb = fc
  .record({ investment_ids: list(INVESTMENTS), branch_ids: list(BRANCHES), offer_types: list(TYPES.slice(0, 3)) })
  .map((s) => normalizeWebsiteScope(s));
const offerArb = fc.record({
  investment_id: fc.option(fc.constantFrom(...INVESTMENTS), { nil: null }),
  branch_id: fc.option(fc.constantFrom(...BRANCHES), { nil: null }),
  offer_type: fc.option(fc.constantFrom(...TYPES), { nil: null }),
});

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.destroy());

interface Verdict {
  fn: boolean;
  cond: boolean;
  inv_fn: boolean;
  inv_cond: boolean;
}

async function judge(scope: WebsiteScope | null, offers: ReadonlyArray<{ investment_id: string | null; branch_id: string | null; offer_type: string | null }>) {
  const rows = offers.map((o) => sql`(${o.investment_id}::uuid, ${o.branch_id}::uuid, ${o.offer_type}::text)`);
  const cond = offerScopeCondition(scope, 'o') ?? sql`true`;
  const invCond = investmentScopeCondition(scope, 'o.investment_id') ?? sql`true`;
  const result = await sql<Verdict>`
    select ${offerInScopeSql(scopeJson(scope), 'o')} as fn, coalesce(${cond}, false) as cond,
      ${investmentInScopeSql(scopeJson(scope), 'o.investment_id')} as inv_fn, coalesce(${invCond}, false) as inv_cond
    from (values ${sql.join(rows)}) as o(investment_id, branch_id, offer_type)`.execute(t.db);
  return result.rows;
}

describe('the scope rule, in SQL', () => {
  it('the indexable conditions and the SQL functions agree with each other and with the rule', async () => {
    await fc.assert(
      fc.asyncProperty(scopeArb, fc.array(offerArb, { minLength: 1, maxLength: 20 }), async (scope, offers) => {
        const verdicts = await judge(scope, offers);
        verdicts.forEach((v, i) => {
          const expected = offerInScope(scope, offers[i]!);
          expect(v.fn, JSON.stringify({ scope, offer: offers[i] })).toBe(expected);
          expect(v.cond).toBe(expected);
          // An offer without an investment is an offer; as an investment, null is never listed.
          const investmentExpected = !scope?.investment_ids || (offers[i]!.investment_id !== null && scope.investment_ids.includes(offers[i]!.investment_id!));
          expect(v.inv_fn).toBe(investmentExpected);
          expect(v.inv_cond).toBe(investmentExpected);
        });
      }),
      { numRuns: scaled('SCOPE_RULE_RUNS', 150, 1000) },
    );
  });

  it('no scope and an empty scope restrict nothing; the rule reads the stored column', async () => {
    expect(offerScopeCondition(null, 'o')).toBeUndefined();
    expect(offerScopeCondition({}, 'o')).toBeUndefined();
    expect(normalizeWebsiteScope({})).toBeNull();
    expect(normalizeWebsiteScope({ investment_ids: [INVESTMENTS[1]!.toUpperCase(), INVESTMENTS[0]!, INVESTMENTS[1]!] })).toEqual({
      investment_ids: [INVESTMENTS[0], INVESTMENTS[1]],
    });
    const stored = await sql<{ scoped: boolean; whole: boolean }>`
      select ecs_offer_in_scope(${JSON.stringify({ offer_types: ['HOUSE_SALES'] })}::jsonb, null, null, 'APARTMENT_SALES') as scoped,
        ecs_offer_in_scope(null, null, null, null) as whole`.execute(t.db);
    expect(stored.rows[0]).toEqual({ scoped: false, whole: true });
  });
});
