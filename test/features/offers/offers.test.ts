import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, get, post, type TestApp } from '../../helpers/app.js';
import {
  ACTIVE_A_NEWEST_FIRST,
  AGENT,
  BRANCH,
  INVESTMENT,
  KEYS,
  OFFER,
  ORG_A,
} from '../../helpers/fixtures.js';
import { OFFER_DATA_FIELDS, OFFER_FIELDS, OFFERS_PAGE_FIELDS } from '../../helpers/fields.js';

describe('offers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.destroy());

  const ids = (body: { items: { offer_id: string }[] }) => body.items.map((o) => o.offer_id);

  describe('GET /api/v1/offers/{offer_id}', () => {
    it('returns the offer with every field in table order, offer_data complete', async () => {
      const res = await get(t, `/api/v1/offers/${OFFER.krakowFull}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(String(res.headers.vary).split(/\s*,\s*/)).toContain('Accept'); // with Authorization (and Accept-Encoding), see test/http/response-cache.test.ts
      const offer = res.json();
      expect(Object.keys(offer)).toEqual(OFFER_FIELDS);
      expect(Object.keys(offer.offer_data)).toEqual(OFFER_DATA_FIELDS);
      expect(offer).toMatchObject({
        offer_id: OFFER.krakowFull,
        external_id: 'CRM-1001',
        created_at: '2025-01-10T09:00:00.123456Z',
        updated_at: '2025-01-31T09:15:00Z',
        version: 3,
        agent: null,
        branch: null,
        organization: null,
        investment: null,
      });
      expect(offer.offer_data).toMatchObject({
        price: 780000,
        rooms: 3,
        administrative_rent: 450.5,
        has_balcony: true,
        has_basement: null,
        available_from_date: '2025-03-01T00:00:00.000Z',
        date_modified: '2025-01-31T09:15:00+00:00',
        date_posted: '2025-01-20T08:00:00+00:00',
        id: OFFER.krakowFull,
        external_id: 'CRM-1001',
        description_clean_text: 'Jasne mieszkanie & balkon.\nBlisko tramwaju.',
        photos_urls: ['https://img.example.com/1.jpg', 'https://img.example.com/2.jpg'],
        floor_plan_urls: [],
      });
    });

    it('embeds the included entities as their own endpoints return them', async () => {
      const res = await get(t, `/api/v1/offers/${OFFER.krakowFull}?include=agent,branch&include=organization&include=investment`);
      expect(res.statusCode).toBe(200);
      const offer = res.json();
      expect(offer.agent).toEqual((await get(t, `/api/v1/agents/${AGENT.nowak}`)).json());
      expect(offer.branch).toEqual((await get(t, `/api/v1/branches/${BRANCH.krakow}`)).json());
      expect(offer.organization).toEqual((await get(t, '/api/v1/organization')).json());
      expect(offer.investment).toEqual((await get(t, `/api/v1/investments/${INVESTMENT.zielone}`)).json());
    });

    it('gives null for an included entity the offer has no link to, or one of another organization', async () => {
      const res = await get(t, `/api/v1/offers/${OFFER.inactiveInvestment}?include=agent,branch,investment,organization`);
      const offer = res.json();
      expect(offer.agent).toBeNull(); // linked to organization B's agent
      expect(offer.branch).toBeNull(); // not linked
      expect(offer.investment).toMatchObject({ investment_id: INVESTMENT.wisla, is_active: false });
      expect(offer.organization.organization_id).toBe(ORG_A);
    });

    it('accepts the id in any letter case and answers in lower case', async () => {
      const res = await get(t, `/api/v1/offers/${OFFER.krakowFull.toUpperCase()}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().offer_id).toBe(OFFER.krakowFull);
    });

    it('answers 404 "Offer not found" for unknown, inactive and foreign offers', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', OFFER.inactive, OFFER.otherOrg]) {
        const res = await get(t, `/api/v1/offers/${id}`);
        expect(res.statusCode, id).toBe(404);
        expect(res.json()).toEqual({ detail: 'Offer not found' });
      }
      const own = await get(t, `/api/v1/offers/${OFFER.otherOrg}`, { key: KEYS.activeB });
      expect(own.statusCode).toBe(200);
    });

    it('answers 422 for a malformed id and for an unknown include, listing both', async () => {
      const res = await get(t, '/api/v1/offers/nope?include=agent,photos');
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toEqual([
        {
          type: 'uuid_parsing',
          loc: ['path', 'offer_id'],
          msg: 'Input should be a valid UUID, invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `n` at 1',
          input: 'nope',
          ctx: { error: 'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-], found `n` at 1' },
        },
        {
          type: 'literal_error',
          loc: ['query', 'include'],
          msg: "Input should be 'agent', 'branch', 'organization' or 'investment'",
          input: 'photos',
          ctx: { expected: "'agent', 'branch', 'organization' or 'investment'" },
        },
      ]);
    });

    it('keeps errors in JSON when XML is asked for', async () => {
      const res = await get(t, '/api/v1/offers/00000000-0000-4000-8000-000000000000', { headers: { accept: 'application/xml' } });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.json()).toEqual({ detail: 'Offer not found' });
    });
  });

  describe('POST /api/v1/offers', () => {
    it('returns the page envelope with active offers, newest first by default', async () => {
      const res = await post(t, '/api/v1/offers', { pagination: {} });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(String(res.headers.vary).split(/\s*,\s*/)).toContain('Accept'); // with Authorization (and Accept-Encoding), see test/http/response-cache.test.ts
      const body = res.json();
      expect(Object.keys(body)).toEqual(OFFERS_PAGE_FIELDS);
      expect(body).toMatchObject({ page: 1, size: 50, total: 6, pages: 1 });
      expect(ids(body)).toEqual(ACTIVE_A_NEWEST_FIRST);
      for (const offer of body.items) {
        expect(Object.keys(offer)).toEqual(OFFER_FIELDS);
        expect(Object.keys(offer.offer_data)).toEqual(OFFER_DATA_FIELDS);
      }
    });

    it('pages without overlap; a page past the end is empty; pages = ceil(total / size)', async () => {
      const pages = [];
      for (let page = 1; page <= 3; page++) {
        const body = (await post(t, '/api/v1/offers', { pagination: { page, size: 4 } })).json();
        expect(body).toMatchObject({ page, size: 4, total: 6, pages: 2 });
        pages.push(ids(body));
      }
      expect(pages).toEqual([ACTIVE_A_NEWEST_FIRST.slice(0, 4), ACTIVE_A_NEWEST_FIRST.slice(4), []]);
    });

    it('gives pages 0 when nothing matches', async () => {
      const body = (await post(t, '/api/v1/offers', { pagination: {}, filters: [{ field: 'price', operator: 'gt', value: 1e12 }] })).json();
      expect(body).toEqual({ items: [], page: 1, size: 50, total: 0, pages: 0 });
    });

    it('takes pydantic-style lax numbers in pagination', async () => {
      const body = (await post(t, '/api/v1/offers', { pagination: { page: '2', size: 5.0 } })).json();
      expect(body).toMatchObject({ page: 2, size: 5, total: 6, pages: 2 });
    });

    it('sorts with nulls last in both directions, ties by offer_id', async () => {
      const asc = (await post(t, '/api/v1/offers', { pagination: {}, sorting: { field: 'price' } })).json();
      expect(ids(asc)).toEqual([
        OFFER.krakowCheap, // 420000
        OFFER.gdansk, // 560000
        OFFER.krakowFull, // 780000
        OFFER.inactiveInvestment, // 990000
        OFFER.warszawa, // 1250000
        OFFER.nulls, // null
      ]);
      const desc = (await post(t, '/api/v1/offers', { pagination: {}, sorting: { field: 'offer_data.price', direction: 'desc' } })).json();
      expect(ids(desc)).toEqual([OFFER.warszawa, OFFER.inactiveInvestment, OFFER.krakowFull, OFFER.gdansk, OFFER.krakowCheap, OFFER.nulls]);
      const rooms = (await post(t, '/api/v1/offers', { pagination: {}, sorting: { field: 'rooms', direction: 'desc' } })).json();
      // 4, 3 (ties by id), 2 (ties by id), null
      expect(ids(rooms)).toEqual([OFFER.warszawa, OFFER.krakowFull, OFFER.inactiveInvestment, OFFER.krakowCheap, OFFER.gdansk, OFFER.nulls]);
      const external = (await post(t, '/api/v1/offers', { pagination: {}, sorting: { field: 'external_id' } })).json();
      // Byte order: upper case before lower case.
      expect(ids(external)).toEqual([OFFER.krakowFull, OFFER.krakowCheap, OFFER.warszawa, OFFER.nulls, OFFER.inactiveInvestment, OFFER.gdansk]);
      const city = (await post(t, '/api/v1/offers', { pagination: {}, sorting: { field: 'address_city', direction: 'desc' } })).json();
      expect(city.items.map((o: { offer_data: { address_city: string | null } }) => o.offer_data.address_city)).toEqual([
        'Warszawa',
        'Kraków',
        'Kraków',
        'Kraków',
        'Gdańsk',
        null,
      ]);
      const available = (await post(t, '/api/v1/offers', { pagination: {}, sorting: { field: 'available_from_date', direction: 'desc' } })).json();
      expect(ids(available)[0]).toBe(OFFER.warszawa);
      expect(ids(available)[5]).toBe(OFFER.nulls);
    });

    it('includes related entities in lists too', async () => {
      const body = (await post(t, '/api/v1/offers?include=agent,investment', { pagination: {}, sorting: { field: 'price' } })).json();
      const cheap = body.items[0];
      expect(cheap.agent.agent_id).toBe(AGENT.kowalskaAnna);
      expect(cheap.investment.investment_id).toBe(INVESTMENT.zielone);
      expect(cheap.branch).toBeNull();
      expect(cheap.organization).toBeNull();
    });

    it('shows another organization only its own offers', async () => {
      const body = (await post(t, '/api/v1/offers', { pagination: {} }, { key: KEYS.activeB })).json();
      expect(ids(body)).toEqual([OFFER.otherOrg]);
    });

    it('ignores unknown fields and unknown query parameters', async () => {
      const res = await post(t, '/api/v1/offers?foo=bar', { pagination: { size: 1, extra: 1 }, hello: 'world' });
      expect(res.statusCode).toBe(200);
      expect(res.json().size).toBe(1);
    });

    it('accepts null sorting and filters', async () => {
      const res = await post(t, '/api/v1/offers', { pagination: {}, sorting: null, filters: null });
      expect(ids(res.json())).toEqual(ACTIVE_A_NEWEST_FIRST);
    });
  });

  describe('content negotiation (wiring only; the XML itself is tested in test/xml)', () => {
    it('sends XML on the three offer operations when Accept asks for it, with Vary: Accept', async () => {
      const accept = { accept: 'application/xml' };
      for (const res of [
        await get(t, `/api/v1/offers/${OFFER.krakowFull}`, { headers: accept }),
        await post(t, '/api/v1/offers', { pagination: { size: 2 } }, { headers: accept }),
        await post(t, `/api/v1/investments/${INVESTMENT.zielone}/offers`, { pagination: {} }, { headers: accept }),
      ]) {
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
        expect(String(res.headers.vary).split(/\s*,\s*/)).toContain('Accept'); // with Authorization (and Accept-Encoding), see test/http/response-cache.test.ts
        expect(res.body.startsWith('<?xml')).toBe(true);
      }
    });

    it('stays JSON for */* and when JSON is named too', async () => {
      for (const accept of ['*/*', 'application/json, application/xml', 'text/html']) {
        const res = await get(t, `/api/v1/offers/${OFFER.krakowFull}`, { headers: { accept } });
        expect(res.headers['content-type'], accept).toBe('application/json; charset=utf-8');
      }
    });
  });

  describe('POST /api/v1/investments/{investment_id}/offers', () => {
    it('lists the active offers of one investment', async () => {
      const res = await post(t, `/api/v1/investments/${INVESTMENT.zielone}/offers`, { pagination: {}, sorting: { field: 'price' } });
      expect(res.statusCode).toBe(200);
      expect(String(res.headers.vary).split(/\s*,\s*/)).toContain('Accept'); // with Authorization (and Accept-Encoding), see test/http/response-cache.test.ts
      const body = res.json();
      expect(ids(body)).toEqual([OFFER.krakowCheap, OFFER.krakowFull]);
      expect(body).toMatchObject({ total: 2, pages: 1 });
    });

    it('still lists the active offers of an inactive investment', async () => {
      const body = (await post(t, `/api/v1/investments/${INVESTMENT.wisla}/offers`, { pagination: {} })).json();
      expect(ids(body)).toEqual([OFFER.inactiveInvestment]);
    });

    it('applies filters inside the investment', async () => {
      const body = (
        await post(t, `/api/v1/investments/${INVESTMENT.zielone.toUpperCase()}/offers`, {
          pagination: {},
          filters: [{ field: 'rooms', operator: 'eq', value: 3 }],
        })
      ).json();
      expect(ids(body)).toEqual([OFFER.krakowFull]);
    });

    it('gives an empty page for an investment without offers', async () => {
      const body = (await post(t, `/api/v1/investments/${INVESTMENT.empty}/offers`, { pagination: {} })).json();
      expect(body).toEqual({ items: [], page: 1, size: 50, total: 0, pages: 0 });
    });

    it('answers 404 "Investment not found" for an unknown or foreign investment', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', INVESTMENT.other]) {
        const res = await post(t, `/api/v1/investments/${id}/offers`, { pagination: {} });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ detail: 'Investment not found' });
      }
    });

    it('checks the body before the investment (422 before 404)', async () => {
      const res = await post(t, '/api/v1/investments/00000000-0000-4000-8000-000000000000/offers', {});
      expect(res.statusCode).toBe(422);
      expect(res.json().detail).toEqual([{ type: 'missing', loc: ['body', 'pagination'], msg: 'Field required', input: {} }]);
    });
  });
});
