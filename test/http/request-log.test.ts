/**
 * Request logs: exactly one JSON line per request, at info, with the request id, method, route
 * pattern, status, duration and (when a key was accepted) the website id, never the key. The
 * request id is the caller's X-Request-Id when it is sane, else a new UUID, and every answer
 * carries it back, errors, 304 and the router's own refusals included.
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/features/access/model.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { KEYS, OFFER, WEBSITE_A1, WEBSITE_B1 } from '../helpers/fixtures.js';
import { captureLog, type LogCapture } from '../helpers/log-capture.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let t: TestApp;
let log: LogCapture;

beforeAll(async () => {
  log = captureLog();
  t = await buildTestApp({ logger: log.options('info'), env: { RESPONSE_CACHE: 'on' } });
});
afterAll(() => t.destroy());

/**
 * Sends one request and returns its answer with the log lines it wrote: those with its request id
 * (background work, such as the offer columns loaded ahead on PostgreSQL, may log meanwhile).
 */
async function send(options: InjectOptions) {
  const before = log.lines().length;
  const res = await t.app.inject(options);
  const id = res.headers['x-request-id'];
  return { res, lines: log.lines().slice(before).filter((line) => (line as { reqId?: unknown }).reqId === id) };
}

describe('one line per request', () => {
  it('writes exactly one info line with the fields, for every kind of answer', async () => {
    const auth = { authorization: KEYS.activeA1 };
    const cases: Array<{ options: InjectOptions; status: number; route: string; websiteId: string | null }> = [
      { options: { method: 'GET', url: '/health' }, status: 200, route: '/health', websiteId: null },
      { options: { method: 'GET', url: '/api/v1/organization', headers: auth }, status: 200, route: '/api/v1/organization', websiteId: WEBSITE_A1 },
      { options: { method: 'GET', url: '/api/v1/organization', headers: { authorization: `Bearer ${KEYS.activeB}` } }, status: 200, route: '/api/v1/organization', websiteId: WEBSITE_B1 },
      { options: { method: 'GET', url: '/api/v1/organization' }, status: 401, route: '/api/v1/organization', websiteId: null },
      { options: { method: 'GET', url: '/api/v1/organization', headers: { authorization: KEYS.inactiveA1 } }, status: 401, route: '/api/v1/organization', websiteId: null },
      { options: { method: 'GET', url: '/api/v1/offers/not-a-uuid', headers: auth }, status: 422, route: '/api/v1/offers/:offer_id', websiteId: WEBSITE_A1 },
      { options: { method: 'GET', url: `/api/v1/offers/${OFFER.otherOrg}`, headers: auth }, status: 404, route: '/api/v1/offers/:offer_id', websiteId: WEBSITE_A1 },
      { options: { method: 'HEAD', url: `/api/v1/offers/${OFFER.krakowFull}`, headers: auth }, status: 200, route: '/api/v1/offers/:offer_id', websiteId: WEBSITE_A1 },
      { options: { method: 'POST', url: '/api/v1/offers', headers: { ...auth, 'content-type': 'application/json' }, payload: '{"pagination":' }, status: 422, route: '/api/v1/offers', websiteId: WEBSITE_A1 },
      { options: { method: 'GET', url: '/nowhere' }, status: 404, route: '(unmatched)', websiteId: null },
      { options: { method: 'DELETE', url: '/api/v1/offers', headers: auth }, status: 405, route: '(unmatched)', websiteId: null },
      { options: { method: 'GET', url: '/api/v1/agents%e2%82' }, status: 400, route: '(unmatched)', websiteId: null },
    ];
    for (const { options, status, route, websiteId } of cases) {
      const { res, lines } = await send(options);
      const what = `${options.method} ${options.url}`;
      expect(res.statusCode, what).toBe(status);
      expect(lines, what).toHaveLength(1);
      const line = lines[0]!;
      expect(line, what).toMatchObject({ level: 30, msg: 'request', method: options.method, route, status, websiteId });
      expect(line.reqId, what).toBe(res.headers['x-request-id']);
      expect(typeof line.durationMs).toBe('number');
      expect(line.durationMs as number).toBeGreaterThanOrEqual(0);
      expect(line.url, what).toBe(options.url);
    }
  });

  it('logs a revalidation answered 304 and a cache hit once each, with the id echoed', async () => {
    const url = `/api/v1/offers/${OFFER.krakowFull}`;
    const first = await send({ method: 'GET', url, headers: { authorization: KEYS.activeA1 } });
    const etag = String(first.res.headers.etag);
    const hit = await send({ method: 'GET', url, headers: { authorization: KEYS.activeA1, 'x-request-id': 'hit-1' } });
    expect(hit.res.statusCode).toBe(200);
    expect(hit.res.headers['x-request-id']).toBe('hit-1');
    expect(hit.lines).toHaveLength(1);
    const revalidated = await send({ method: 'GET', url, headers: { authorization: KEYS.activeA1, 'if-none-match': etag, 'x-request-id': 'rev-1' } });
    expect(revalidated.res.statusCode).toBe(304);
    expect(revalidated.res.headers['x-request-id']).toBe('rev-1');
    expect(revalidated.lines).toHaveLength(1);
    expect(revalidated.lines[0]).toMatchObject({ reqId: 'rev-1', status: 304, route: '/api/v1/offers/:offer_id' });
  });

  it('writes the line as the request\'s own pino child would: its fields in this order, reqId after the logger\'s bindings', async () => {
    // The request line goes through the parent logger with reqId first (the child is made only
    // when something else logs: src/http/plugins/request-log.ts); a reader sees the same bytes.
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/organization', headers: { 'x-request-id': 'order-1' } });
    expect(res.statusCode).toBe(401);
    const raw = log.text().split('\n').filter((text) => text.includes('"reqId":"order-1"'));
    expect(raw).toHaveLength(1);
    expect(Object.keys(JSON.parse(raw[0]!))).toEqual(['level', 'time', 'pid', 'hostname', 'reqId', 'method', 'route', 'url', 'status', 'durationMs', 'websiteId', 'msg']);
  });

  it('logs errors of the service on their own line, with the same request id', async () => {
    const broken = captureLog();
    const b = await buildTestApp({ logger: broken.options('info') });
    await b.db.close(); // the database goes away under the running app
    const res = await b.app.inject({ method: 'GET', url: '/api/v1/organization', headers: { authorization: KEYS.activeA1, 'x-request-id': 'outage-1' } });
    expect(res.statusCode).toBe(503);
    expect(res.headers['x-request-id']).toBe('outage-1');
    const lines = broken.lines().filter((line) => line.reqId === 'outage-1');
    expect(lines.filter((line) => line.msg === 'request')).toHaveLength(1);
    expect(lines.some((line) => Number(line.level) >= 50)).toBe(true);
    // The error line is the request's child logger's: reqId right after the logger's own bindings.
    const error = broken.text().split('\n').find((text) => text.includes('"reqId":"outage-1"') && !text.includes('"msg":"request"'))!;
    expect(Object.keys(JSON.parse(error)).slice(0, 5)).toEqual(['level', 'time', 'pid', 'hostname', 'reqId']);
    await b.destroy();
  });
});

