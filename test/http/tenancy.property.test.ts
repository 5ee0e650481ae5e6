/**
 * Tenancy, as a property: whatever a website's key asks for — any operation, any `include`
 * combination, JSON or XML, ids of every kind from the other organization (in any letter case),
 * unknown ids, its own ids, filters on the other organization's ids — the answer is the contract's
 * 404 or a result that holds nothing of the other organization (no id of it anywhere in the body,
 * none of its names). An id of the other organization in the path is exactly the 404 of an id that
 * exists nowhere.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordWebsiteChanges } from '../../src/features/change-feed/write.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { scaled } from '../helpers/scale.js';
import {
  AGENT,
  BRANCH,
  INVESTMENT,
  KEY_IDS,
  KEYS,
  OFFER,
  ORG_A,
  ORG_B,
  uid,
  WEBSITE_A1,
  WEBSITE_A2,
  WEBSITE_B1,
} from '../helpers/fixtures.js';

type Org = 'A' | 'B';

/** Every id of each organization in the fixture, by kind (webpage ids included). */
const IDS: Record<Org, Record<'organization' | 'website' | 'key' | 'branch' | 'agent' | 'investment' | 'offer' | 'webpage', string[]>> = {
  A: {
    organization: [ORG_A],
    website: [WEBSITE_A1, WEBSITE_A2],
    key: [KEY_IDS.activeA1, KEY_IDS.activeA2, KEY_IDS.inactiveA1, KEY_IDS.expiredA1, KEY_IDS.expiresLaterA1],
    branch: [BRANCH.krakow, BRANCH.warszawa, BRANCH.lodz, BRANCH.empty],
    agent: [AGENT.nowak, AGENT.kowalskaAnna, AGENT.kowalskaBeata, AGENT.noBranch],
    investment: [INVESTMENT.zielone, INVESTMENT.wisla, INVESTMENT.empty],
    offer: [OFFER.krakowFull, OFFER.krakowCheap, OFFER.warszawa, OFFER.nulls, OFFER.inactiveInvestment, OFFER.gdansk, OFFER.inactive],
    webpage: [uid('0eb0', 1), uid('0eb0', 2), uid('0eb0', 3), uid('0eb0', 4), uid('0ea0', 1), uid('0ec0', 1)],
  },
  B: {
    organization: [ORG_B],
    website: [WEBSITE_B1],
    key: [KEY_IDS.activeB],
    branch: [BRANCH.other],
    agent: [AGENT.other],
    investment: [INVESTMENT.other],
    offer: [OFFER.otherOrg, OFFER.otherOrgInactive],
    webpage: [uid('0eb0', 5)],
  },
};

/** Text that only the other organization's records hold. */
const MARKERS: Record<Org, string[]> = {
  A: ['Nieruchomości Wawel', 'Kraków Centrum', 'Kowalska', 'Osiedle Zielone', 'CRM-1001', 'wawel.example.com'],
  B: ['Poznań Homes', 'Poznań Stary Rynek', 'Adamski', 'Poznań Park', '"B-1"', '>B-1<', 'poznan-homes'],
};

const allIds = (org: Org) => Object.values(IDS[org]).flat();
const other = (org: Org): Org => (org === 'A' ? 'B' : 'A');

const CALLERS = [
  { key: KEYS.activeA1, org: 'A' as Org },
  { key: KEYS.activeA2, org: 'A' as Org },
  { key: KEYS.activeB, org: 'B' as Org },
];

const INCLUDES = ['agent', 'branch', 'organization', 'investment'] as const;

type OperationName =
  | 'organization'
  | 'branches'
  | 'branch'
  | 'branchAgents'
  | 'agents'
  | 'agent'
  | 'investments'
  | 'investment'
  | 'investmentOffers'
  | 'offer'
  | 'offers'
  | 'changes';

/** Operations with an id in the path, and the 404 each gives for an id it does not know. */
const NOT_FOUND: Partial<Record<OperationName, { kind: keyof (typeof IDS)['A']; detail: string }>> = {
  branch: { kind: 'branch', detail: 'Branch not found' },
  branchAgents: { kind: 'branch', detail: 'Branch not found' },
  agent: { kind: 'agent', detail: 'Agent not found' },
  investment: { kind: 'investment', detail: 'Investment not found' },
  investmentOffers: { kind: 'investment', detail: 'Investment not found' },
  offer: { kind: 'offer', detail: 'Offer not found' },
};

const anyFixtureId = fc.constantFrom(...allIds('A'), ...allIds('B'));
const anyId = fc.oneof({ weight: 4, arbitrary: anyFixtureId }, { weight: 1, arbitrary: fc.uuid() });
const FILTER_FIELDS = ['agent_id', 'branch_id', 'investment_id', 'offer_id'] as const;

const requestArb = fc.record({
  caller: fc.constantFrom(...CALLERS),
  operation: fc.constantFrom<OperationName>(
    'organization',
    'branches',
    'branch',
    'branchAgents',
    'agents',
    'agent',
    'investments',
    'investment',
    'investmentOffers',
    'offer',
    'offers',
    'changes',
  ),
  /** How the path id is chosen (resolved against the operation and the caller in pathId()). */
  idChoice: fc.record({
    source: fc.constantFrom('foreignSameKind', 'foreignSameKind', 'ownSameKind', 'anyFixture', 'unknown'),
    n: fc.nat(),
    any: anyFixtureId,
    unknown: fc.uuid(),
  }),
  upperCase: fc.boolean(),
  include: fc.subarray([...INCLUDES]),
  includeAsRepeat: fc.boolean(),
  accept: fc.constantFrom(undefined, 'application/json', 'application/xml', 'text/xml;q=0.9, application/json;q=0.1', '*/*'),
  filters: fc.array(
    fc.record({
      field: fc.constantFrom(...FILTER_FIELDS),
      operator: fc.constantFrom('eq', 'ne', 'in', 'not_in', 'is_null'),
      ids: fc.array(anyId, { minLength: 1, maxLength: 4 }),
    }),
    { maxLength: 3 },
  ),
  isActive: fc.constantFrom(undefined, 'true', 'false'),
  size: fc.integer({ min: 1, max: 100 }),
});

