import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../../src/routes.js';
import { buildTestApp, get, post, type TestApp } from '../../helpers/app.js';
import { validBodyOf } from '../../helpers/keyed-route-cases.js';
import { generateKey } from '../../../src/features/access/model.js';
import { AGENT, BRANCH, INVESTMENT, KEY_IDS, KEYS, OFFER, ORG_A, ORG_B, WEBSITE_B1 } from '../../helpers/fixtures.js';

/** A concrete URL for a route of the table (path parameters filled with a real id). */
function concreteUrl(url: string): string {
  return url
    .replace(':branch_id', BRANCH.krakow)
    .replace(':agent_id', AGENT.nowak)
    .replace(':investment_id', INVESTMENT.zielone)
    .replace(':offer_id', OFFER.krakowFull)
    .replace(':kind', 'offer')
    .replace(':slug', 'dwupokojowe-mieszkanie-z-balkonem-krakow');
}

const API_ROUTES = ROUTES.filter((route) => route.url.startsWith('/api/v1'));

describe('authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.destroy());

  const send = (route: (typeof API_ROUTES)[number], headers: Record<string, string>) =>
    t.app.inject({
      method: route.method,
      url: concreteUrl(route.url),
      headers: route.method === 'POST' ? { ...headers, 'content-type': 'application/json' } : headers,
      ...(route.method === 'POST' ? { payload: validBodyOf(route) } : {}),
    });

  it('covers every operation of the interface', () => {
    expect(API_ROUTES.map((r) => `${r.method} ${r.url}`).sort()).toEqual(
      [
        'GET /api/v1/organization',
        'GET /api/v1/branches',
        'GET /api/v1/branches/:branch_id',
        'GET /api/v1/branches/:branch_id/agents',
        'GET /api/v1/agents',
        'GET /api/v1/agents/:agent_id',
        'GET /api/v1/investments',
        'GET /api/v1/investments/:investment_id',
        'GET /api/v1/offers/:offer_id',
        'POST /api/v1/offers',
        'POST /api/v1/investments/:investment_id/offers',
        // Extensions: search (facets, field catalogue).
        'POST /api/v1/offers/facets',
        'POST /api/v1/investments/:investment_id/offers/facets',
        'GET /api/v1/meta/offers',
        // Extensions: sync (change feed).
        'GET /api/v1/changes',
        // Extensions: search engines (slugs, sitemap, structured data).
        'GET /api/v1/slugs/:kind/:slug',
        'GET /api/v1/sitemap.xml',
        'GET /api/v1/offers/:offer_id/structured-data',
        // Extensions: light lists and maps (similar offers, clusters).
        'GET /api/v1/offers/:offer_id/similar',
        'POST /api/v1/offers/clusters',
        'POST /api/v1/investments/:investment_id/offers/clusters',
        // Extensions: photos, price history.
        'GET /api/v1/offers/:offer_id/photos',
        'GET /api/v1/offers/:offer_id/price-history',
      ].sort(),
    );
    for (const route of API_ROUTES) expect(route.auth, route.url).toBe(true);
  });

  it.each(API_ROUTES.map((r) => [`${r.method} ${r.url}`, r] as const))('%s requires a key', async (_name, route) => {
    const missing = await send(route, {});
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({ detail: 'API key is required' });
    expect(missing.headers['content-type']).toBe('application/json; charset=utf-8');

    const unknown = await send(route, { authorization: KEYS.unknown });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ detail: 'Invalid API key' });

    const inactive = await send(route, { authorization: KEYS.inactiveA1 });
    expect(inactive.statusCode).toBe(401);
    expect(inactive.json()).toEqual({ detail: 'API key is not active' });

    const ok = await send(route, { authorization: KEYS.activeA1 });
    expect(ok.statusCode).toBe(200);
  });

  it('takes the key bare or as a Bearer token, in any case, with surrounding white space', async () => {
    for (const value of [
      KEYS.activeA1,
      `Bearer ${KEYS.activeA1}`,
      `bearer ${KEYS.activeA1}`,
      `BEARER   ${KEYS.activeA1}`,
      `  ${KEYS.activeA1}\t`,
      ` Bearer ${KEYS.activeA1} `,
    ]) {
      const res = await get(t, '/api/v1/organization', { key: value });
      expect(res.statusCode, JSON.stringify(value)).toBe(200);
    }
  });

  it('treats an empty or blank header, or a bare "Bearer", as no key', async () => {
    for (const value of ['', '   ', 'Bearer', 'Bearer   ']) {
      const res = await get(t, '/api/v1/organization', { key: value });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: 'API key is required' });
    }
  });

  it('refuses other schemes and near misses as invalid keys', async () => {
    for (const value of [`Basic ${KEYS.activeA1}`, `${KEYS.activeA1}x`, KEYS.activeA1.toUpperCase(), `Bearer: ${KEYS.activeA1}`]) {
      const res = await get(t, '/api/v1/organization', { key: value });
      expect(res.json()).toEqual({ detail: 'Invalid API key' });
    }
  });

  it('treats an expired key as not active and a key expiring later as active', async () => {
    const expired = await get(t, '/api/v1/organization', { key: KEYS.expiredA1 });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ detail: 'API key is not active' });
    const later = await get(t, '/api/v1/organization', { key: KEYS.expiresLaterA1 });
    expect(later.statusCode).toBe(200);
  });

  it('scopes every answer to the key\'s organization', async () => {
    const a2 = await get(t, '/api/v1/organization', { key: KEYS.activeA2 });
    expect(a2.json().organization_id).toBe(ORG_A);
    const b = await get(t, '/api/v1/organization', { key: KEYS.activeB });
    expect(b.json().organization_id).toBe(ORG_B);
  });

  it('answers 401 before looking at ids or bodies (401, then 422, then 404)', async () => {
    const badId = await get(t, '/api/v1/offers/not-a-uuid', { key: null });
    expect(badId.statusCode).toBe(401);
    const badBody = await post(t, '/api/v1/offers', '{not json', { key: KEYS.unknown });
    expect(badBody.statusCode).toBe(401);
    expect(badBody.json()).toEqual({ detail: 'Invalid API key' });
    const unknownIdBadBody = await post(t, `/api/v1/investments/${ORG_B}/offers`, { pagination: { size: 0 } });
    expect(unknownIdBadBody.statusCode).toBe(422);
    const unknownId = await post(t, `/api/v1/investments/${ORG_B}/offers`, { pagination: {} });
    expect(unknownId.statusCode).toBe(404);
  });

  it('sees a deactivated key at once when the cache is off', async () => {
    const before = await get(t, '/api/v1/organization', { key: KEYS.activeA2 });
    expect(before.statusCode).toBe(200);
    await t.db.db.updateTable('api_keys').set({ is_active: false }).where('key_id', '=', KEY_IDS.activeA2).execute();
    const after = await get(t, '/api/v1/organization', { key: KEYS.activeA2 });
    expect(after.json()).toEqual({ detail: 'API key is not active' });
    await t.db.db.updateTable('api_keys').set({ is_active: true }).where('key_id', '=', KEY_IDS.activeA2).execute();
  });

  it('records when a key was last used, in the background', async () => {
    // A key this app has not seen yet (it records each key at most once a minute).
    const fresh = generateKey();
    const keyId = '4e4100ff-0000-4000-8000-000000000001';
    await t.db.db
      .insertInto('api_keys')
      .values({ key_id: keyId, website_id: WEBSITE_B1, key_sha256: fresh.sha256, key_prefix: fresh.prefix, is_active: true })
      .execute();
    const res = await get(t, '/api/v1/branches', { key: fresh.key });
    expect(res.statusCode).toBe(200);
    // The write is not awaited by the request; poll the row until it lands.
    let lastUsed: string | null = null;
    for (let i = 0; i < 200 && lastUsed === null; i++) {
      const row = await t.db.db.selectFrom('api_keys').select('last_used_at').where('key_id', '=', keyId).executeTakeFirstOrThrow();
      lastUsed = row.last_used_at;
      if (lastUsed === null) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(lastUsed).not.toBeNull();
  });
});

