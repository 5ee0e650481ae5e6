/**
 * Database faults: the app runs on a PostgreSQL cluster of its own, under a steady load of
 * requests, while the cluster is stopped (fast, then as a crash) and started again. During the
 * outage /health and the API answer 503 {"detail":"Service Unavailable"} within a bounded time
 * (never a 500, never a hang); once the server is back the same app serves 200 again, without a
 * restart. Counts by status and the recovery times are printed.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type DbHandle } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { insertFixture, KEYS, OFFER } from '../helpers/fixtures.js';
import { createPgCluster, pgClusterAvailable, type PgCluster, type StopMode } from '../helpers/pg-cluster.js';
import { checkResponsesAgainstOpenApi } from '../helpers/openapi-responses.js';

/**
 * How long a pooled connection may be waited for, and a statement may run, in this test. The pool
 * is bigger than the load, so outside the outage no request waits for a connection, even on a
 * machine busy with other tests.
 */
const POOL_TIMEOUT_MS = 2000;
const POOL_MAX = 10;
const STATEMENT_TIMEOUT_MS = 2000;
/** No request may take longer than this, outage or not (a hang detector, not a speed test). */
const ANSWER_BOUND_MS = 10_000;
const WORKERS = 6;

type Phase = 'before' | 'outage' | 'recovering' | 'after';

interface Sample {
  phase: Phase;
  route: string;
  status: number;
  ms: number;
  body: string;
  contentType: string;
}

const REQUESTS: Array<{ route: string; send: (app: FastifyInstance) => Promise<LightMyRequestResponse> }> = [
  { route: 'health', send: (app) => app.inject({ method: 'GET', url: '/health' }) },
  {
    route: 'organization',
    send: (app) => app.inject({ method: 'GET', url: '/api/v1/organization', headers: { authorization: KEYS.activeA1 } }),
  },
  {
    route: 'offers',
    send: (app) =>
      app.inject({
        method: 'POST',
        url: '/api/v1/offers?include=agent,branch',
        headers: { authorization: KEYS.activeA1, 'content-type': 'application/json' },
        payload: '{"pagination":{"size":10},"filters":[{"field":"price","operator":"gte","value":1}]}',
      }),
  },
  {
    route: 'offer',
    send: (app) => app.inject({ method: 'GET', url: `/api/v1/offers/${OFFER.krakowFull}`, headers: { authorization: KEYS.activeA2 } }),
  },
  { route: 'branches', send: (app) => app.inject({ method: 'GET', url: '/api/v1/branches', headers: { authorization: KEYS.activeB } }) },
];

