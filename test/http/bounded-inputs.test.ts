/**
 * Bounded inputs: body size, number of filters, values in `in`, length of a filter string, header
 * size (refused by Node's HTTP parser without harm), and on PostgreSQL the per-statement timeout
 * and the bounded wait for a pooled connection (both 503 {"detail":"Service Unavailable"} with
 * Retry-After, never a hang).
 */
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type DbHandle } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { buildTestApp, post, type TestApp } from '../helpers/app.js';
import { onPostgres } from '../helpers/db.js';
import { insertFixture, KEYS } from '../helpers/fixtures.js';
import { createPostgresDatabase, pgClusterAvailable } from '../helpers/pg-cluster.js';

const priceFilters = (n: number) => Array.from({ length: n }, () => ({ field: 'price', operator: 'gte', value: 1 }));

/**
 * Sends raw bytes on a new connection and resolves with everything the server answered until it
 * closed the connection (requests say `Connection: close`). The client does not half-close: a
 * server may read an early FIN as an aborted request.
 */
function rawExchange(port: number, request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve(answer) : reject(error)));
    socket.on('close', () => resolve(answer));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.write(request);
  });
}

describe('bounded request inputs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.destroy());

  it('a body over 1 MiB is 413 {"detail":"Request body too large"}', async () => {
    expect(t.config.bodyLimit).toBe(1024 * 1024);
    const body = JSON.stringify({ pagination: {}, filters: [{ field: 'title', operator: 'contains', value: 'x'.repeat(1024 * 1024) }] });
    const res = await post(t, '/api/v1/offers', body);
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ detail: 'Request body too large' });
  });

  it('at most 50 filters: 51 is a 422 at ["body","filters"]', async () => {
    expect((await post(t, '/api/v1/offers', { pagination: {}, filters: priceFilters(50) })).statusCode).toBe(200);
    const res = await post(t, '/api/v1/offers', { pagination: {}, filters: priceFilters(51) });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0]).toMatchObject({ type: 'too_long', loc: ['body', 'filters'] });
  });

  it('at most 1,000 values in `in` / `not_in`: 1,001 is a 422 at the filter value', async () => {
    for (const operator of ['in', 'not_in']) {
      const values = (n: number) => Array.from({ length: n }, (_, i) => i);
      expect((await post(t, '/api/v1/offers', { pagination: {}, filters: [{ field: 'rooms', operator, value: values(1000) }] })).statusCode).toBe(200);
      const res = await post(t, '/api/v1/offers', { pagination: {}, filters: [{ field: 'rooms', operator, value: values(1001) }] });
      expect(res.statusCode).toBe(422);
      expect(res.json().detail[0]).toMatchObject({ type: 'too_long', loc: ['body', 'filters', 0, 'value'] });
    }
  });

  it('a filter string longer than 1,000 characters is a 422 (string_too_long)', async () => {
    expect((await post(t, '/api/v1/offers', { pagination: {}, filters: [{ field: 'title', operator: 'contains', value: 'x'.repeat(1000) }] })).statusCode).toBe(200);
    for (const operator of ['contains', 'starts_with', 'eq']) {
      const res = await post(t, '/api/v1/offers', { pagination: {}, filters: [{ field: 'title', operator, value: 'x'.repeat(1001) }] });
      expect(res.statusCode, operator).toBe(422);
      expect(res.json().detail[0]).toMatchObject({ type: 'string_too_long', loc: ['body', 'filters', 0, 'value'] });
    }
  });

  it('the biggest strings a body can carry are answered, never a 5xx', async () => {
    const huge = 'ż'.repeat(500_000); // about 1 MB of UTF-8, just under the body limit
    for (const operator of ['contains', 'starts_with', 'eq', 'in']) {
      const value = operator === 'in' ? [huge] : huge;
      const res = await post(t, '/api/v1/offers', { pagination: {}, filters: [{ field: 'title', operator, value }] });
      expect(res.statusCode, operator).toBeLessThan(500);
    }
  });

  describe('over a real socket', () => {
    let port: number;
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as net.AddressInfo).port;
    });

    it('headers over Node\'s limit get a 431 from the HTTP parser, and the server keeps serving', async () => {
      const answer = await rawExchange(port, `GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Junk: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
      expect(answer).toMatch(/^HTTP\/1\.1 431 /);
      expect(answer).toMatch(/content-type: application\/json/i);
      expect(answer).toContain('{"detail":"Request Header Fields Too Large"}');
      const badLine = await rawExchange(port, `GET /health HTTP/1.1 junk\r\n\r\n`);
      expect(badLine).toMatch(/^HTTP\/1\.1 400 /);
      expect(badLine).toContain('{"detail":"Bad Request"}');
      const many = Array.from({ length: 5000 }, (_, i) => `X-H${i}: v`).join('\r\n');
      expect(await rawExchange(port, `GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${many}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 431 /);
      // A big header under the limit is read and answered by the app (401 for a junk key).
      const big = await rawExchange(port, `GET /api/v1/organization HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: ${'k'.repeat(12_000)}\r\n\r\n`);
      expect(big).toMatch(/^HTTP\/1\.1 401 /);
      expect(big).toContain('{"detail":"Invalid API key"}');
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
    });

    it('a body over the limit is refused by Content-Length, and when chunked, with 413 JSON', async () => {
      const declared = await rawExchange(
        port,
        `POST /api/v1/offers HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEYS.activeA1}\r\nContent-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024}\r\nConnection: close\r\n\r\n{"pagination":`,
      );
      expect(declared).toMatch(/^HTTP\/1\.1 413 /);
      expect(declared).toContain('{"detail":"Request body too large"}');
      const chunk = 'x'.repeat(256 * 1024);
      const chunks = Array.from({ length: 6 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
      const chunked = await rawExchange(
        port,
        `POST /api/v1/offers HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEYS.activeA1}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunks}0\r\n\r\n`,
      );
      expect(chunked).toMatch(/^HTTP\/1\.1 413 /);
      expect(chunked).toContain('{"detail":"Request body too large"}');
    });
  });
});

