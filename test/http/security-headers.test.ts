/**
 * Security headers on every answer (X-Content-Type-Options: nosniff, no X-Powered-By), errors,
 * documentation and framework-level refusals included; and CORS: no Access-Control-* header at
 * all unless CORS_ORIGINS names the origin, and then only that origin (never `*`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../../src/config.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { KEYS, OFFER } from '../helpers/fixtures.js';

const ALLOWED = 'https://www.wawel-nieruchomosci.example.com';
const OTHER = 'https://evil.example.net';

/** Requests that end in every kind of answer. */
const SAMPLE = [
  { method: 'GET', url: '/health' },
  { method: 'GET', url: '/openapi.json' },
  { method: 'GET', url: '/docs' },
  { method: 'HEAD', url: '/health' },
  { method: 'GET', url: '/api/v1/organization', headers: { authorization: KEYS.activeA1 } }, // 200
  { method: 'GET', url: `/api/v1/offers/${OFFER.krakowFull}`, headers: { authorization: KEYS.activeA1, accept: 'application/xml' } }, // 200 XML
  { method: 'GET', url: '/api/v1/organization' }, // 401
  { method: 'GET', url: '/api/v1/offers/not-a-uuid', headers: { authorization: KEYS.activeA1 } }, // 422
  { method: 'GET', url: `/api/v1/offers/${OFFER.otherOrg}`, headers: { authorization: KEYS.activeA1 } }, // 404
  { method: 'GET', url: '/nowhere' }, // 404 route
  { method: 'DELETE', url: '/api/v1/offers', headers: { authorization: KEYS.activeA1 } }, // 405
  { method: 'OPTIONS', url: '/api/v1/offers' }, // 405 (no CORS)
  { method: 'POST', url: '/api/v1/offers', headers: { authorization: KEYS.activeA1, 'content-type': 'application/json' }, payload: 'x'.repeat(1024 * 1024 + 1) }, // 413
  { method: 'GET', url: '/api/v1/agents%e2%82' }, // undecodable path: the router's own 400
] as const;

type Sample = (typeof SAMPLE)[number];
const inject = (t: TestApp, s: Sample, extra: Record<string, string> = {}) =>
  t.app.inject({ method: s.method, url: s.url, headers: { ...('headers' in s ? s.headers : {}), ...extra }, ...('payload' in s ? { payload: s.payload } : {}) });

describe('security headers and CORS off (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.destroy());

  it('every answer carries nosniff and no X-Powered-By, and no CORS header even for a browser origin', async () => {
    const statuses: number[] = [];
    for (const sample of SAMPLE) {
      const res = await inject(t, sample, { origin: ALLOWED });
      statuses.push(res.statusCode);
      expect(res.headers['x-content-type-options'], `${sample.method} ${sample.url}`).toBe('nosniff');
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['x-request-id'], `${sample.method} ${sample.url}`).toMatch(/^[0-9a-f-]{36}$/);
      for (const name of Object.keys(res.headers)) expect(name.startsWith('access-control-'), `${name} on ${sample.url}`).toBe(false);
    }
    expect(new Set(statuses)).toEqual(new Set([200, 401, 422, 404, 405, 413, 400]));
  });

  it('a CORS preflight gets no permission', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/offers',
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.statusCode).toBe(405);
    expect(res.json()).toEqual({ detail: 'Method Not Allowed' });
  });
});

describe('CORS with CORS_ORIGINS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { CORS_ORIGINS: `${ALLOWED}, https://second.example.org/` } });
  });
  afterAll(() => t.destroy());

  it('answers a preflight from a listed origin, and only that origin', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/offers',
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(res.headers['access-control-allow-methods'])).toContain('POST');
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(res.headers['vary'])).toMatch(/origin/i);
    expect(res.headers['x-content-type-options']).toBe('nosniff');

    const stranger = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/offers',
      headers: { origin: OTHER, 'access-control-request-method': 'POST' },
    });
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
    expect(stranger.statusCode).toBe(405);
  });

  it('lets a listed origin read answers, errors included, and tells caches to vary on Origin', async () => {
    for (const sample of SAMPLE) {
      const res = await inject(t, sample, { origin: 'https://second.example.org' });
      if (sample.url === '/api/v1/agents%e2%82') continue; // the router's 400 skips the hooks
      expect(res.headers['access-control-allow-origin'], `${sample.method} ${sample.url}`).toBe('https://second.example.org');
      expect(String(res.headers['access-control-expose-headers'])).toContain('RateLimit');
      expect(String(res.headers['access-control-expose-headers'])).toContain('X-Request-Id');
      expect(String(res.headers['vary'])).toMatch(/origin/i);
    }
    // The offer operations keep their own Vary: Accept (and the response cache its own values).
    const offer = await inject(t, SAMPLE[5], { origin: ALLOWED });
    const vary = String(offer.headers['vary']).toLowerCase().split(/\s*,\s*/);
    expect(vary).toContain('accept');
    expect(vary).toContain('origin');
    expect(new Set(vary).size).toBe(vary.length);
  });

  it('gives an unlisted origin nothing', async () => {
    for (const origin of [OTHER, 'null', `${ALLOWED}.evil.net`, ALLOWED.replace('https', 'http'), `${ALLOWED}:443`]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/organization', headers: { authorization: KEYS.activeA1, origin } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });

  it('refuses `*` and anything that is not an origin in CORS_ORIGINS', () => {
    for (const value of ['*', 'https://a.example.com/path', 'example.com', 'ftp://a.example.com', 'https://a.example.com,*']) {
      expect(() => loadConfig({ CORS_ORIGINS: value }), value).toThrow(ConfigError);
    }
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: 'https://A.example.com:8443/ , http://localhost:3000' }).corsOrigins).toEqual([
      'https://a.example.com:8443',
      'http://localhost:3000',
    ]);
  });
});
