/**
 * Prometheus metrics: GET /metrics exists on the main listener only when METRICS_TOKEN is set and
 * then answers only with the token; the counts move with requests (by route pattern, never the
 * URL), cache lookups, content changes; the metrics listener of its own refuses what is not a
 * scrape; and no key, key hash or raw URL ever appears in the output. (Real processes, the
 * metrics port and the cluster's sum: test/server/metrics.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/features/access/model.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { bearerMatches, serveMetrics, type MetricsListener } from '../../src/metrics/serve.js';
import { loadConfig, ConfigError } from '../../src/config.js';
import { bumpContentVersion } from '../../src/features/content-version/write.js';
import { buildTestApp, get, post, type TestApp } from '../helpers/app.js';
import { onPostgres } from '../helpers/db.js';
import { KEYS, OFFER } from '../helpers/fixtures.js';
import { sample } from '../helpers/metrics-text.js';
import { freePort } from '../helpers/net.js';

const TOKEN = 'metrics-token-0123456789abcdef';

describe('GET /metrics on the main listener', () => {
  it('does not exist without METRICS_TOKEN (the default), whatever the request sends', async () => {
    const t = await buildTestApp();
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }, { authorization: KEYS.activeA1 }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not Found' });
    }
    await t.destroy();
  });

  it('is not in the OpenAPI document even when it is on', async () => {
    const t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } });
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
    await t.destroy();
  });
});

describe('metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN, KEY_CACHE_TTL_MS: '2000', RESPONSE_CACHE: 'on' } });
  });
  afterAll(() => t.destroy());

  const scrape = async (): Promise<string> => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    return res.body;
  };

  it('refuses a scrape without the token, with a wrong one, or with an API key', async () => {
    for (const authorization of [undefined, '', 'Bearer', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN, `Basic ${TOKEN}`, KEYS.activeA1, `Bearer ${KEYS.activeA1}`]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization === undefined ? {} : { authorization } });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.json()).toEqual({ detail: 'Not authenticated' });
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.body).not.toContain('estate_');
    }
    // The scheme in any case, as the key check takes it.
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
  });

  it('counts and times requests by route pattern, method and status', async () => {
    const org = { route: '/api/v1/organization', method: 'GET', status: '200' };
    const offer404 = { route: '/api/v1/offers/:offer_id', method: 'GET', status: '404' };
    const before = await scrape();
    for (let i = 0; i < 3; i++) expect((await get(t, '/api/v1/organization')).statusCode).toBe(200);
    expect((await get(t, `/api/v1/offers/${OFFER.otherOrg}`)).statusCode).toBe(404);
    expect((await get(t, '/api/v1/organization', { key: null })).statusCode).toBe(401);
    expect((await get(t, '/no/such/path')).statusCode).toBe(404);
    const after = await scrape();

    expect(sample(after, 'estate_http_requests_total', org) - sample(before, 'estate_http_requests_total', org)).toBe(3);
    expect(sample(after, 'estate_http_request_duration_seconds_count', org) - sample(before, 'estate_http_request_duration_seconds_count', org)).toBe(3);
    expect(sample(after, 'estate_http_request_duration_seconds_bucket', { ...org, le: '+Inf' })).toBe(sample(after, 'estate_http_requests_total', org));
    expect(sample(after, 'estate_http_request_duration_seconds_sum', org)).toBeGreaterThan(0);
    expect(sample(after, 'estate_http_requests_total', offer404) - sample(before, 'estate_http_requests_total', offer404)).toBe(1);
    expect(sample(after, 'estate_http_requests_total', { route: '/api/v1/organization', method: 'GET', status: '401' })).toBeGreaterThanOrEqual(1);
    // Unknown paths share one label value, so a scanner cannot grow the series.
    expect(sample(after, 'estate_http_requests_total', { route: '(unmatched)', method: 'GET', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain('/no/such/path');
    expect(after).not.toContain(OFFER.otherOrg);
    // The scrape itself is counted too (after it is answered).
    expect(sample(after, 'estate_http_requests_total', { route: '/metrics', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(1);
  });

  it('counts response cache and key cache hits and misses', async () => {
    // Forgotten keys: the first request reads them (a miss), whatever earlier tests left fresh.
    t.app.services.keys.clear();
    const before = await scrape();
    const body = { pagination: { size: 2 }, sorting: { field: 'price', direction: 'asc' } };
    for (let i = 0; i < 3; i++) expect((await post(t, '/api/v1/offers', body, { key: KEYS.activeA2 })).statusCode).toBe(200);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    // The first answer is computed and stored, the next two come from memory.
    expect(delta('estate_response_cache_lookups_total', { result: 'miss' })).toBe(1);
    expect(delta('estate_response_cache_lookups_total', { result: 'hit' })).toBe(2);
    // The keys are read once, then known for KEY_CACHE_TTL_MS.
    expect(delta('estate_key_cache_lookups_total', { result: 'miss' })).toBeGreaterThanOrEqual(1);
    expect(delta('estate_key_cache_lookups_total', { result: 'hit' })).toBeGreaterThanOrEqual(1);
    expect(delta('estate_key_cache_lookups_total', { result: 'hit' }) + delta('estate_key_cache_lookups_total', { result: 'miss' })).toBe(3);
  });

  it('counts content changes this instance notices', async () => {
    const before = sample(await scrape(), 'estate_content_changes_total');
    await bumpContentVersion(t.db.db);
    await t.app.contentVersion.refresh();
    expect(sample(await scrape(), 'estate_content_changes_total')).toBe(before + 1);
  });

  it('reports the database, with its pool on PostgreSQL', async () => {
    const text = await scrape();
    expect(sample(text, 'estate_database_info', { kind: onPostgres ? 'postgres' : 'pglite' })).toBe(1);
    if (onPostgres) {
      expect(sample(text, 'estate_db_pool_max_connections')).toBe(5); // the test databases' pool
      expect(sample(text, 'estate_db_pool_connections')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'estate_db_pool_idle_connections')).toBeLessThanOrEqual(sample(text, 'estate_db_pool_connections'));
    } else {
      // PGlite is one in-process connection: no pool to report.
      expect(sample(text, 'estate_db_pool_max_connections')).toBe(0);
    }
    for (const name of ['estate_import_runs_total', 'estate_import_duration_seconds']) expect(text).toContain(`# TYPE ${name}`);
  });

  it('never shows a key, a key hash or a URL, whatever the requests carried', async () => {
    for (const key of Object.values(KEYS)) {
      await get(t, '/api/v1/organization', { key });
      await get(t, `/api/v1/offers/${key}`, { key });
      await get(t, `/api/v1/organization?api_key=${key}`, { key: null });
      await get(t, `/${key}`, { key: `Bearer ${key}` });
    }
    const text = await scrape();
    for (const key of Object.values(KEYS)) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(hashKey(key));
      expect(text).not.toContain(key.slice(0, 12)); // not even the visible prefix
    }
    expect(text).not.toContain('api_key');
    expect(text).not.toContain(TOKEN);
    // No metric name is shaped like a key (ecs_ + 16 or more characters): secret scanners stay quiet.
    expect(text).not.toMatch(/ecs_[A-Za-z0-9_-]{16,}/);
  });
});

describe('the metrics listener of its own', () => {
  let listener: MetricsListener;
  const metrics = createMetrics();
  metrics.httpRequests.inc({ route: '/health', method: 'GET', status: 200 });

  beforeAll(async () => {
    listener = await serveMetrics({
      host: '127.0.0.1',
      port: await freePort(),
      token: TOKEN,
      contentType: 'text/plain; version=0.0.4; charset=utf-8',
      read: () => metrics.registry.metrics(),
      onError: () => {},
    });
  });
  afterAll(() => listener.close());

  const url = (path: string) => `http://127.0.0.1:${listener.address.port}${path}`;

  it('answers GET /metrics with the token', async () => {
    const res = await fetch(url('/metrics'), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(sample(await res.text(), 'estate_http_requests_total', { route: '/health', method: 'GET', status: '200' })).toBe(1);
    const head = await fetch(url('/metrics'), { method: 'HEAD', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(head.status).toBe(200);
  });

  it('refuses anything else, in the JSON shape of the API', async () => {
    const cases: Array<[string, RequestInit, number, string]> = [
      ['/metrics', {}, 401, 'Not authenticated'],
      ['/metrics', { headers: { authorization: 'Bearer wrong-token-0123456789' } }, 401, 'Not authenticated'],
      ['/metrics', { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } }, 405, 'Method Not Allowed'],
      ['/', {}, 404, 'Not Found'],
      ['/api/v1/organization', { headers: { authorization: KEYS.activeA1 } }, 404, 'Not Found'],
    ];
    for (const [path, init, status, detail] of cases) {
      const res = await fetch(url(path), init);
      expect(res.status, path).toBe(status);
      expect(await res.json()).toEqual({ detail });
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('reports a failing read as 503 without details', async () => {
    const errors: unknown[] = [];
    const failing = await serveMetrics({
      host: '127.0.0.1',
      port: await freePort(),
      token: undefined,
      contentType: 'text/plain',
      read: () => Promise.reject(new Error('secret internals')),
      onError: (error) => errors.push(error),
    });
    try {
      const res = await fetch(`http://127.0.0.1:${failing.address.port}/metrics`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ detail: 'Service Unavailable' });
      expect(errors).toHaveLength(1);
    } finally {
      await failing.close();
    }
  });
});

describe('metrics configuration', () => {
  it('is off by default and checks its settings', () => {
    const config = loadConfig({});
    expect(config.metricsPort).toBeUndefined();
    expect(config.metricsToken).toBeUndefined();
    expect(config.metricsHost).toBe('127.0.0.1');
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toMatchObject({ metricsPort: 9464, metricsHost: '0.0.0.0' });
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_PORT: '8000', PORT: '8000' })).toThrow(/differ/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in it, long enough' })).toThrow(/METRICS_TOKEN/);
  });

  it('bearerMatches wants the exact token after Bearer', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`  BEARER   ${TOKEN}  `, TOKEN)).toBe(true);
    expect(bearerMatches([`Bearer ${TOKEN}`], TOKEN)).toBe(true);
    for (const header of [undefined, '', TOKEN, `Bearer ${TOKEN} extra`, `Bearer ${TOKEN.toUpperCase()}`, `Bearer`]) {
      expect(bearerMatches(header, TOKEN), String(header)).toBe(false);
    }
  });
});