describe.runIf(onPostgres || pgClusterAvailable())('statement timeout and pool wait (PostgreSQL)', () => {
  let url: string;
  let drop = async () => {};

  beforeAll(async () => {
    ({ url, drop } = await createPostgresDatabase('ecs_bounds'));
    const seed = await openDatabase({ databaseUrl: url, poolMax: 1 });
    await migrateToLatest(seed.db);
    await insertFixture(seed.db);
    await seed.close();
  });
  afterAll(async () => {
    await drop();
  });

  /** The app on its own pool, with a test-only route that runs pg_sleep(seconds). */
  async function appWithSlowRoute(options: { statementTimeoutMs: number; poolMax: number; poolTimeoutMs: number }) {
    const handle: DbHandle = await openDatabase({
      databaseUrl: url,
      statementTimeoutMs: options.statementTimeoutMs,
      poolMax: options.poolMax,
      connectionTimeoutMs: options.poolTimeoutMs,
    });
    const config = loadConfig({ LOG_LEVEL: 'silent', KEY_CACHE_TTL_MS: '0', DB_STATEMENT_TIMEOUT_MS: String(options.statementTimeoutMs) });
    const app: FastifyInstance = await buildApp({ config, db: handle, logger: false });
    app.get('/test-only/sleep/:seconds', async (request) => {
      const seconds = Number((request.params as { seconds: string }).seconds);
      await sql`select pg_sleep(${seconds})`.execute(handle.db);
      return { slept: seconds };
    });
    await app.ready();
    return { app, close: async () => (await app.close(), await handle.close()) };
  }

  it('a statement running past DB_STATEMENT_TIMEOUT_MS is cancelled: 503 with Retry-After, in bounded time', async () => {
    const { app, close } = await appWithSlowRoute({ statementTimeoutMs: 300, poolMax: 2, poolTimeoutMs: 1000 });
    try {
      const started = performance.now();
      const res = await app.inject({ method: 'GET', url: '/test-only/sleep/30' });
      const tookMs = performance.now() - started;
      console.log(`statement timeout figures ${JSON.stringify({ timeoutMs: 300, answeredAfterMs: Math.round(tookMs), status: res.statusCode })}`);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ detail: 'Service Unavailable' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(tookMs).toBeLessThan(10_000); // hang detector: a 30 s statement was cut short
      // The connection went back to the pool in working order.
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await close();
    }
  });

  it('with every pooled connection busy, a request waits DB_POOL_TIMEOUT_MS at most, then 503 with Retry-After', async () => {
    const { app, close } = await appWithSlowRoute({ statementTimeoutMs: 10_000, poolMax: 1, poolTimeoutMs: 300 });
    try {
      const holding = app.inject({ method: 'GET', url: '/test-only/sleep/2' });
      await new Promise((r) => setTimeout(r, 200));
      const started = performance.now();
      const [health, api] = await Promise.all([
        app.inject({ method: 'GET', url: '/health' }),
        app.inject({ method: 'GET', url: '/api/v1/organization', headers: { authorization: KEYS.activeA1 } }),
      ]);
      const tookMs = performance.now() - started;
      console.log(`pool wait figures ${JSON.stringify({ poolTimeoutMs: 300, answeredAfterMs: Math.round(tookMs), health: health.statusCode, api: api.statusCode })}`);
      for (const res of [health, api]) {
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ detail: 'Service Unavailable' });
      }
      expect(Number(api.headers['retry-after'])).toBeGreaterThan(0);
      expect(tookMs).toBeLessThan(5000); // hang detector
      expect((await holding).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      await close();
    }
  });
});
