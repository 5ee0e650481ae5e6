/**
 * Graceful shutdown of the real server process (`node dist/server.js`) under a load of 20 requests
 * always in flight, each on a connection of its own.
 *
 * Behind a load balancer (SHUTDOWN_DELAY_MS > 0, the balancer stops routing shortly after the
 * signal, as Kubernetes does when it removes the endpoint): every request completes with 200 and a
 * whole body, later connects are refused, the process exits 0. No reset at all.
 *
 * With clients that never stop (no delay): the kernel resets connections still waiting in the
 * listen queue when the listener closes, before any byte of a response (that is what the delay is
 * for). Even then every request the server started is finished: no truncated body, no error
 * status, exit 0.
 */
import http from 'node:http';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { KEYS, OFFER } from '../helpers/fixtures.js';
import { prepareDatabase, startServer, type PreparedDatabase, type ServerProcess } from '../helpers/processes.js';

const CONCURRENCY = 20;

interface Outcome {
  startedAt: number;
  endedAt: number;
  /** HTTP status, or the socket error code. */
  result: number | string;
  /** A response had begun (status line received) when the outcome was decided. */
  responded: boolean;
  bodyOk: boolean;
}

const REQUESTS = [
  { method: 'GET', path: '/api/v1/organization' },
  { method: 'GET', path: `/api/v1/offers/${OFFER.krakowFull}?include=agent,branch,organization,investment` },
  { method: 'POST', path: '/api/v1/offers?include=agent', body: '{"pagination":{"size":100},"sorting":{"field":"price","direction":"desc"}}' },
  { method: 'GET', path: '/api/v1/branches' },
  { method: 'GET', path: '/health' },
] as const;

