/**
 * Website scope (extension E7) through the API: a scoped website's key sees only the offers of its
 * scope, and only its investments when the scope lists investments, in every operation (JSON and
 * XML), include, facet and the field catalogue; everything else answers the 404 of an id that
 * exists nowhere. Branches, agents and the organization stay visible. Scoped and unscoped keys of
 * one organization never share cached answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, get, post, type TestApp } from '../../helpers/app.js';
import { ACTIVE_A_NEWEST_FIRST, AGENT, BRANCH, INVESTMENT, KEYS, OFFER, ORG_A, uid } from '../../helpers/fixtures.js';
import { insertScopedWebsites, SCOPED, visibleInvestments, visibleOffers } from '../../helpers/scoped-websites.js';
import { setWebsiteScope } from '../../../src/import/publish.js';

let t: TestApp;
beforeAll(async () => {
  // Key lookups are not cached in the test app: a changed scope counts from the next request.
  t = await buildTestApp();
  await insertScopedWebsites(t.db.db);
});
afterAll(() => t.destroy());

const ids = (body: unknown): string[] => (body as { items: { offer_id: string }[] }).items.map((o) => o.offer_id);
const listAll = (key: string, body: Record<string, unknown> = {}, url = '/api/v1/offers') =>
  post(t, url, { pagination: { page: 1, size: 100 }, ...body }, { key });

describe('offers', () => {
  it('a scoped key lists exactly the offers of its scope, newest first, with a total to match', async () => {
    for (const w of Object.values(SCOPED)) {
      const res = await listAll(w.key);
      expect(res.statusCode, res.body).toBe(200);
      const expected = ACTIVE_A_NEWEST_FIRST.filter((id) => visibleOffers(w.scope).includes(id));
      expect(ids(res.json()), w.name).toEqual(expected);
      expect(res.json().total).toBe(expected.length);
    }
    expect(visibleOffers(SCOPED.zielone.scope)).toEqual([OFFER.krakowFull, OFFER.krakowCheap]);
    expect(visibleOffers(SCOPED.warszawaSales.scope)).toEqual([OFFER.warszawa]);
    expect(visibleOffers(SCOPED.rentalsAndHouses.scope).sort()).toEqual([OFFER.nulls, OFFER.gdansk].sort());
    expect(visibleOffers(SCOPED.wislaSales.scope)).toEqual([OFFER.inactiveInvestment]);
  });

  it('an unscoped key of the same organization still sees all of it', async () => {
    expect(ids((await listAll(KEYS.activeA1)).json())).toEqual(ACTIVE_A_NEWEST_FIRST);
  });

  it('filters, search, sorting and pages work within the scope', async () => {
    const key = SCOPED.zielone.key;
    const cheap = await listAll(key, { filters: [{ field: 'price', operator: 'lt', value: 500000 }] });
    expect(ids(cheap.json())).toEqual([OFFER.krakowCheap]);
    // An out-of-scope id named in a filter matches nothing.
    const named = await listAll(key, { filters: [{ field: 'offer_id', operator: 'in', value: [OFFER.warszawa, OFFER.gdansk] }] });
    expect(named.json().total).toBe(0);
    const sorted = await listAll(key, { sorting: { field: 'price', direction: 'asc' } });
    expect(ids(sorted.json())).toEqual([OFFER.krakowCheap, OFFER.krakowFull]);
    const page2 = await post(t, '/api/v1/offers', { pagination: { page: 2, size: 1 } }, { key });
    expect(ids(page2.json())).toEqual([OFFER.krakowFull]);
    expect(page2.json()).toMatchObject({ total: 2, pages: 2 });
    const search = await listAll(SCOPED.rentalsAndHouses.key, { search: 'Gdańsk' });
    expect(search.statusCode, search.body).toBe(200);
    expect(ids(search.json()).every((id) => visibleOffers(SCOPED.rentalsAndHouses.scope).includes(id))).toBe(true);
    const geo = await listAll(SCOPED.zielone.key, {
      filters: [{ field: 'location', operator: 'within_radius', value: { lat: 50.04, lon: 19.95, km: 500 } }],
    });
    expect(geo.statusCode, geo.body).toBe(200);
    expect(ids(geo.json()).sort()).toEqual([OFFER.krakowCheap, OFFER.krakowFull].sort());
  });

  it('one offer: in scope 200, out of scope the 404 of an unknown id (JSON and XML)', async () => {
    const key = SCOPED.zielone.key;
    expect((await get(t, `/api/v1/offers/${OFFER.krakowFull}`, { key })).statusCode).toBe(200);
    for (const accept of ['application/json', 'application/xml']) {
      const scopedOut = await get(t, `/api/v1/offers/${OFFER.warszawa}`, { key, headers: { accept } });
      const nowhere = await get(t, `/api/v1/offers/${uid('dead', 1)}`, { key, headers: { accept } });
      expect(scopedOut.statusCode).toBe(404);
      expect(scopedOut.body).toBe(nowhere.body);
      expect(scopedOut.headers['content-type']).toBe(nowhere.headers['content-type']);
      expect(scopedOut.json()).toEqual({ detail: 'Offer not found' });
    }
  });

  it('XML lists hold only the scope', async () => {
    const res = await post(t, '/api/v1/offers', { pagination: { size: 100 } }, { key: SCOPED.warszawaSales.key, headers: { accept: 'application/xml' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.body).toContain(OFFER.warszawa);
    for (const id of ACTIVE_A_NEWEST_FIRST.filter((id) => id !== OFFER.warszawa)) expect(res.body).not.toContain(id);
  });
});

describe('includes', () => {
  it('agent, branch, organization and investment of an in-scope offer are embedded as for any key', async () => {
    const url = `/api/v1/offers/${OFFER.krakowFull}?include=agent,branch,organization,investment`;
    const scoped = await get(t, url, { key: SCOPED.zielone.key });
    const whole = await get(t, url);
    expect(scoped.statusCode).toBe(200);
    expect(scoped.body).toBe(whole.body);
    expect(scoped.json().investment.investment_id).toBe(INVESTMENT.zielone);
    expect(scoped.json().branch.branch_id).toBe(BRANCH.krakow);
    expect(scoped.json().agent.agent_id).toBe(AGENT.nowak);
  });

  it('an investment named only by an out-of-scope offer never appears', async () => {
    for (const accept of ['application/json', 'application/xml']) {
      const res = await post(t, '/api/v1/offers?include=investment,agent,branch,organization', { pagination: { size: 100 } }, {
        key: SCOPED.zielone.key,
        headers: { accept },
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(INVESTMENT.wisla);
      expect(res.body).not.toContain('Nad Wisłą');
    }
  });
});

describe('investments', () => {
  it('a scope that lists investments shows only those; other scopes show all', async () => {
    for (const w of Object.values(SCOPED)) {
      const res = await get(t, '/api/v1/investments', { key: w.key });
      expect(res.statusCode).toBe(200);
      const listed = (res.json() as { investment_id: string }[]).map((i) => i.investment_id);
      expect(listed.sort(), w.name).toEqual(visibleInvestments(w.scope).sort());
    }
    const active = await get(t, '/api/v1/investments?is_active=true', { key: SCOPED.wislaSales.key });
    expect((active.json() as { investment_id: string }[]).map((i) => i.investment_id)).toEqual([INVESTMENT.empty]);
  });

  it('an investment out of scope answers the 404 of an unknown one, on every operation that names it', async () => {
    const key = SCOPED.zielone.key;
    const unknown = uid('dead', 2);
    expect((await get(t, `/api/v1/investments/${INVESTMENT.zielone}`, { key })).statusCode).toBe(200);
    for (const id of [INVESTMENT.wisla, INVESTMENT.empty, INVESTMENT.other]) {
      const one = await get(t, `/api/v1/investments/${id}`, { key });
      expect(one.statusCode).toBe(404);
      expect(one.body).toBe((await get(t, `/api/v1/investments/${unknown}`, { key })).body);
      for (const suffix of ['offers', 'offers/facets']) {
        const body = suffix === 'offers' ? { pagination: { page: 1, size: 10 } } : { facets: ['rooms'] };
        const res = await post(t, `/api/v1/investments/${id}/${suffix}`, body, { key });
        const nowhere = await post(t, `/api/v1/investments/${unknown}/${suffix}`, body, { key });
        expect(res.statusCode).toBe(404);
        expect(res.body).toBe(nowhere.body);
        expect(res.json()).toEqual({ detail: 'Investment not found' });
      }
    }
  });

  it('the offers of a visible investment are those of the scope', async () => {
    // No investment_ids in this scope: every investment exists, its offers narrowed by type and branch.
    const res = await listAll(SCOPED.rentalsAndHouses.key, {}, `/api/v1/investments/${INVESTMENT.zielone}/offers`);
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(0);
    const own = await listAll(SCOPED.wislaSales.key, {}, `/api/v1/investments/${INVESTMENT.wisla}/offers`);
    expect(ids(own.json())).toEqual([OFFER.inactiveInvestment]);
  });
});

describe('branches, agents, organization', () => {
  it('stay visible to every scope', async () => {
    for (const url of ['/api/v1/branches', '/api/v1/agents', '/api/v1/organization', `/api/v1/branches/${BRANCH.lodz}`, `/api/v1/agents/${AGENT.noBranch}`]) {
      const scoped = await get(t, url, { key: SCOPED.zielone.key });
      expect(scoped.statusCode, url).toBe(200);
      expect(scoped.body).toBe((await get(t, url)).body);
    }
  });
});

describe('facets and the field catalogue', () => {
  it('count only the offers of the scope', async () => {
    const body = { facets: ['investment_id', 'branch_id', 'offer_type'], stats: ['price'] };
    const res = await post(t, '/api/v1/offers/facets', body, { key: SCOPED.zielone.key });
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json();
    expect(view.total).toBe(2);
    expect(view.facets.investment_id).toEqual([{ value: INVESTMENT.zielone, count: 2 }]);
    expect(view.facets.branch_id).toEqual([{ value: BRANCH.krakow, count: 2 }]);
    expect(view.stats.price).toMatchObject({ min: 420000, max: 780000, count: 2 });
    const types = await post(t, '/api/v1/offers/facets', { facets: ['offer_type'] }, { key: SCOPED.rentalsAndHouses.key });
    expect(types.json().facets.offer_type).toEqual([
      { value: 'APARTMENT_RENTALS', count: 1 },
      { value: 'HOUSE_SALES', count: 1 },
    ]);
    const investment = await post(t, `/api/v1/investments/${INVESTMENT.zielone}/offers/facets`, { facets: ['rooms'] }, { key: SCOPED.zielone.key });
    expect(investment.json().total).toBe(2);
  });

  it('the catalogue lists only the values of the scope', async () => {
    const scoped = await get(t, '/api/v1/meta/offers', { key: SCOPED.rentalsAndHouses.key });
    expect(scoped.statusCode).toBe(200);
    const field = (body: { fields: { name: string; values?: string[] }[] }, name: string) => body.fields.find((f) => f.name === name)?.values;
    expect(field(scoped.json(), 'offer_type')).toEqual(['APARTMENT_RENTALS', 'HOUSE_SALES']);
    expect(field((await get(t, '/api/v1/meta/offers')).json(), 'offer_type')).toEqual(['APARTMENT_RENTALS', 'APARTMENT_SALES', 'HOUSE_SALES']);
  });
});

describe('response cache', () => {
  it('a scoped and an unscoped key of one organization never share an answer', async () => {
    // Both orders: whichever asks first, the other gets its own answer.
    for (const [first, second] of [
      [KEYS.activeA1, SCOPED.zielone.key],
      [SCOPED.warszawaSales.key, KEYS.activeA2],
    ] as const) {
      const url = `/api/v1/offers?include=investment&order=${first.slice(-3)}`;
      const a = await post(t, url, { pagination: { size: 100 } }, { key: first });
      const b = await post(t, url, { pagination: { size: 100 } }, { key: second });
      const again = await post(t, url, { pagination: { size: 100 } }, { key: first });
      expect(a.statusCode).toBe(200);
      expect(b.statusCode).toBe(200);
      expect(a.body).not.toBe(b.body);
      expect(again.body).toBe(a.body);
    }
    const whole = await get(t, '/api/v1/investments');
    const scoped = await get(t, '/api/v1/investments', { key: SCOPED.zielone.key });
    expect(JSON.parse(scoped.body)).toHaveLength(1);
    expect(JSON.parse(whole.body)).toHaveLength(3);
    const wholeAgain = await get(t, '/api/v1/investments', { headers: { 'if-none-match': String(whole.headers.etag) } });
    expect(wholeAgain.statusCode).toBe(304);
    const scopedWithWholeTag = await get(t, '/api/v1/investments', { key: SCOPED.zielone.key, headers: { 'if-none-match': String(whole.headers.etag) } });
    expect(scopedWithWholeTag.statusCode).toBe(200);
  });

  it('two scoped websites with different scopes get their own answers; a changed scope is a new answer', async () => {
    const url = '/api/v1/offers?cache=scopes';
    const page = { pagination: { page: 1, size: 100 } };
    const z = await post(t, url, page, { key: SCOPED.zielone.key });
    const w = await post(t, url, page, { key: SCOPED.wislaSales.key });
    expect(ids(z.json())).toEqual([OFFER.krakowCheap, OFFER.krakowFull]);
    expect(ids(w.json())).toEqual([OFFER.inactiveInvestment]);

    await setWebsiteScope(t.db.db, SCOPED.zielone.websiteId, { offer_types: ['APARTMENT_RENTALS'] });
    try {
      // The key cache holds the old scope for at most its lifetime (test app: no cache).
      const changed = await post(t, url, page, { key: SCOPED.zielone.key });
      expect(ids(changed.json())).toEqual([OFFER.gdansk]);
      const investments = await get(t, '/api/v1/investments', { key: SCOPED.zielone.key });
      expect(investments.json()).toHaveLength(3);
      await setWebsiteScope(t.db.db, SCOPED.zielone.websiteId, null);
      expect(ids((await post(t, url, page, { key: SCOPED.zielone.key })).json())).toEqual(ACTIVE_A_NEWEST_FIRST);
    } finally {
      await setWebsiteScope(t.db.db, SCOPED.zielone.websiteId, SCOPED.zielone.scope);
    }
    expect(ids((await post(t, url, page, { key: SCOPED.zielone.key })).json())).toEqual([OFFER.krakowCheap, OFFER.krakowFull]);
  });
});

describe('an unscoped organization', () => {
  it('answers as before for its own keys (organization B)', async () => {
    const res = await listAll(KEYS.activeB);
    expect(ids(res.json())).toEqual([uid('0ffb', 1)]);
    expect(ORG_A).not.toBe(res.json().items[0].organization_id);
  });
});
