import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/connect.js';
import { isDatabaseUnavailable } from '../../src/http/db-errors.js';
import { buildTestApp, get, post, type TestApp } from '../helpers/app.js';
import { onPostgres } from '../helpers/db.js';
import { KEYS, OFFER } from '../helpers/fixtures.js';
import { checkResponsesAgainstOpenApi } from '../helpers/openapi-responses.js';

describe('error answers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { BODY_LIMIT: '2048' } });
  });
  afterAll(() => t.destroy());

  it('404 {"detail":"Not Found"} for an unknown route, with or without a key', async () => {
    for (const key of [KEYS.activeA1, null, KEYS.unknown]) {
      // (GET / leads to the docs: see openapi.test.ts.)
      for (const url of ['/api/v1/nothing', '/api/v2/offers', '/nothing', '/api/v1/offers/x/y']) {
        const res = await get(t, url, { key });
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toEqual({ detail: 'Not Found' });
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      }
    }
  });

  it('405 {"detail":"Method Not Allowed"} with Allow for a known path and another method, before the key check', async () => {
    const cases: [string, string, string][] = [
      ['DELETE', '/api/v1/branches', 'GET, HEAD'],
      ['POST', '/api/v1/organization', 'GET, HEAD'],
      ['GET', '/api/v1/offers', 'POST'],
      ['PUT', `/api/v1/offers/${OFFER.krakowFull}`, 'GET, HEAD'],
      ['PATCH', '/api/v1/investments/whatever/offers', 'POST'],
      ['POST', '/health', 'GET, HEAD'],
    ];
    for (const [method, url, allow] of cases) {
      const res = await t.app.inject({ method: method as 'GET', url });
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.json()).toEqual({ detail: 'Method Not Allowed' });
      expect(res.headers.allow).toBe(allow);
    }
  });

  it('413 {"detail":"Request body too large"} over the configured limit (after the key check)', async () => {
    const big = JSON.stringify({ pagination: {}, padding: 'x'.repeat(4096) });
    const res = await post(t, '/api/v1/offers', big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: 'Request body too large' });
    const anonymous = await post(t, '/api/v1/offers', big, { key: null });
    expect(anonymous.statusCode).toBe(401);
  });

  it('errors stay JSON when XML is asked for', async () => {
    for (const res of [
      await get(t, '/api/v1/offers/nope', { headers: { accept: 'application/xml' } }),
      await get(t, '/api/v1/offers/nope', { key: null, headers: { accept: 'application/xml' } }),
      await post(t, '/api/v1/offers', '{', { headers: { accept: 'application/xml' } }),
      await get(t, '/api/v1/unknown', { headers: { accept: 'application/xml' } }),
    ]) {
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(() => res.json()).not.toThrow();
    }
  });

  it('sets nosniff and no X-Powered-By on every answer', async () => {
    for (const res of [
      await get(t, '/api/v1/organization'),
      await get(t, '/api/v1/organization', { key: null }),
      await get(t, '/api/v1/nothing'),
      await get(t, '/health'),
      await get(t, '/openapi.json'),
      await get(t, '/api/v1/offers/%E0%A4%A'),
    ]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('answers an undecodable URL with a JSON 400', async () => {
    const res = await get(t, '/api/v1/offers/%E0%A4%A');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'Bad Request' });
  });

  it('serves a path with a trailing slash like the path itself', async () => {
    const res = await get(t, '/api/v1/branches/');
    expect(res.statusCode).toBe(200);
    expect(Array.isArray(res.json())).toBe(true);
  });

  it('answers HEAD on the GET routes without a body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/api/v1/organization', headers: { authorization: KEYS.activeA1 } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });
});

describe('faults', () => {
  it('500 {"detail":"Internal Server Error"} without details when a query fails', async () => {
    const t = await buildTestApp();
    try {
      await t.db.db.schema.dropTable('offers').execute();
      const res = await post(t, '/api/v1/offers', { pagination: {} });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ detail: 'Internal Server Error' });
      expect(res.body).not.toContain('offers');
    } finally {
      await t.destroy();
    }
  });

  it('503 {"detail":"Service Unavailable"} and an unhealthy /health when the database cannot be reached', async () => {
    // A server address nothing listens on.
    const handle = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:9/none', connectionTimeoutMs: 2000 });
    const app = await buildApp({ config: loadConfig({ KEY_CACHE_TTL_MS: '0' }), db: handle, logger: false });
    checkResponsesAgainstOpenApi(app);
    try {
      const res = await app.inject({ method: 'GET', url: '/api/v1/organization', headers: { authorization: KEYS.activeA1 } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ detail: 'Service Unavailable' });
      const health = await app.inject({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(503);
      expect(health.json()).toEqual({ detail: 'Service Unavailable' });
    } finally {
      await app.close();
      await handle.close();
    }
  });

  it('503 when the database handle has been closed under the app', async () => {
    const t = await buildTestApp();
    try {
      expect((await get(t, '/health')).json()).toEqual({ status: 'ok' });
      await t.db.close();
      const res = await get(t, '/api/v1/branches');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ detail: 'Service Unavailable' });
      expect((await get(t, '/health')).statusCode).toBe(503);
    } finally {
      await t.app.close();
      await t.db.destroy().catch(() => {});
    }
  });

  it.runIf(onPostgres)('counts a statement cancelled by statement_timeout as unavailable', async () => {
    const t = await buildTestApp({ seed: false });
    try {
      const cancelled = await t.db.db
        .connection()
        .execute(async (conn) => {
          await sql`set statement_timeout = 10`.execute(conn);
          return sql`select pg_sleep(1)`.execute(conn);
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect((cancelled as { code?: string }).code).toBe('57014');
      expect(isDatabaseUnavailable(cancelled)).toBe(true);
    } finally {
      await t.destroy();
    }
  });
});
