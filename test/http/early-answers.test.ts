/**
 * The early answers (src/http/early-answers.ts: the 401 of a missing or unknown key, and cached
 * answers) against Fastify's own path, request by request: the same app twice on one database, one
 * with the early answers and one without, both listening; each random request is written byte for
 * byte to both, on fresh connections, and the answers (status line, headers in order, body,
 * whether the connection closed), the log lines and the counts must be the same. Requests are
 * drawn around what the early path decides on (keys, routes, URL forms, bodies, Expect, Upgrade,
 * Host, Origin, HTTP/1.0, pipelining, Accept, Accept-Encoding, If-None-Match), so that it both
 * answers and hands over; the test fails if it answered none. The two sides get the same requests
 * in the same order, so their response caches hold the same answers.
 *
 * EARLY_ANSWERS_RUNS scales the random requests (npm test: 150; CI: 1,500).
 */
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { answeredEarly } from '../../src/http/early-answers.js';
import { createMetrics, type Metrics } from '../../src/metrics/metrics.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { insertFixture, KEYS, OFFER } from '../helpers/fixtures.js';
import { captureLog, type LogCapture } from '../helpers/log-capture.js';
import { exchange } from '../helpers/raw-http.js';
import { scaled } from '../helpers/scale.js';

const RUNS = scaled('EARLY_ANSWERS_RUNS', 150, 1_500);
const ALLOWED_ORIGIN = 'https://wawel.example.com';

interface Side {
  app: FastifyInstance;
  port: number;
  log: LogCapture;
  metrics: Metrics;
}

