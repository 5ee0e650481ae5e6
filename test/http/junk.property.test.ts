/**
 * Random junk (bodies, headers, paths, methods) never makes the service fail: no 500, and every
 * answer that is not a successful document is JSON.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { BRANCH, INVESTMENT, KEYS, OFFER } from '../helpers/fixtures.js';

const SEGMENTS = [
  'api', 'v1', 'v2', 'offers', 'branches', 'agents', 'investments', 'organization', 'health', 'openapi.json',
  BRANCH.krakow, INVESTMENT.zielone, OFFER.krakowFull, OFFER.krakowFull.toUpperCase(), '..', '.', '%20', '%00', '%E0%A4%A',
  '%2F', '{}', '', 'null', '0', '-1', 'ąę', '🙂', "'", '"', '<x>', '?', '#',
];

const pathArb = fc.oneof(
  fc.array(fc.oneof(fc.constantFrom(...SEGMENTS), fc.string({ maxLength: 12 }).map(encodeURIComponent)), { maxLength: 6 }).map((parts) => `/${parts.join('/')}`),
  fc.constantFrom('/api/v1/offers', `/api/v1/investments/${INVESTMENT.zielone}/offers`, `/api/v1/offers/${OFFER.krakowFull}`, '/api/v1/branches'),
);

const queryArb = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?include=agent', '?include=x', '?include=', '?include=agent&include=agent,branch', '?is_active=maybe', '?a=1&a=2', '?%', '?include[]=agent'),
  fc.string({ maxLength: 20 }).map((s) => `?${encodeURIComponent(s)}=${encodeURIComponent(s)}`),
);

const jsonish = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.record({
    pagination: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.record({ page: fc.jsonValue({ maxDepth: 1 }), size: fc.jsonValue({ maxDepth: 1 }) })),
    sorting: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.record({ field: fc.jsonValue({ maxDepth: 1 }), direction: fc.jsonValue({ maxDepth: 1 }) })),
    filters: fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.array(
        fc.record({
          field: fc.oneof(fc.constantFrom('price', 'rooms', 'title', 'created_at', 'agent_id', 'has_balcony', 'photos_urls', 'offer_data.x'), fc.jsonValue({ maxDepth: 1 })),
          operator: fc.oneof(fc.constantFrom('eq', 'ne', 'gt', 'between', 'in', 'not_in', 'is_null', 'contains', 'starts_with'), fc.jsonValue({ maxDepth: 1 })),
          value: fc.jsonValue({ maxDepth: 2 }),
        }),
        { maxLength: 5 },
      ),
    ),
  }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 60 }),
  fc.uint8Array({ maxLength: 60 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
  fc.constantFrom('', '{', '[', '"', 'NaN', '{"pagination": {"page": Infinity}}', '\ufeff{"pagination": {}}', '{"pagination": {}}'),
);

const headerValue = fc.oneof(fc.constantFrom('', ' ', 'application/json', 'text/plain', 'application/xml', '*/*', 'application/json;q=0', 'text/xml;q=0.9, application/json;q=0.1'), fc.string({ maxLength: 30 }));

const requestArb = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
  path: pathArb,
  query: queryArb,
  body: fc.option(jsonish, { nil: undefined }),
  contentType: fc.option(headerValue, { nil: undefined }),
  accept: fc.option(headerValue, { nil: undefined }),
  authorization: fc.option(fc.oneof(fc.constantFrom(KEYS.activeA1, `Bearer ${KEYS.activeA1}`, KEYS.unknown, KEYS.inactiveA1, 'Bearer', ''), fc.string({ maxLength: 40 })), { nil: undefined }),
});

/** Header values Node would refuse to send (control characters) are not requests a client can make. */
const sendable = (value: string) => !/[^\t\x20-\x7e\x80-\xff]/.test(value);

describe('junk requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { BODY_LIMIT: '4096' } });
  });
  afterAll(() => t.destroy());

  it('never answer 500 and answer errors in JSON', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const headers: Record<string, string> = {};
        if (r.contentType !== undefined && sendable(r.contentType)) headers['content-type'] = r.contentType;
        if (r.accept !== undefined && sendable(r.accept)) headers.accept = r.accept;
        if (r.authorization !== undefined && sendable(r.authorization)) headers.authorization = r.authorization;
        const res = await t.app.inject({
          method: r.method as 'GET',
          url: r.path + r.query,
          headers,
          ...(r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD' ? { payload: r.body } : {}),
        });
        expect(res.statusCode, `${r.method} ${r.path}${r.query}: ${res.body}`).toBeLessThan(500);
        if (r.method === 'HEAD') return;
        const type = String(res.headers['content-type'] ?? '');
        if (res.statusCode >= 400) {
          expect(type).toBe('application/json; charset=utf-8');
          const body = res.json() as { detail: unknown };
          expect(body.detail).toBeDefined();
        } else {
          expect(type).toMatch(/^application\/(json|xml); charset=utf-8$/);
        }
      }),
      { numRuns: 600 },
    );
  });
});
