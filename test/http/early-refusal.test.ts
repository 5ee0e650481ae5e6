/**
 * The early 401 (src/http/early-refusal.ts) against Fastify's own path, request by request: the
 * same app twice on one database, one with the early refusal and one without, both listening; each
 * random request is written byte for byte to both, on fresh connections, and the answers (status
 * line, headers in order, body, whether the connection closed), the log lines and the counts must
 * be the same. Requests are drawn around what the early path decides on (keys, routes, URL forms,
 * bodies, Expect, Upgrade, Host, Origin, HTTP/1.0, pipelining), so that it both answers and hands
 * over; the test fails if it answered none.
 *
 * EARLY_REFUSAL_RUNS scales the random requests (npm test: 150; CI: 1,500).
 */
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { answeredEarly } from '../../src/http/early-refusal.js';
import { createMetrics, type Metrics } from '../../src/metrics/metrics.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { insertFixture, KEYS, OFFER } from '../helpers/fixtures.js';
import { captureLog, type LogCapture } from '../helpers/log-capture.js';
import { exchange } from '../helpers/raw-http.js';
import { scaled } from '../helpers/scale.js';

const RUNS = scaled('EARLY_REFUSAL_RUNS', 150, 1_500);
const ALLOWED_ORIGIN = 'https://wawel.example.com';

interface Side {
  app: FastifyInstance;
  port: number;
  log: LogCapture;
  metrics: Metrics;
}

async function side(db: TestDb, early: boolean, cors: boolean): Promise<Side> {
  const log = captureLog();
  const metrics = createMetrics();
  // A key answer is trusted for 5 s, so that unknown keys are known at once (the directory).
  const config = loadConfig({ KEY_CACHE_TTL_MS: '5000', LOG_LEVEL: 'info', RATE_LIMIT_PER_MINUTE: '0', WEBHOOKS: 'off', ...(cors ? { CORS_ORIGINS: ALLOWED_ORIGIN } : {}) });
  const app = await buildApp({ config, db, logger: log.options('info'), metrics, earlyRefusal: early });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port, log, metrics };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** What must be equal: the bytes, with the date and generated request ids masked. */
function normalize(bytes: string): string {
  return bytes.replace(/\r\nDate: [^\r]*/g, '\r\nDate: *').replace(UUID, (id) => (Object.values(OFFER).includes(id) ? id : '<uuid>'));
}

/**
 * The lines of requests (those with a reqId) written since `from`, without what differs by nature
 * (time, duration, generated ids), in a fixed order: an early answer's line is written when the
 * answer is handed to Node, so behind a pipelined request still under way it comes before that
 * request's line, not after. The service's own lines (a cache loaded in the background at start)
 * come at their own time on each side.
 */
function linesSince(log: LogCapture, from: number): string[] {
  return log
    .lines()
    .slice(from)
    .filter((line) => line.reqId !== undefined)
    .map(({ time: _time, durationMs, pid: _pid, reqId, ...rest }) =>
      JSON.stringify({ ...rest, durationMs: typeof durationMs, reqId: typeof reqId === 'string' ? reqId.replace(UUID, '<uuid>') : reqId }),
    )
    .sort();
}