async function side(db: TestDb, early: boolean, cors: boolean, rateLimit = 0): Promise<Side> {
  const log = captureLog();
  const metrics = createMetrics();
  // A key answer is trusted for 5 s, so that unknown keys are known at once (the directory).
  const config = loadConfig({
    KEY_CACHE_TTL_MS: '5000',
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_MINUTE: String(rateLimit),
    WEBHOOKS: 'off',
    ...(cors ? { CORS_ORIGINS: ALLOWED_ORIGIN } : {}),
  });
  const app = await buildApp({ config, db, logger: log.options('info'), metrics, earlyAnswers: early });
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
  const all = (await metrics.registry.metrics()).split('\n');
  const lines = all.filter((line) => /^estate_(http_requests_total|response_cache_lookups_total)\{/.test(line));
  // The key cache's lookups as one sum: whether a lookup was a hit or a miss depends on when each
  // side last read its key directory (a time to live of 5 s), not on the path that answered.
  const keyLookups = all
    .filter((line) => line.startsWith('estate_key_cache_lookups_total{'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  return [...lines, `estate_key_cache_lookups_total{} ${keyLookups}`].sort().join('\n');
}

/** The counters an answer moves, by series, from counts(). */
function countsBySeries(text: string): Map<string, number> {
  return new Map(text.split('\n').filter(Boolean).map((line) => [line.slice(0, line.lastIndexOf(' ')), Number(line.slice(line.lastIndexOf(' ') + 1))]));
}

/** What the counters moved by between two counts() (the series that moved). */
function moved(before: string, after: string): Record<string, number> {
  const from = countsBySeries(before);
  const delta: Record<string, number> = {};
  for (const [series, value] of countsBySeries(after)) if (value !== (from.get(series) ?? 0)) delta[series] = value - (from.get(series) ?? 0);
  return delta;
}

// ---- random requests around the early path's decisions ----

const keys = fc.constantFrom<string | undefined>(
  undefined,
  KEYS.activeA1,
  KEYS.activeA1,
  KEYS.activeB,
  KEYS.expiresLaterA1,
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
const PATHS = [
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
  `/api/v1/offers/${OFFER.krakowFull}?x=1`,
  `/api/v1/offers/${OFFER.warszawa}`,
  `/api/v1/offers/${OFFER.otherOrg}`,
  `/api/v1/offers/${OFFER.krakowFull}/structured-data`,
  `/api/v1/offers/${OFFER.krakowFull}/similar`,
  '/api/v1/agents',
  '/api/v1/investments',
  '/api/v1/meta/offers',
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
];
const paths = fc.constantFrom(...PATHS);
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
  'accept-gzip',
  'accept-xml',
  'accept-json',
  'accept-html',
  'if-none-match',
  'if-none-match-current',
  'if-none-match-gzip',
  'if-none-match-stale',
] as const;
// Most requests plain, the others with one or two of the edges (each edge alone sends most to Fastify).
const extras = fc.oneof({ arbitrary: fc.constant([]), weight: 2 }, { arbitrary: fc.subarray([...EXTRAS], { maxLength: 2 }), weight: 3 });

/** The ETag of each keyed path's answer to KEYS.activeA1, from the warm-up. */
const ETAGS = new Map<string, string>();

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
  if (has('accept-gzip')) lines.push('Accept-Encoding: gzip');
  if (has('accept-xml')) lines.push('Accept: application/xml');
  if (has('accept-json')) lines.push('Accept: application/json, */*;q=0.5');
  if (has('accept-html')) lines.push('Accept: text/html');
  if (has('if-none-match')) lines.push('If-None-Match: *');
  // The ETag the path's answer had in the warm-up (keys of other websites get other answers).
  const etag = ETAGS.get(r.path) ?? '"none"';
  if (has('if-none-match-current')) lines.push(`If-None-Match: ${etag}`);
  if (has('if-none-match-stale')) lines.push('If-None-Match: "stale"');
  if (has('if-none-match-gzip')) lines.push(`If-None-Match: "other", ${etag.slice(0, -1)}-gzip"`);
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

describe('the early answers are exactly what Fastify would answer', () => {
  let db: TestDb;
  const sides: Record<'plain' | 'cors', { early: Side; fastify: Side }> = {} as never;

  beforeAll(async () => {
    db = await createTestDb();
    await insertFixture(db.db);
    for (const cors of [false, true]) {
      sides[cors ? 'cors' : 'plain'] = { early: await side(db, true, cors), fastify: await side(db, false, cors) };
    }
    // The same first requests to every side (so their caches stay alike), and the ETags they give.
    for (const path of PATHS.filter((p) => p.startsWith('/api/v1/'))) {
      const bytes = bytesOf({ method: 'GET', path, key: KEYS.activeA1, requestId: undefined, extras: [] }, true);
      for (const pair of Object.values(sides)) {
        await exchange(pair.early.port, bytes);
        const etag = /\r\netag: ([^\r]*)/.exec((await exchange(pair.fastify.port, bytes)).bytes)?.[1];
        if (etag !== undefined) ETAGS.set(path, etag);
      }
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

  /** Sends one request to a side; its status, its headers, and whether it was answered early. */
  async function ask(to: Side, r: Partial<DrawnRequest>): Promise<{ status: number; early: number; head: string }> {
    const before = answeredEarly(to.app.server);
    const request: DrawnRequest = { method: 'GET', path: '/api/v1/organization', key: undefined, requestId: undefined, extras: [], ...r };
    const result = await exchange(to.port, bytesOf(request, true));
    return { status: Number(result.bytes.slice(9, 12)), early: answeredEarly(to.app.server) - before, head: result.bytes.split('\r\n\r\n')[0]! };
  }

  it('answers a missing or unknown key early, and hands a valid, inactive or not yet known key to Fastify', async () => {
    const { early } = sides.plain;
    const path = '/api/v1/organization?first=time';
    expect(await ask(early, { path, key: undefined })).toMatchObject({ status: 401, early: 1 });
    // Not in the response cache yet: Fastify answers (and keeps the answer).
    expect(await ask(early, { path, key: KEYS.activeA1 })).toMatchObject({ status: 200, early: 0 });
    // The directory is read by now: an unknown key is known to be unknown.
    expect(await ask(early, { path, key: KEYS.unknown })).toMatchObject({ status: 401, early: 1 });
    expect(await ask(early, { path, key: KEYS.inactiveA1 })).toMatchObject({ status: 401, early: 0 });
    expect(await ask(early, { path, key: KEYS.expiredA1 })).toMatchObject({ status: 401, early: 0 });
  });

  it('answers a cached GET, its HEAD and its 304 early; a miss, a POST and a coding not yet made go to Fastify', async () => {
    const { early } = sides.plain;
    const path = `/api/v1/offers/${OFFER.krakowFull}?second=time`;
    const key = KEYS.activeA1;
    expect(await ask(early, { path, key })).toMatchObject({ status: 200, early: 0 });
    const hit = await ask(early, { path, key });
    expect(hit).toMatchObject({ status: 200, early: 1 });
    const etag = /\r\netag: ([^\r]*)/.exec(hit.head)![1]!;
    ETAGS.set(path, etag);
    expect(await ask(early, { path, key, method: 'HEAD' })).toMatchObject({ status: 200, early: 1 });
    expect(await ask(early, { path, key, extras: ['if-none-match-current'] })).toMatchObject({ status: 304, early: 1 });
    // Another website of the same organization (neither scoped) sees the same answers: a hit; one of
    // another organization gets its own answer (a 404, never kept).
    expect(await ask(early, { path, key: KEYS.activeA2 })).toMatchObject({ status: 200, early: 1 });
    expect(await ask(early, { path, key: KEYS.activeB })).toMatchObject({ status: 404, early: 0 });
    expect(await ask(early, { path, key: KEYS.activeB })).toMatchObject({ status: 404, early: 0 });
    // XML: an answer of its own.
    expect(await ask(early, { path, key, extras: ['accept-xml'] })).toMatchObject({ status: 200, early: 0 });
    expect(await ask(early, { path, key, extras: ['accept-xml'] })).toMatchObject({ status: 200, early: 1 });
    // The gzip variant is made by the first request that asks for it, through Fastify; then it is at hand.
    expect(await ask(early, { path, key, extras: ['accept-gzip'] })).toMatchObject({ status: 200, early: 0 });
    const compressed = await ask(early, { path, key, extras: ['accept-gzip'] });
    expect(compressed).toMatchObject({ status: 200, early: 1 });
    expect(compressed.head).toContain('\r\ncontent-encoding: gzip\r\n');
    expect(await ask(early, { path: '/api/v1/offers', key, method: 'POST', extras: ['body'] })).toMatchObject({ early: 0 });
  });

  it('gives each kind of cached answer as Fastify does (codings, conditions, languages, HEAD)', async () => {
    const { early, fastify } = sides.plain;
    const answeredBefore = answeredEarly(early.app.server);
    const countedBefore = [await counts(early.metrics), await counts(fastify.metrics)] as const;
    const variants: Partial<DrawnRequest>[] = [
      {},
      {},
      { method: 'HEAD' },
      { extras: ['if-none-match-stale'] },
      { extras: ['if-none-match-current'] },
      { extras: ['if-none-match-current'], method: 'HEAD' },
      { extras: ['if-none-match-gzip', 'accept-gzip'] },
      { extras: ['if-none-match-gzip'], method: 'HEAD' },
      { extras: ['accept-gzip'] },
      { extras: ['accept-gzip'] },
      { extras: ['accept-gzip', 'if-none-match-stale'] },
      { extras: ['accept-encoding'] },
      { extras: ['accept-encoding'] },
      { extras: ['accept-encoding'], method: 'HEAD' },
      { extras: ['accept-xml'] },
      { extras: ['accept-xml', 'if-none-match-stale'] },
      { extras: ['accept-html'] },
      { requestId: 'trace-42' },
    ];
    for (const path of [`/api/v1/offers/${OFFER.krakowFull}?lang=en`, `/api/v1/offers/${OFFER.krakowFull}?lang=de`, '/api/v1/organization?third=time', '/api/v1/branches']) {
      for (const variant of variants) {
        const bytes = bytesOf({ method: 'GET', path, key: KEYS.activeA1, requestId: undefined, extras: [], ...variant }, true);
        const [a, b] = await Promise.all([exchange(early.port, bytes), exchange(fastify.port, bytes)]);
        expect(normalize(a.bytes), `${path} ${JSON.stringify(variant)}`).toBe(normalize(b.bytes));
        // A compressed variant is made in the thread pool: let it land before the next request.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    expect(answeredEarly(early.app.server) - answeredBefore).toBeGreaterThan(30);
    expect(moved(countedBefore[0], await counts(early.metrics))).toEqual(moved(countedBefore[1], await counts(fastify.metrics)));
  });

  it('answers no cached answer early when a rate limit counts requests', async () => {
    const limited = await side(db, true, false, 1_000);
    try {
      const path = '/api/v1/organization';
      for (let i = 0; i < 3; i++) expect(await ask(limited, { path, key: KEYS.activeA1 })).toMatchObject({ status: 200, early: 0 });
      expect((await ask(limited, { path, key: KEYS.activeA1 })).head).toContain('\r\nratelimit: limit=1000, remaining=996');
      // The 401 of a missing key is still answered early: it is never counted.
      expect(await ask(limited, { path, key: undefined })).toMatchObject({ status: 401, early: 1 });
    } finally {
      await limited.app.close();
    }
  });
});