type GeneratedRequest = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

/** The id in the path: mostly one of the kind the operation addresses, often the other organization's. */
function pathId(r: GeneratedRequest): string {
  const kind = NOT_FOUND[r.operation]?.kind ?? 'offer';
  const { source, n, any, unknown } = r.idChoice;
  const pick = (ids: string[]) => ids[n % ids.length]!;
  if (source === 'foreignSameKind') return pick(IDS[other(r.caller.org)][kind]);
  if (source === 'ownSameKind') return pick(IDS[r.caller.org][kind]);
  if (source === 'anyFixture') return any;
  return unknown;
}

function toInject(r: GeneratedRequest) {
  const raw = pathId(r);
  const id = r.upperCase ? raw.toUpperCase() : raw;
  const includeQuery =
    r.include.length === 0 ? '' : r.includeAsRepeat ? r.include.map((i) => `include=${i}`).join('&') : `include=${r.include.join(',')}`;
  const headers: Record<string, string> = { authorization: r.caller.key, ...(r.accept ? { accept: r.accept } : {}) };
  const body = {
    pagination: { page: 1, size: r.size },
    filters: r.filters.map((f) => ({
      field: f.field,
      operator: f.operator,
      value: f.operator === 'in' || f.operator === 'not_in' ? f.ids : f.operator === 'is_null' ? f.ids.length % 2 === 0 : f.ids[0],
    })),
  };
  const post = (url: string) => ({
    method: 'POST' as const,
    url: includeQuery ? `${url}?${includeQuery}` : url,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  switch (r.operation) {
    case 'organization':
      return { method: 'GET' as const, url: '/api/v1/organization', headers };
    case 'branches':
      return { method: 'GET' as const, url: '/api/v1/branches', headers };
    case 'branch':
      return { method: 'GET' as const, url: `/api/v1/branches/${id}`, headers };
    case 'branchAgents':
      return { method: 'GET' as const, url: `/api/v1/branches/${id}/agents`, headers };
    case 'agents':
      return { method: 'GET' as const, url: '/api/v1/agents', headers };
    case 'agent':
      return { method: 'GET' as const, url: `/api/v1/agents/${id}`, headers };
    case 'investments':
      return { method: 'GET' as const, url: `/api/v1/investments${r.isActive ? `?is_active=${r.isActive}` : ''}`, headers };
    case 'investment':
      return { method: 'GET' as const, url: `/api/v1/investments/${id}`, headers };
    case 'investmentOffers':
      return post(`/api/v1/investments/${id}/offers`);
    case 'offer':
      return { method: 'GET' as const, url: `/api/v1/offers/${id}${includeQuery ? `?${includeQuery}` : ''}`, headers };
    case 'offers':
      return post('/api/v1/offers');
    case 'changes':
      return { method: 'GET' as const, url: `/api/v1/changes?limit=${r.size}`, headers };
  }
}

describe('tenancy: another organization does not exist for a key', () => {
  let t: TestApp;
  const tally = { requests: 0, notFound: 0, ok: 0, otherOrgIdInPath: 0 };

  beforeAll(async () => {
    t = await buildTestApp();
    // The fixture is written without the import: record its change feeds as an import would.
    await t.db.db.transaction().execute((trx) => recordWebsiteChanges(trx, [ORG_A, ORG_B]));
  });
  afterAll(async () => {
    console.log(`tenancy property figures ${JSON.stringify(tally)}`);
    await t.destroy();
  });

  it('answers the contract 404 or a result free of the other organization, for any request', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const res = await t.app.inject(toInject(r));
        tally.requests++;
        const foreign = other(r.caller.org);
        const body = res.body.toLowerCase();
        // No id and no name of the other organization anywhere in the answer (JSON or XML).
        for (const foreignId of allIds(foreign)) expect(body, `${foreignId} leaked`).not.toContain(foreignId);
        for (const marker of MARKERS[foreign]) expect(body, `${marker} leaked`).not.toContain(marker.toLowerCase());

        const pathRule = NOT_FOUND[r.operation];
        if (pathRule && allIds(foreign).includes(pathId(r))) {
          // Another organization's id (of any kind) in the path: exactly the 404 of an unknown id.
          tally.otherOrgIdInPath++;
          expect(res.statusCode).toBe(404);
          expect(res.headers['content-type']).toMatch(/^application\/json/);
          expect(res.json()).toEqual({ detail: pathRule.detail });
        }
        expect([200, 404]).toContain(res.statusCode);
        if (res.statusCode === 404) {
          tally.notFound++;
          expect(pathRule, `404 from ${r.operation}`).toBeDefined();
          expect(res.json()).toEqual({ detail: pathRule!.detail });
        } else {
          tally.ok++;
        }
      }),
      { numRuns: scaled('TENANCY_RUNS', 600, 3000), seed: process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined },
    );
    expect(tally.otherOrgIdInPath).toBeGreaterThan(0);
  });

  it('an offer of A linked to an agent of B never includes that agent (fixture edge)', async () => {
    for (const accept of ['application/json', 'application/xml']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/offers/${OFFER.inactiveInvestment}?include=agent,branch,organization,investment`,
        headers: { authorization: KEYS.activeA1, accept },
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(AGENT.other);
      expect(res.body).not.toContain('Adamski');
    }
  });
});
