/**
 * The response check every test app runs (helpers/openapi-responses.ts) catches what it must: a
 * body that does not match its schema, a status or a media type the document does not declare.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, get, type TestApp } from '../helpers/app.js';
import { checkAnswer, takeResponseProblems } from '../helpers/openapi-responses.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ seed: false });
});
afterAll(() => t.destroy());

const JSON_TYPE = 'application/json; charset=utf-8';

/** checkAnswer() on an answer made up here, as if `url` (a route) had sent it. */
function answer(method: string, url: string, status: number, contentType: string | undefined, body: unknown) {
  const request = { method, routeOptions: { url } } as unknown as FastifyRequest;
  const headers: Record<string, string | undefined> = { 'content-type': contentType };
  const reply = { statusCode: status, getHeader: (name: string) => headers[name] } as unknown as FastifyReply;
  return checkAnswer(t.app, request, reply, typeof body === 'string' ? body : JSON.stringify(body));
}

describe('the response check of the HTTP tests', () => {
  it('accepts answers as the document describes them', async () => {
    expect(answer('GET', '/health', 200, JSON_TYPE, { status: 'ok' })).toBeUndefined();
    expect(answer('GET', '/api/v1/organization', 401, JSON_TYPE, { detail: 'Invalid API key' })).toBeUndefined();
    expect(answer('POST', '/api/v1/offers', 200, 'application/xml; charset=utf-8', '<?xml version="1.0"?><x/>')).toBeUndefined();
    // General statuses are checked against ErrorResponse.
    expect(answer('GET', '/api/v1/branches', 503, JSON_TYPE, { detail: 'Service Unavailable' })).toBeUndefined();
    // Undocumented routes are not checked.
    expect(answer('GET', '/openapi.json', 200, JSON_TYPE, { anything: true })).toBeUndefined();
  });

  it('reports a body that does not match, with the place', () => {
    const problem = answer('GET', '/api/v1/branches/:branch_id', 200, JSON_TYPE, { branch_id: 'not-a-uuid', name: 5 });
    expect(problem).toContain('GET /api/v1/branches/{branch_id} answered 200');
    expect(problem).toContain('must have required property');
    expect(answer('GET', '/health', 200, JSON_TYPE, { status: 'fine' })).toContain('/status must be equal to');
    expect(answer('GET', '/api/v1/branches', 503, JSON_TYPE, { message: 'down' })).toContain("must have required property 'detail'");
    expect(answer('GET', '/health', 200, JSON_TYPE, '{not json')).toContain('not JSON');
  });

  it('reports a status or a media type the operation does not declare', () => {
    expect(answer('GET', '/api/v1/branches', 404, JSON_TYPE, { detail: 'Not Found' })).toContain('a status the document does not declare');
    expect(answer('GET', '/api/v1/branches', 200, 'application/xml', '<x/>')).toContain('the document declares application/json');
  });

  it('is installed on every test app: real answers are checked and pass', async () => {
    // No fixture: the key is unknown (a declared 401).
    expect((await get(t, '/api/v1/organization')).statusCode).toBe(401);
    expect((await get(t, '/health', { key: null })).statusCode).toBe(200);
    expect(takeResponseProblems()).toEqual([]);
  });
});
