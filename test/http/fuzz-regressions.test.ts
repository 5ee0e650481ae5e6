/**
 * The requests the fuzzer found answered wrongly, kept as fixed cases so that they stay fixed:
 * - a body nested thousands of levels deep (valid JSON) made the 422 echo overflow the stack: 500;
 * - a NUL character in a filter string reached PostgreSQL ("invalid byte sequence for encoding
 *   UTF8: 0x00"): 500;
 * - HEAD with If-None-Match matching the cached entry: the 304's null payload reached Fastify's
 *   HEAD handler (payload.resume()): 500;
 * - a Content-Type that Fastify cannot parse ("", ";;;") was answered 415 on every route, where
 *   the contract has 422 (a body that is not JSON), 404 (no such route) or 405.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { KEYS } from '../helpers/fixtures.js';

describe('fuzzer findings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.destroy());

  const postOffers = (payload: string, contentType = 'application/json') =>
    t.app.inject({ method: 'POST', url: '/api/v1/offers', headers: { authorization: KEYS.activeA1, 'content-type': contentType }, payload });

  it('a body nested deeper than Python\'s recursion limit is the 400 FastAPI gives, never a 5xx', async () => {
    for (const depth of [1000, 5000, 100_000]) {
      for (const nested of ['['.repeat(depth) + '1' + ']'.repeat(depth), '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)]) {
        for (const body of [`{"pagination":{},"filters":[{"field":"price","operator":"eq","value":${nested}}]}`, `{"pagination":${nested}}`, nested]) {
          const res = await postOffers(body);
          expect(res.statusCode, `depth ${depth}`).toBe(400);
          expect(res.json()).toEqual({ detail: 'There was an error parsing the body' });
        }
      }
    }
  });

  it('a NUL character in a filter string is answered, never a 5xx', async () => {
    for (const operator of ['eq', 'ne', 'contains', 'starts_with', 'in', 'not_in']) {
      for (const field of ['title', 'external_id', 'virtual_walk_url', 'market_type']) {
        const value = operator === 'in' || operator === 'not_in' ? ['a\u0000b'] : '\u0000';
        const res = await postOffers(JSON.stringify({ pagination: {}, filters: [{ field, operator, value }] }));
        if (res.statusCode === 422) continue; // a field that does not take the operator, or a refusal of NUL
        expect(res.statusCode, `${field} ${operator}`).toBe(200);
      }
    }
    const sorted = await postOffers(JSON.stringify({ pagination: {}, sorting: { field: 'ti\u0000tle' } }));
    expect(sorted.statusCode).toBe(422);
  });

  it('a conditional HEAD is a 304 like the conditional GET, never a 5xx', async () => {
    const headers = { authorization: KEYS.activeA1 };
    const first = await t.app.inject({ method: 'GET', url: '/api/v1/branches', headers });
    const etag = String(first.headers.etag);
    for (const ifNoneMatch of ['*', etag, `"other", ${etag}`]) {
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await t.app.inject({ method, url: '/api/v1/branches', headers: { ...headers, 'if-none-match': ifNoneMatch } });
        expect(res.statusCode, `${method} If-None-Match: ${ifNoneMatch}`).toBe(304);
        expect(res.body).toBe('');
      }
    }
    const fresh = await t.app.inject({ method: 'HEAD', url: '/api/v1/branches', headers: { ...headers, 'if-none-match': '"other"' } });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.body).toBe('');
  });

  it('a Content-Type Fastify cannot parse is no reason for a 415', async () => {
    // Not JSON: the body is a 422 like any other text (CONTRACT 3), with a key.
    const text = await postOffers('{"pagination":{}}', ';;;');
    expect(text.statusCode).toBe(422);
    // An empty Content-Type reads as JSON (FastAPI reads the body as JSON when the type is empty).
    expect((await postOffers('{"pagination":{}}', '')).statusCode).toBe(200);
    // Without a key: 401 first.
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/v1/offers', headers: { 'content-type': ';;;' }, payload: '{}' });
    expect(anonymous.statusCode).toBe(401);
    // No such route: 404; known path, other method: 405.
    const nowhere = await t.app.inject({ method: 'POST', url: '/nowhere', headers: { 'content-type': ';;;' }, payload: 'x' });
    expect(nowhere.statusCode).toBe(404);
    expect(nowhere.json()).toEqual({ detail: 'Not Found' });
    const wrongMethod = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/branches',
      headers: { authorization: KEYS.activeA1, 'content-type': '' },
      payload: 'x',
    });
    expect(wrongMethod.statusCode).toBe(405);
  });
});
