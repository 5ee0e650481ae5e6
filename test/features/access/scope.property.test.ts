/**
 * Website scope, as a property (extension E7): whatever a scoped website's key asks for — any
 * operation, include, filter, facet, JSON or XML, ids in or out of its scope, of its organization
 * or the other one — no offer outside its scope appears anywhere in the answer, no investment
 * outside it when the scope lists investments, and a path id outside the scope answers exactly the
 * 404 of an id that exists nowhere. Unfiltered lists and facet totals count exactly the scope.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordWebsiteChanges } from '../../../src/features/change-feed/write.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { BRANCH, INVESTMENT, OFFER, OFFER_SEEDS, ORG_A, ORG_B, uid } from '../../helpers/fixtures.js';
import { scaled } from '../../helpers/scale.js';
import { insertScopedWebsites, SCOPED_WEBSITES, visibleInvestments, visibleOffers, type ScopedWebsite } from '../../helpers/scoped-websites.js';

const ALL_OFFERS = OFFER_SEEDS.map((s) => s.offer_id);
const ALL_INVESTMENTS = Object.values(INVESTMENT);
const INCLUDES = ['agent', 'branch', 'organization', 'investment'] as const;

type OperationName = 'offer' | 'offers' | 'investment' | 'investments' | 'investmentOffers' | 'facets' | 'investmentFacets' | 'meta' | 'changes';

const NOT_FOUND: Partial<Record<OperationName, { kind: 'offer' | 'investment'; detail: string }>> = {
  offer: { kind: 'offer', detail: 'Offer not found' },
  investment: { kind: 'investment', detail: 'Investment not found' },
  investmentOffers: { kind: 'investment', detail: 'Investment not found' },
  investmentFacets: { kind: 'investment', detail: 'Investment not found' },
};

const anyId = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ALL_OFFERS, ...ALL_INVESTMENTS, ...Object.values(BRANCH)) },
  { weight: 1, arbitrary: fc.uuid() },
);

const requestArb = fc.record({
  website: fc.nat({ max: SCOPED_WEBSITES.length - 1 }),
  operation: fc.constantFrom<OperationName>('offer', 'offers', 'investment', 'investments', 'investmentOffers', 'facets', 'investmentFacets', 'meta', 'changes'),
  pathId: fc.oneof(fc.constantFrom(...ALL_OFFERS, ...ALL_INVESTMENTS), fc.constant(uid('dead', 9))),
  upperCase: fc.boolean(),
  include: fc.subarray([...INCLUDES]),
  accept: fc.constantFrom(undefined, 'application/json', 'application/xml'),
  filters: fc.array(
    fc.record({
      field: fc.constantFrom('agent_id', 'branch_id', 'investment_id', 'offer_id'),
      operator: fc.constantFrom('eq', 'ne', 'in', 'not_in', 'is_null'),
      ids: fc.array(anyId, { minLength: 1, maxLength: 3 }),
    }),
    { maxLength: 2 },
  ),
  facets: fc.subarray(['investment_id', 'branch_id', 'agent_id', 'offer_type', 'address_city'], { minLength: 1 }),
  isActive: fc.constantFrom(undefined, 'true', 'false'),
});

type GeneratedRequest = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

function toInject(r: GeneratedRequest, w: ScopedWebsite) {
  const id = r.upperCase ? r.pathId.toUpperCase() : r.pathId;
  const include = r.include.length === 0 ? '' : `?include=${r.include.join(',')}`;
  const headers: Record<string, string> = { authorization: w.key, ...(r.accept ? { accept: r.accept } : {}) };
  const filters = r.filters.map((f) => ({
    field: f.field,
    operator: f.operator,
    value: f.operator === 'in' || f.operator === 'not_in' ? f.ids : f.operator === 'is_null' ? f.ids.length % 2 === 0 : f.ids[0],
  }));
  const post = (url: string, body: unknown) => ({
    method: 'POST' as const,
    url,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  const list = { pagination: { page: 1, size: 100 }, filters };
  const facets = { filters, facets: r.facets, stats: ['price'] };
  switch (r.operation) {
    case 'offer':
      return { method: 'GET' as const, url: `/api/v1/offers/${id}${include}`, headers };
    case 'offers':
      return post(`/api/v1/offers${include}`, list);
    case 'investment':
      return { method: 'GET' as const, url: `/api/v1/investments/${id}`, headers };
    case 'investments':
      return { method: 'GET' as const, url: `/api/v1/investments${r.isActive ? `?is_active=${r.isActive}` : ''}`, headers };
    case 'investmentOffers':
      return post(`/api/v1/investments/${id}/offers${include}`, list);
    case 'facets':
      return post('/api/v1/offers/facets', facets);
    case 'investmentFacets':
      return post(`/api/v1/investments/${id}/offers/facets`, facets);
    case 'meta':
      return { method: 'GET' as const, url: '/api/v1/meta/offers', headers };
    case 'changes':
      return { method: 'GET' as const, url: '/api/v1/changes?limit=1000', headers };
  }
}

describe('scope: what is outside a website\'s scope does not exist for its key', () => {
  let t: TestApp;
  const tally = { requests: 0, notFound: 0, ok: 0, outOfScopeInPath: 0, countsChecked: 0 };

  beforeAll(async () => {
    t = await buildTestApp();
    await insertScopedWebsites(t.db.db);
    // Inserted without the import: record the websites' change feeds as an import would.
    await t.db.db.transaction().execute((trx) => recordWebsiteChanges(trx, [ORG_A, ORG_B]));
  });
  afterAll(async () => {
    console.log(`scope property figures ${JSON.stringify(tally)}`);
    await t.destroy();
  });

  it('answers the 404 of an unknown id or a result within the scope, for any request', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const w = SCOPED_WEBSITES[r.website]!;
        const res = await t.app.inject(toInject(r, w));
        tally.requests++;
        const offers = visibleOffers(w.scope);
        const investments = visibleInvestments(w.scope);
        const body = res.body.toLowerCase();
        for (const id of ALL_OFFERS.filter((o) => !offers.includes(o))) expect(body, `offer ${id} leaked to ${w.name}`).not.toContain(id);
        if (w.scope.investment_ids) {
          for (const id of ALL_INVESTMENTS.filter((i) => !investments.includes(i))) expect(body, `investment ${id} leaked to ${w.name}`).not.toContain(id);
        }

        const rule = NOT_FOUND[r.operation];
        const visible = rule?.kind === 'offer' ? offers.includes(r.pathId) : investments.includes(r.pathId);
        if (rule && !visible) {
          tally.outOfScopeInPath++;
          expect(res.statusCode, `${r.operation} ${r.pathId} for ${w.name}`).toBe(404);
          expect(res.headers['content-type']).toMatch(/^application\/json/);
          expect(res.json()).toEqual({ detail: rule.detail });
          tally.notFound++;
          return;
        }
        expect(res.statusCode, res.body).toBe(200);
        tally.ok++;
        // Without filters, the counts are exactly the scope's (the investment's part of it).
        if (r.filters.length === 0 && (res.headers['content-type'] ?? '').toString().startsWith('application/json')) {
          const within = r.operation.startsWith('investment')
            ? offers.filter((o) => OFFER_SEEDS.find((s) => s.offer_id === o)?.investment_id === r.pathId)
            : offers;
          if (r.operation === 'offers' || r.operation === 'investmentOffers' || r.operation === 'facets' || r.operation === 'investmentFacets') {
            expect(res.json().total).toBe(within.length);
            tally.countsChecked++;
          }
        }
      }),
      { numRuns: scaled('SCOPE_RUNS', 400, 2000), seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined },
    );
    expect(tally.outOfScopeInPath).toBeGreaterThan(0);
    expect(tally.countsChecked).toBeGreaterThan(0);
  });

  it('the reference agrees with the fixture: every website sees something and misses something', () => {
    for (const w of SCOPED_WEBSITES) {
      expect(visibleOffers(w.scope).length, w.name).toBeGreaterThan(0);
      expect(visibleOffers(w.scope)).not.toContain(OFFER.otherOrg);
      expect(visibleOffers(w.scope).length).toBeLessThan(6);
    }
  });
});
