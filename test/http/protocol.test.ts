/**
 * HTTP/1.1 edges that only show on a real socket (Node's server answers some of them before
 * Fastify sees the request): each sequence is written byte for byte through node:net against the
 * app listening on a free port, and the status line, headers and body are checked. The contract:
 * every error body is JSON {"detail": ...} with Content-Type application/json, and a HEAD answer
 * never carries a body. The decisions are in docs/api.md (Errors).
 *
 * - an Expect other than 100-continue: 417 {"detail":"Expectation Failed"} (was an empty 417);
 * - HTTP/1.1 without Host: 400 {"detail":"Bad Request"} (was an empty 400);
 * - CONNECT: 405 {"detail":"Method Not Allowed"} with Allow (was closed with no answer);
 * - a request whose headers time out: 408 {"detail":"Request Timeout"} (was a 400);
 * - HEAD answers, errors included, have no body, on the parser's errors too (they had one);
 * - a request with Upgrade: answered with Connection: close, and the connection closes (Node's
 *   parser stopped reading it: a malformed request behind it waited for the keep-alive timeout).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { KEYS } from '../helpers/fixtures.js';
import { exchange, parseResponses, type RawResponse } from '../helpers/raw-http.js';

const JSON_TYPE = /^application\/json/;

async function listen(t: TestApp): Promise<number> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as AddressInfo).port;
}

/** The one answer to one request written on a fresh connection, and whether the server then closed it. */
async function only(port: number, request: string, options: { head?: boolean; waitMs?: number } = {}): Promise<RawResponse & { closed: boolean; rest: string }> {
  const result = await exchange(port, request, { waitMs: options.waitMs ?? 5_000 });
  const { responses, rest } = parseResponses(result.bytes, [options.head ?? false], result.closed);
  expect(responses, JSON.stringify(result.bytes)).toHaveLength(1);
  return { ...responses[0]!, closed: result.closed, rest };
}

function expectDetail(response: RawResponse, status: number, detail: string): void {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toMatch(JSON_TYPE);
  expect(JSON.parse(response.body)).toEqual({ detail });
  expect(response.headers['content-length']).toBe(String(Buffer.byteLength(response.body)));
  expect(response.headers['x-content-type-options']).toBe('nosniff');
}

