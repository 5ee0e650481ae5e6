/**
 * Metrics of the real server process: METRICS_PORT serves them on a listener of its own while the
 * public listener has no /metrics at all; the process metrics are there; an import run through the
 * embedded service's control socket is counted (a command line on PostgreSQL runs in its own
 * process, which the service only notices as a content change); and with WEB_CONCURRENCY > 1 the
 * primary answers the sum of every worker, on METRICS_PORT and on GET /metrics with the token.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { KEYS } from '../helpers/fixtures.js';
import { onPostgres } from '../helpers/db.js';
import { sample } from '../helpers/metrics-text.js';
import { freePort, waitForPort } from '../helpers/net.js';
import { projectRoot, runCliProcess, startServer, stopServer, type ServerProcess } from '../helpers/processes.js';
import { useServerFixture } from '../helpers/server-fixture.js';

const TOKEN = 'scrape-token-0123456789abcdef';
/** A server process starts in seconds, in a minute or more on a loaded machine. */
const STARTUP_MS = 240_000;
const ORG = { route: '/api/v1/organization', method: 'GET', status: '200' };

const scrape = async (port: number, headers: Record<string, string> = {}): Promise<string> => {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers });
  expect(res.status).toBe(200);
  return res.text();
};

/**
 * Polls until `read` gives `want`: an answer is counted once it has been sent, a moment after the
 * client has it; a cluster's scrape fails while a worker is still starting.
 */
async function eventually(read: () => Promise<number>, want: number): Promise<number> {
  const attempt = () => read().catch(() => Number.NaN);
  let value = await attempt();
  for (let i = 0; i < 150 && value !== want; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await attempt();
  }
  return value;
}

async function getOrganization(port: number, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/organization`, { headers: { authorization: KEYS.activeA1 } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  }
}

describe('one process with METRICS_PORT', () => {
  const fixture = useServerFixture();
  let server: ServerProcess;
  let metricsPort: number;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-metrics-'));

  beforeAll(async () => {
    const { database } = fixture;
    metricsPort = await freePort();
    const embedded = database.kind === 'pglite' ? { DATABASE_URL: undefined } : {};
    server = await startServer({ ...database.env, ...embedded, METRICS_PORT: String(metricsPort), CONTENT_POLL_MS: '100' });
    await waitForPort(metricsPort);
  }, STARTUP_MS);
  afterAll(async () => {
    if (server) await stopServer(server);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('serves the metrics on their own port and not on the public one', async () => {
    const pub = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(pub.status).toBe(404);
    expect(await pub.json()).toEqual({ detail: 'Not Found' });
    const withBearer = await fetch(`http://127.0.0.1:${server.port}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(withBearer.status).toBe(404);

    await getOrganization(server.port, 4);
    expect(await eventually(async () => sample(await scrape(metricsPort), 'estate_http_requests_total', ORG), 4)).toBe(4);
    const text = await scrape(metricsPort);
    // Node's process metrics, collected once per process.
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect(sample(text, 'estate_database_info', { kind: fixture.database.kind })).toBe(1);
    expect(text).not.toContain(KEYS.activeA1);
  });

  it('counts imports run inside the service, and every content change it notices', async () => {
    const before = await scrape(metricsPort);
    const changes = sample(before, 'estate_content_changes_total');
    const imported = await runCliProcess(['import', path.join(projectRoot, 'examples/bundle.json'), '--json'], {
      ...fixture.database.env,
      ...(fixture.database.kind === 'pglite' ? { DATABASE_URL: undefined } : {}),
    });
    expect(imported.code, imported.stderr).toBe(0);
    const bad = path.join(tmp, 'bad.ndjson');
    fs.writeFileSync(bad, '{"type":"offer","offer_id":"not-a-uuid"}\n');
    const rejected = await runCliProcess(['import', bad], { ...fixture.database.env, ...(fixture.database.kind === 'pglite' ? { DATABASE_URL: undefined } : {}) });
    expect(rejected.code).toBe(1);

    expect(await eventually(async () => sample(await scrape(metricsPort), 'estate_content_changes_total'), changes + 1)).toBe(changes + 1);
    const after = await scrape(metricsPort);
    // Embedded: the command line ran both imports in the service (its control socket). PostgreSQL:
    // the command line ran them in its own process; the service only saw the content change.
    const inside = fixture.database.kind === 'pglite' ? 1 : 0;
    expect(sample(after, 'estate_import_runs_total', { command: 'import', result: 'ok' })).toBe(inside);
    expect(sample(after, 'estate_import_runs_total', { command: 'import', result: 'failed' })).toBe(inside);
    expect(sample(after, 'estate_import_duration_seconds_count', { command: 'import', result: 'ok' })).toBe(inside);
  });
});

describe.runIf(onPostgres)('a cluster (WEB_CONCURRENCY=2) with METRICS_PORT and METRICS_TOKEN', () => {
  const fixture = useServerFixture();
  let server: ServerProcess;
  let metricsPort: number;

  beforeAll(async () => {
    const { database } = fixture;
    metricsPort = await freePort();
    server = await startServer({ ...database.env, WEB_CONCURRENCY: '2', METRICS_PORT: String(metricsPort), METRICS_TOKEN: TOKEN });
    await waitForPort(metricsPort);
    // Both workers up: each reports its database once.
    const workers = async () => sample(await scrape(metricsPort, { authorization: `Bearer ${TOKEN}` }), 'estate_database_info', { kind: 'postgres' });
    expect(await eventually(workers, 2)).toBe(2);
  }, STARTUP_MS);
  afterAll(async () => {
    if (server) await stopServer(server);
  });

  it('reports the photo queue once, not once per worker (both read the same table)', async () => {
    const client = new pg.Client({ connectionString: fixture.database.env.DATABASE_URL });
    await client.connect();
    try {
      // Three sources queued for tomorrow: pending, and no fetcher takes them meanwhile.
      await client.query(
        `insert into photo_sources (source_id, url, next_attempt_at)
         select 'queued-' || n, 'https://crm.example.pl/queued/' || n || '.jpg', now() + interval '1 day' from generate_series(1, 3) as n`,
      );
    } finally {
      await client.end();
    }
    expect(sample(await scrape(metricsPort, { authorization: `Bearer ${TOKEN}` }), 'estate_photo_queue_sources')).toBe(3);
  });

  it('answers the sum of every worker, on its port and through GET /metrics with the token', async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    await getOrganization(server.port, 10);
    // Connections are spread over the workers (round robin), so no single worker saw all ten.
    expect(await eventually(async () => sample(await scrape(metricsPort, auth), 'estate_http_requests_total', ORG), 10)).toBe(10);
    // The public listener reaches one worker, which asks the primary for the sum.
    const viaWorker = await scrape(server.port, auth);
    expect(sample(viaWorker, 'estate_http_requests_total', ORG)).toBe(10);
    // Two workers, each with its pool: the pool maximum is summed too.
    expect(sample(viaWorker, 'estate_db_pool_max_connections')).toBe(20);
    // Refused without the token, on both.
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${server.port}/metrics`)).status).toBe(401);
  });
});