describe('logging', () => {
  it('never writes the key to the log, even when a request fails', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const t = await buildTestApp({ logger: { level: 'trace', stream } });
    try {
      await get(t, '/api/v1/organization', { key: `Bearer ${KEYS.activeA1}` });
      await get(t, '/api/v1/organization', { key: KEYS.unknown });
      await post(t, '/api/v1/offers', '{broken', { key: KEYS.activeA1 });
      // A fault: the offers table disappears (500, logged with the request id).
      await t.db.db.schema.dropTable('offers').execute();
      const failed = await post(t, '/api/v1/offers', { pagination: {} });
      expect(failed.statusCode).toBe(500);
      expect(failed.json()).toEqual({ detail: 'Internal Server Error' });
    } finally {
      await t.destroy();
    }
    const log = lines.join('');
    expect(log.length).toBeGreaterThan(0);
    for (const key of [KEYS.activeA1, KEYS.unknown]) expect(log).not.toContain(key);
    const failure = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'request failed');
    expect(failure?.reqId).toBeDefined();
    expect(failure?.err).toBeDefined();
  });

  it('redacts the Authorization header wherever a request is serialized with its headers', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const t = await buildTestApp({
      logger: {
        level: 'info',
        stream,
        serializers: { req: (req: { headers: Record<string, unknown> }) => ({ headers: req.headers }) },
      },
    });
    try {
      await get(t, '/api/v1/organization', { key: KEYS.activeA1 });
      // The request line has no headers (test/http/request-log.test.ts); a line that logs the
      // request with its headers still gets the key masked.
      t.app.log.info({ req: { headers: { authorization: KEYS.activeA1, accept: '*/*' } } }, 'a request with its headers');
    } finally {
      await t.destroy();
    }
    const log = lines.join('');
    expect(log).toContain('[redacted]');
    expect(log).not.toContain(KEYS.activeA1);
  });
});