/** One request on a connection of its own (no keep-alive), so a refused connect is visible as such. */
function send(port: number, n: number): Promise<Outcome> {
  const spec = REQUESTS[n % REQUESTS.length]!;
  const startedAt = performance.now();
  return new Promise((resolve) => {
    const body = 'body' in spec ? spec.body : undefined;
    let responded = false;
    const finish = (result: number | string, bodyOk: boolean) => resolve({ startedAt, endedAt: performance.now(), result, responded, bodyOk });
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: spec.method,
        path: spec.path,
        agent: false,
        headers: {
          authorization: KEYS.activeA1,
          connection: 'close',
          ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
        },
      },
      (res) => {
        responded = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (error: NodeJS.ErrnoException) => finish(error.code ?? error.message, false));
        res.on('end', () => {
          let bodyOk = false;
          try {
            JSON.parse(Buffer.concat(chunks).toString('utf8'));
            bodyOk = res.complete;
          } catch {
            bodyOk = false;
          }
          finish(res.statusCode ?? 0, bodyOk);
        });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => finish(error.code ?? error.message, false));
    req.setTimeout(15_000, () => req.destroy(Object.assign(new Error('client timeout'), { code: 'CLIENT_TIMEOUT' })));
    req.end(body);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Run {
  outcomes: Outcome[];
  sigtermAt: number;
  exitCode: number | string | null;
  shutdownMs: number;
}

/**
 * Drives the load, sends SIGTERM after `warmupMs`, and stops opening connections `routeForMs`
 * after the signal (Infinity: never, until the process has exited), then probes a few connects.
 */
async function runShutdown(server: ServerProcess, warmupMs: number, routeForMs: number): Promise<Run> {
  const outcomes: Outcome[] = [];
  let sigtermAt = Infinity;
  let exited = false;
  let n = 0;
  const routing = () => !exited && performance.now() < sigtermAt + routeForMs;
  const worker = async () => {
    while (routing()) {
      const outcome = await send(server.port, n++);
      outcomes.push(outcome);
      // Once the listener is gone every connect is refused at once: do not spin.
      if (outcome.result === 'ECONNREFUSED') await sleep(20);
    }
  };
  const workers = Array.from({ length: CONCURRENCY }, worker);
  await sleep(warmupMs);
  sigtermAt = performance.now();
  server.child.kill('SIGTERM');
  const exitCode = await server.exited;
  exited = true;
  const shutdownMs = performance.now() - sigtermAt;
  await Promise.all(workers);
  // After the exit, a connect is refused (not hung, not reset).
  for (let i = 0; i < 3; i++) outcomes.push(await send(server.port, i));
  return { outcomes, sigtermAt, exitCode, shutdownMs };
}

function summarize(run: Run) {
  const byResult: Record<string, number> = {};
  for (const o of run.outcomes) byResult[String(o.result)] = (byResult[String(o.result)] ?? 0) + 1;
  const inFlight = run.outcomes.filter((o) => o.startedAt < run.sigtermAt && o.endedAt > run.sigtermAt);
  return {
    requests: run.outcomes.length,
    byResult,
    inFlightAtSigterm: inFlight.length,
    inFlightCompleted200: inFlight.filter((o) => o.result === 200 && o.bodyOk).length,
    startedAfterSigterm200: run.outcomes.filter((o) => o.startedAt > run.sigtermAt && o.result === 200).length,
    shutdownMs: Math.round(run.shutdownMs),
    exitCode: run.exitCode,
  };
}

describe('graceful shutdown (SIGTERM) of the server process under load', () => {
  let database: PreparedDatabase;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    database = await prepareDatabase();
  });
  afterEach(() => {
    server?.child.kill('SIGKILL');
  });
  afterAll(async () => {
    await database?.destroy();
  });

  it('behind a load balancer: every request completes, later connects are refused, exit 0', async () => {
    server = await startServer({ ...database.env, SHUTDOWN_DELAY_MS: '1500' });
    // The balancer keeps routing for 500 ms after the signal, then takes the instance out.
    const run = await runShutdown(server, 1500, 500);
    const figures = summarize(run);
    console.log(`graceful shutdown (load balancer) figures ${JSON.stringify(figures)}`);

    expect(run.exitCode, server.output().slice(-2000)).toBe(0);
    const bad = run.outcomes.filter((o) => !((o.result === 200 && o.bodyOk) || o.result === 'ECONNREFUSED'));
    expect(bad.map((o) => `${o.result} at ${Math.round(o.startedAt - run.sigtermAt)} ms`)).toEqual([]);
    // The test only proves something if requests were in flight when the signal came,
    // and some arrived during the delay.
    expect(figures.inFlightAtSigterm).toBeGreaterThan(0);
    expect(figures.inFlightCompleted200).toBe(figures.inFlightAtSigterm);
    expect(figures.startedAfterSigterm200).toBeGreaterThan(0);
    expect(run.outcomes.slice(-3).map((o) => o.result)).toEqual(['ECONNREFUSED', 'ECONNREFUSED', 'ECONNREFUSED']);
    expect(server.output()).not.toContain(KEYS.activeA1);
  });

  it('with clients that never stop: nothing started is cut, no error status, exit 0', async () => {
    server = await startServer({ ...database.env, SHUTDOWN_DELAY_MS: '0' });
    const run = await runShutdown(server, 1500, Infinity);
    const figures = summarize(run);
    console.log(`graceful shutdown (no balancer) figures ${JSON.stringify(figures)}`);

    expect(run.exitCode, server.output().slice(-2000)).toBe(0);
    // Any answer that began is whole and a 200; the only failures are connection-level ones
    // before any response: refused, or reset while waiting in the listen queue.
    const cut = run.outcomes.filter((o) => o.responded && !(o.result === 200 && o.bodyOk));
    expect(cut.map((o) => `${o.result} at ${Math.round(o.startedAt - run.sigtermAt)} ms`)).toEqual([]);
    const other = run.outcomes.filter((o) => !o.responded && o.result !== 'ECONNREFUSED' && o.result !== 'ECONNRESET');
    expect(other.map((o) => `${o.result}`)).toEqual([]);
    expect(figures.inFlightAtSigterm).toBeGreaterThan(0);
  });
});