/** The counters an answer moves (durations aside). */
async function counts(metrics: Metrics): Promise<string> {
  const text = await metrics.registry.metrics();
  return text
    .split('\n')
    .filter((line) => /^estate_(http_requests_total|key_cache_lookups_total)\{/.test(line))
    .sort()
    .join('\n');
}

// ---- random requests around the early path's decisions ----

const keys = fc.constantFrom<string | undefined>(
  undefined,
  '',
  '   ',
  'Bearer',
  'Bearer ',
  'bearer   ',
  KEYS.activeA1,
  `Bearer ${KEYS.activeA1}`,
  KEYS.inactiveA1,
  KEYS.expiredA1,
  KEYS.unknown,
  `BEARER ${KEYS.unknown}`,
  'ecs_tooShort',
  'not-a-key',
  `${KEYS.unknown}x`,
);
const paths = fc.constantFrom(
  '/api/v1/organization',
  '/api/v1/organization/',
  '/api/v1//organization',
  '/api/v1/Organization',
  '/API/v1/organization',
  '/api/v1/organization?x=1&y',
  '/api/v1/organization%2F',
  '/api/v1/organizatio%6E',
  '/api/v1/branches',
  `/api/v1/offers/${OFFER.krakowFull}`,
  `/api/v1/offers/${OFFER.krakowFull}/`,
  '/api/v1/offers/not-a-uuid',
  '/api/v1/offers/%zz',
  `/api/v1/offers/${'x'.repeat(300)}`,
  `/api/v1/offers/${OFFER.krakowFull}/photos`,
  `/api/v1/offers/${OFFER.krakowFull}/price-history?from=2020`,
  '/api/v1/offers',
  '/api/v1/offers/facets',
  '/api/v1/slugs/offer/some-slug',
  '/api/v1/sitemap.xml',
  '/api/v1/changes?since=0',
  '/api/v1/nothing-here',
  '/api/v1',
  '/api/v1/',
  '/health',
  '/openapi.json',
  '/open-data/00000000-0000-4000-8000-000000000001/prices.csv',
  '/images/a/b/c/d/e.jpg',
  '/docs',
  'http://example.com/api/v1/organization',
  '*',
);
const methods = fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH');
const requestIds = fc.constantFrom<string | undefined>(undefined, undefined, 'trace-42', 'a b', KEYS.unknown, 'x'.repeat(129));
const EXTRAS = [
  'origin',
  'origin-other',
  'preflight',
  'body',
  'empty-body',
  'chunked',
  'expect-continue',
  'expect-other',
  'upgrade',
  'no-host',
  'http10',
  'connection-close',
  'accept-encoding',
  'if-none-match',
] as const;
// Most requests plain, the others with one or two of the edges (each edge alone sends most to Fastify).
const extras = fc.oneof({ arbitrary: fc.constant([]), weight: 2 }, { arbitrary: fc.subarray([...EXTRAS], { maxLength: 2 }), weight: 3 });

interface DrawnRequest {
  method: string;
  path: string;
  key: string | undefined;
  requestId: string | undefined;
  extras: readonly string[];
}

const drawn: fc.Arbitrary<DrawnRequest> = fc.record({ method: methods, path: paths, key: keys, requestId: requestIds, extras });

function bytesOf(r: DrawnRequest, last: boolean): string {
  const has = (x: string) => r.extras.includes(x);
  const lines = [`${r.method} ${r.path} HTTP/${has('http10') ? '1.0' : '1.1'}`];
  if (!has('no-host')) lines.push('Host: test');
  if (r.key !== undefined) lines.push(`Authorization: ${r.key}`);
  if (r.requestId !== undefined) lines.push(`X-Request-Id: ${r.requestId}`);
  if (has('origin')) lines.push(`Origin: ${ALLOWED_ORIGIN}`);
  if (has('origin-other')) lines.push('Origin: https://elsewhere.example');
  if (has('preflight')) lines.push('Access-Control-Request-Method: POST');
  if (has('expect-continue')) lines.push('Expect: 100-continue');
  if (has('expect-other')) lines.push('Expect: later');
  if (has('upgrade')) lines.push('Connection: Upgrade', 'Upgrade: websocket');
  if (has('accept-encoding')) lines.push('Accept-Encoding: gzip, br');
  if (has('if-none-match')) lines.push('If-None-Match: *');
  // The last request of a connection asks to close it, so that the answer ends with the connection.
  if ((last || has('connection-close')) && !has('upgrade')) lines.push('Connection: close');
  let body = '';
  if (has('chunked')) {
    lines.push('Transfer-Encoding: chunked', 'Content-Type: application/json');
    body = '11\r\n{"pagination":{}}\r\n0\r\n\r\n';
  } else if (has('body')) {
    body = '{"pagination":{}}';
    lines.push('Content-Type: application/json', `Content-Length: ${body.length}`);
  } else if (has('empty-body')) {
    lines.push('Content-Length: 0');
  }
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

describe('the early 401 answers exactly as Fastify would', () => {
  let db: TestDb;
  const sides: Record<'plain' | 'cors', { early: Side; fastify: Side }> = {} as never;

  beforeAll(async () => {
    db = await createTestDb();
    await insertFixture(db.db);
    for (const cors of [false, true]) {
      sides[cors ? 'cors' : 'plain'] = { early: await side(db, true, cors), fastify: await side(db, false, cors) };
    }
  });
  afterAll(async () => {
    for (const pair of Object.values(sides)) for (const s of [pair.early, pair.fastify]) await s.app.close();
    await db.destroy();
  });

  for (const name of ['plain', 'cors'] as const) {
    it(`random requests, one or two to a connection (${name === 'cors' ? 'CORS_ORIGINS set' : 'no CORS'})`, async () => {
      const { early, fastify } = sides[name];
      const answeredBefore = answeredEarly(early.app.server);
      await fc.assert(
        fc.asyncProperty(fc.array(drawn, { minLength: 1, maxLength: 2 }), async (requests) => {
          const bytes = requests.map((r, i) => bytesOf(r, i === requests.length - 1));
          const logFrom = [early.log.lines().length, fastify.log.lines().length] as const;
          const [a, b] = await Promise.all([exchange(early.port, bytes.join(''), { waitMs: 3_000 }), exchange(fastify.port, bytes.join(''), { waitMs: 3_000 })]);
          expect(normalize(a.bytes)).toBe(normalize(b.bytes));
          expect(a.closed).toBe(b.closed);
          // Lines are written when the answer has gone out: give the last one a moment.
          await new Promise((resolve) => setTimeout(resolve, 5));
          expect(linesSince(early.log, logFrom[0])).toEqual(linesSince(fastify.log, logFrom[1]));
        }),
        { numRuns: RUNS },
      );
      expect(await counts(early.metrics)).toBe(await counts(fastify.metrics));
      // The shortcut was taken, and not for everything.
      expect(answeredEarly(early.app.server) - answeredBefore).toBeGreaterThan(RUNS / 20);
      expect(answeredEarly(fastify.app.server)).toBe(0);
    });
  }

  it('answers a missing or unknown key early, and hands a valid, inactive or not yet known key to Fastify', async () => {
    const { early } = sides.plain;
    const ask = async (key: string | undefined) => {
      const before = answeredEarly(early.app.server);
      const result = await exchange(early.port, bytesOf({ method: 'GET', path: '/api/v1/organization', key, requestId: undefined, extras: [] }, true));
      return { status: Number(result.bytes.slice(9, 12)), early: answeredEarly(early.app.server) - before };
    };
    expect(await ask(undefined)).toEqual({ status: 401, early: 1 });
    expect(await ask(KEYS.activeA1)).toEqual({ status: 200, early: 0 });
    // The directory is read by now: an unknown key is known to be unknown.
    expect(await ask(KEYS.unknown)).toEqual({ status: 401, early: 1 });
    expect(await ask(KEYS.inactiveA1)).toEqual({ status: 401, early: 0 });
  });
});