/** Keeps WORKERS requests in flight until stopped; every answer is recorded with the phase it started in. */
function driveLoad(app: FastifyInstance) {
  const samples: Sample[] = [];
  let phase: Phase = 'before';
  let running = true;
  let next = 0;
  const worker = async () => {
    while (running) {
      const request = REQUESTS[next++ % REQUESTS.length]!;
      const startedIn = phase;
      const started = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${request.route} did not answer within ${ANSWER_BOUND_MS} ms`)), ANSWER_BOUND_MS);
      });
      try {
        const res = await Promise.race([request.send(app), timeout]);
        samples.push({
          phase: startedIn,
          route: request.route,
          status: res.statusCode,
          ms: performance.now() - started,
          body: res.body,
          contentType: String(res.headers['content-type']),
        });
      } finally {
        clearTimeout(timer);
      }
      // Yield so that timers (the phase changes) run between requests.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const done = Promise.all(Array.from({ length: WORKERS }, worker));
  return {
    samples,
    setPhase: (value: Phase) => {
      phase = value;
    },
    stop: async () => {
      running = false;
      await done;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function countByStatus(samples: readonly Sample[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of samples) counts[s.status] = (counts[s.status] ?? 0) + 1;
  return counts;
}

describe.runIf(pgClusterAvailable())('database faults on a private PostgreSQL cluster', () => {
  let cluster: PgCluster;
  let handle: DbHandle;
  let app: FastifyInstance;

  beforeAll(async () => {
    cluster = await createPgCluster();
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE ecs_faults');
    await admin.end();
    handle = await openDatabase({
      databaseUrl: cluster.urlFor('ecs_faults'),
      statementTimeoutMs: STATEMENT_TIMEOUT_MS,
      poolMax: POOL_MAX,
      connectionTimeoutMs: POOL_TIMEOUT_MS,
    });
    await migrateToLatest(handle.db);
    await insertFixture(handle.db);
    // Key lookups cached as in production (2 s), so the outage hits both cached and uncached keys.
    const config = loadConfig({ LOG_LEVEL: 'silent', DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS) });
    app = await buildApp({ config, db: handle, logger: false });
    checkResponsesAgainstOpenApi(app, { compileNow: true });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await handle?.close();
    await cluster?.destroy();
  });

  for (const mode of ['fast', 'immediate'] as StopMode[]) {
    it(`answers 503 while the server is down (stop -m ${mode}) and recovers by itself`, async () => {
      const load = driveLoad(app);
      await sleep(1000);

      load.setPhase('outage');
      await cluster.stop(mode);
      const outageStarted = performance.now();
      await sleep(3000);

      load.setPhase('recovering');
      await cluster.start();
      const restarted = performance.now();
      // Recovered when /health and an API call each answer 200 again.
      let healthBackMs: number | undefined;
      let apiBackMs: number | undefined;
      while (performance.now() - restarted < 15_000 && (healthBackMs === undefined || apiBackMs === undefined)) {
        const [health, api] = await Promise.all([REQUESTS[0]!.send(app), REQUESTS[2]!.send(app)]);
        if (healthBackMs === undefined && health.statusCode === 200) healthBackMs = performance.now() - restarted;
        if (apiBackMs === undefined && api.statusCode === 200) apiBackMs = performance.now() - restarted;
        await sleep(20);
      }
      load.setPhase('after');
      await sleep(1500);
      await load.stop();

      const { samples } = load;
      const byPhase = (phase: Phase) => samples.filter((s) => s.phase === phase);
      const outage = byPhase('outage');
      const outageMaxMs = Math.max(...outage.map((s) => s.ms));
      const figures = {
        mode,
        requests: samples.length,
        outageSeconds: ((restarted - outageStarted) / 1000).toFixed(1),
        before: countByStatus(byPhase('before')),
        outage: countByStatus(outage),
        outageByRoute: Object.fromEntries(REQUESTS.map(({ route }) => [route, countByStatus(outage.filter((s) => s.route === route))])),
        recovering: countByStatus(byPhase('recovering')),
        after: countByStatus(byPhase('after')),
        outageMaxAnswerMs: Math.round(outageMaxMs),
        outageMedianAnswerMs: Math.round(outage.map((s) => s.ms).sort((a, b) => a - b)[Math.floor(outage.length / 2)] ?? 0),
        healthRecoveredMsAfterStart: healthBackMs === undefined ? null : Math.round(healthBackMs),
        apiRecoveredMsAfterStart: apiBackMs === undefined ? null : Math.round(apiBackMs),
      };
      console.log(`database outage figures ${JSON.stringify(figures)}`);

      // Only 200 or 503, never a 500; every 503 is the contract's JSON body.
      const unexpected = samples.filter((s) => s.status !== 200 && s.status !== 503);
      expect(unexpected.map((s) => `${s.phase} ${s.route} ${s.status} ${s.body}`)).toEqual([]);
      for (const s of samples.filter((x) => x.status === 503)) {
        expect(s.body).toBe('{"detail":"Service Unavailable"}');
        expect(s.contentType).toMatch(/^application\/json/);
      }
      // Before and after the outage everything is served.
      expect(byPhase('before').length).toBeGreaterThan(0);
      expect(byPhase('before').every((s) => s.status === 200)).toBe(true);
      expect(byPhase('after').length).toBeGreaterThan(0);
      expect(byPhase('after').every((s) => s.status === 200)).toBe(true);
      // During it, health and every API route said 503 (and kept answering).
      for (const { route } of REQUESTS) {
        expect(outage.filter((s) => s.route === route && s.status === 503).length, `503s for ${route}`).toBeGreaterThan(0);
      }
      expect(healthBackMs).toBeDefined();
      expect(apiBackMs).toBeDefined();
    });
  }
});