describe('HTTP/1.1 edges on a real socket', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp();
    port = await listen(t);
  });
  afterAll(() => t.destroy());

  it('an Expect other than 100-continue: 417 {"detail":"Expectation Failed"}, then the connection closes', async () => {
    for (const request of [
      'GET /health HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\n\r\n',
      // Before the key check: the request cannot be served as it asks, whoever asks.
      'POST /api/v1/offers HTTP/1.1\r\nHost: x\r\nExpect: later\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n',
      `GET /api/v1/organization HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEYS.activeA1}\r\nExpect: x\r\n\r\n`,
    ]) {
      const answer = await only(port, request);
      expectDetail(answer, 417, 'Expectation Failed');
      expect(answer.headers.connection).toBe('close');
      expect(answer.headers['x-request-id']).toBeTruthy();
      expect(answer.closed).toBe(true);
    }
  });

  it('Expect: 100-continue is still honoured: 100 Continue, then the answer', async () => {
    const body = '{"pagination":{"size":1}}';
    const result = await exchange(
      port,
      `POST /api/v1/offers HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEYS.activeA1}\r\nConnection: close\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(result.bytes).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
    const { responses } = parseResponses(result.bytes, [false]);
    expect(JSON.parse(responses[0]!.body)).toMatchObject({ page: 1, size: 1 });
  });

  it('HTTP/1.1 without Host: 400 {"detail":"Bad Request"}, then the connection closes; HTTP/1.0 needs none', async () => {
    for (const request of ['GET /health HTTP/1.1\r\n\r\n', `GET /api/v1/organization HTTP/1.1\r\nAuthorization: ${KEYS.activeA1}\r\n\r\n`]) {
      const answer = await only(port, request);
      expectDetail(answer, 400, 'Bad Request');
      expect(answer.headers.connection).toBe('close');
      expect(answer.closed).toBe(true);
    }
    const old = await only(port, 'GET /health HTTP/1.0\r\n\r\n');
    expect(old.status).toBe(200);
    expect(JSON.parse(old.body)).toEqual({ status: 'ok' });
  });

  it('CONNECT: 405 {"detail":"Method Not Allowed"} with the methods of the target in Allow, then the connection closes', async () => {
    const cases = [
      { target: 'example.com:443', allow: '' },
      { target: '/health', allow: 'GET, HEAD' },
      { target: '/api/v1/offers', allow: 'POST' },
    ];
    for (const { target, allow } of cases) {
      const answer = await only(port, `CONNECT ${target} HTTP/1.1\r\nHost: ${target.startsWith('/') ? 'x' : target}\r\n\r\n`);
      expectDetail(answer, 405, 'Method Not Allowed');
      expect(answer.headers.allow, target).toBe(allow);
      expect(answer.headers.connection).toBe('close');
      expect(answer.closed).toBe(true);
    }
    // Bytes a client sends after CONNECT (the start of a tunnel) do not cost it the answer.
    const eager = await only(port, `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03`);
    expectDetail(eager, 405, 'Method Not Allowed');
  });

  it('a target that is no path (neither /…, * nor an absolute URL): 400 {"detail":"Bad Request"}, never the path without its first character', async () => {
    for (const target of ['api/v1/organization', 'xhealth', '*health']) {
      const answer = await only(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expectDetail(answer, 400, 'Bad Request');
    }
    // An absolute URL names its path.
    const absolute = await only(port, 'GET http://x/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(absolute.status).toBe(200);
  });

  it('a request with Upgrade is answered as usual with Connection: close, and nothing behind it is left waiting', async () => {
    const upgrade = 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n';
    // A malformed request right behind it used to get no answer until the keep-alive timeout (72 s).
    for (const parts of [[upgrade + 'GET /health HTTP/1.1 junk\r\n\r\n'], [upgrade, 'GET /health HTTP/1.1 junk\r\n\r\n'], [upgrade]]) {
      const result = await exchange(port, parts, { pauseMs: 100 });
      const { responses } = parseResponses(result.bytes, [false, false], result.closed);
      expect(responses[0]!.status).toBe(200);
      expect(JSON.parse(responses[0]!.body)).toEqual({ status: 'ok' });
      expect(responses[0]!.headers.connection).toBe('close');
      expect(result.closed, JSON.stringify(result.bytes)).toBe(true);
    }
    // An operation's answer is the one it gives without Upgrade.
    const plain = await only(port, `GET /api/v1/organization HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEYS.activeA1}\r\nConnection: close\r\n\r\n`);
    const upgraded = await only(port, `GET /api/v1/organization HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEYS.activeA1}\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n`);
    expect(upgraded.status).toBe(200);
    expect(upgraded.body).toBe(plain.body);
    expect(upgraded.headers.connection).toBe('close');
    // So is a refusal, which would otherwise be answered before Fastify.
    const refused = await only(port, 'GET /api/v1/organization HTTP/1.1\r\nHost: x\r\nAuthorization: ecs_unknown-key-0000000000000000\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n');
    expect(refused.status).toBe(401);
    expect(refused.headers.connection).toBe('close');
    expect(refused.closed).toBe(true);
  });

  it('HEAD answers carry no body, errors included: a GET behind each on the same connection is read right after its headers', async () => {
    const heads = [
      { request: 'HEAD /no/such/path HTTP/1.1\r\nHost: x\r\n\r\n', status: 404 },
      { request: 'HEAD /api/v1/organization HTTP/1.1\r\nHost: x\r\n\r\n', status: 401 },
      { request: `HEAD /api/v1/offers HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEYS.activeA1}\r\n\r\n`, status: 405 },
      { request: `HEAD /api/v1/offers/not-a-uuid HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEYS.activeA1}\r\n\r\n`, status: 422 },
      { request: `HEAD /api/v1/offers/00000000-0000-4000-8000-000000000000 HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEYS.activeA1}\r\n\r\n`, status: 404 },
      { request: 'HEAD /api/v1/%zz HTTP/1.1\r\nHost: x\r\n\r\n', status: 400 },
    ];
    const follow = 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
    for (const { request, status } of heads) {
      const result = await exchange(port, [request, follow], { pauseMs: 50 });
      const { responses, rest } = parseResponses(result.bytes, [true, false]);
      expect(responses.map((r) => r.status), JSON.stringify(result.bytes)).toEqual([status, 200]);
      expect(responses[0]!.headers['content-type']).toMatch(JSON_TYPE);
      expect(JSON.parse(responses[1]!.body)).toEqual({ status: 'ok' });
      expect(rest).toBe('');
    }
    // Answers that close the connection: nothing follows the headers.
    const closing = [
      { request: 'HEAD /health HTTP/1.1\r\nHost: x\r\nExpect: x\r\n\r\n', status: 417 },
      { request: 'HEAD /health HTTP/1.1\r\n\r\n', status: 400 },
      // The parser's own refusals (src/http/plugins/errors.ts clientError).
      // Just over the 16 KiB limit, so that the refusal comes in the packet with the request line.
      { request: `HEAD /health HTTP/1.1\r\nHost: x\r\nX-Junk: ${'a'.repeat(20 * 1024)}\r\n\r\n`, status: 431 },
      { request: 'HEAD /health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', status: 400 },
    ];
    for (const { request, status } of closing) {
      const answer = await only(port, request, { head: true });
      expect(answer.status).toBe(status);
      expect(answer.headers['content-type']).toMatch(JSON_TYPE);
      expect(answer.closed).toBe(true);
      expect(answer.rest, `${status}: bytes after the headers`).toBe('');
    }
    // The same refusals of a GET carry the JSON body.
    expectDetail(await only(port, `GET /health HTTP/1.1\r\nHost: x\r\nX-Junk: ${'a'.repeat(64 * 1024)}\r\n\r\n`), 431, 'Request Header Fields Too Large');
    expectDetail(await only(port, 'GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'), 400, 'Bad Request');
  });
});

describe('request timeouts on a real socket', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await buildTestApp();
    // Node's defaults (headers within 60 s, checked every 30 s) made short; set before listen,
    // which starts the check.
    t.app.server.headersTimeout = 300;
    t.app.server.requestTimeout = 600;
    // A property Node reads at listen (its type is only declared as a constructor option).
    Object.assign(t.app.server, { connectionsCheckingInterval: 50 });
    port = await listen(t);
  });
  afterAll(() => t.destroy());

  it('headers that do not arrive in time: 408 {"detail":"Request Timeout"}, then the connection closes', async () => {
    for (const partial of ['GET /health HTTP/1.1\r\nHost: x\r\n', 'GET /heal', '']) {
      const answer = await only(port, partial);
      expectDetail(answer, 408, 'Request Timeout');
      expect(answer.headers.connection).toBe('close');
      expect(answer.closed).toBe(true);
    }
  });

  it('a body that does not arrive in time: 408 {"detail":"Request Timeout"}', async () => {
    const answer = await only(
      port,
      `POST /api/v1/offers HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEYS.activeA1}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"pagination":`,
    );
    expectDetail(answer, 408, 'Request Timeout');
    expect(answer.closed).toBe(true);
  });
});