describe('log levels', () => {
  it('writes no request line above info, and still echoes the id', async () => {
    const quiet = captureLog();
    const q = await buildTestApp({ logger: quiet.options('warn') });
    const res = await q.app.inject({ method: 'GET', url: '/api/v1/organization', headers: { authorization: KEYS.activeA1, 'x-request-id': 'quiet-1' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('quiet-1');
    expect(quiet.lines()).toEqual([]);
    await q.destroy();
  });
});

describe('X-Request-Id', () => {
  it('takes a sane id from the caller and echoes it', async () => {
    for (const id of ['a', 'abc-123', 'trace.4bf92f3577b34da6a3ce929d0e0e4736', 'svc:web:01J9Z8', 'x'.repeat(128), '550e8400-e29b-41d4-a716-446655440000']) {
      const { res, lines } = await send({ method: 'GET', url: '/api/v1/organization', headers: { authorization: KEYS.activeA1, 'x-request-id': id } });
      expect(res.headers['x-request-id']).toBe(id);
      expect(lines[0]!.reqId).toBe(id);
    }
  });

  it('replaces an insane id with a new UUID', async () => {
    const insane = ['', ' ', 'x'.repeat(129), 'has space', 'quote"', 'new\\nline', 'a,b', 'zażółć', '<script>', 'semi;colon', '{"json":1}'];
    const seen = new Set<string>();
    for (const id of insane) {
      const { res, lines } = await send({ method: 'GET', url: '/health', headers: { 'x-request-id': id } });
      const echoed = String(res.headers['x-request-id']);
      expect(echoed, JSON.stringify(id)).toMatch(UUID);
      expect(lines[0]!.reqId).toBe(echoed);
      seen.add(echoed);
    }
    expect(seen.size).toBe(insane.length); // a new one each time
    // Two X-Request-Id headers are one insane value.
    const twice = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': ['one', 'two'] } });
    expect(String(twice.headers['x-request-id'])).toMatch(UUID);
  });

  it('generates one when there is none, on every answer', async () => {
    for (const options of [
      { method: 'GET', url: '/health' },
      { method: 'GET', url: '/api/v1/organization' },
      { method: 'GET', url: '/nowhere' },
      { method: 'GET', url: '/api/v1/agents%e2%82' },
      { method: 'GET', url: '/openapi.json' },
    ] as const) {
      const res = await t.app.inject(options);
      expect(String(res.headers['x-request-id']), options.url).toMatch(UUID);
    }
  });

  it('refuses an id shaped like an API key, so a key sent in the wrong header is not logged or echoed', async () => {
    const { res, lines } = await send({ method: 'GET', url: '/health', headers: { 'x-request-id': KEYS.activeA1 } });
    expect(String(res.headers['x-request-id'])).toMatch(UUID);
    expect(JSON.stringify(lines)).not.toContain(KEYS.activeA1);
  });

  it('changes no answer body: the same request with and without an id answers the same bytes', async () => {
    const requests: InjectOptions[] = [
      { method: 'GET', url: '/api/v1/organization', headers: { authorization: KEYS.activeA1 } },
      { method: 'GET', url: '/api/v1/organization' },
      { method: 'GET', url: '/api/v1/offers/not-a-uuid', headers: { authorization: KEYS.activeA1 } },
      { method: 'GET', url: '/nowhere' },
    ];
    for (const options of requests) {
      const plain = await t.app.inject(options);
      const withId = await t.app.inject({ ...options, headers: { ...(options.headers as Record<string, string>), 'x-request-id': 'same-body' } });
      expect(withId.statusCode).toBe(plain.statusCode);
      expect(withId.body).toBe(plain.body);
      expect(withId.headers['content-length']).toBe(plain.headers['content-length']);
    }
  });
});

describe('the key never reaches the log', () => {
  it('has no key, key hash or Authorization value in any line, whatever was sent', async () => {
    const before = log.text().length;
    for (const key of Object.values(KEYS)) {
      await send({ method: 'GET', url: '/api/v1/organization', headers: { authorization: key } });
      await send({ method: 'GET', url: '/api/v1/organization', headers: { authorization: `Bearer ${key}` } });
      await send({ method: 'GET', url: `/api/v1/offers/${key}`, headers: { authorization: key } });
      await send({ method: 'GET', url: `/api/v1/organization?api_key=${key}` });
      await send({ method: 'GET', url: '/health', headers: { 'x-request-id': key } });
    }
    const written = log.text().slice(before);
    expect(written.split('\n').filter((line) => line.includes('"msg":"request"'))).toHaveLength(Object.values(KEYS).length * 5);
    for (const key of Object.values(KEYS)) {
      expect(written).not.toContain(key);
      expect(written).not.toContain(hashKey(key));
    }
    expect(written).toContain('ecs_[redacted]'); // the keys in URLs were masked, not dropped
    expect(written).not.toMatch(/authorization/i);
  });
});
