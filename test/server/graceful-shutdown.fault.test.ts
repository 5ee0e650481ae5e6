/**
 * Graceful shutdown of the real server process (`node dist/server.js`) under load. What a client
 * may see is stated in docs/operations.md (Shutdown); these runs hold the service to it.
 *
 * One request per connection, 20 always in flight:
 * - behind a load balancer (SHUTDOWN_DELAY_MS > 0, the balancer stops routing shortly after the
 *   signal, as Kubernetes does when it removes the endpoint): every request completes with 200 and
 *   a whole body, later connects are refused, the process exits 0. No reset at all;
 * - with clients that never stop (no delay): the kernel resets connections still waiting in the
 *   listen queue when the listener closes, before any byte of a response (that is what the delay is
 *   for). Even then every request the server started is finished: no truncated body, no error
 *   status, exit 0.
 *
 * Kept-alive connections (raw sockets, one request at a time each, the next written as soon as the
 * answer is in, as pooling clients do), with and without a delay, SHUTDOWN_RUNS runs each:
 * - a request written on a connection that has already carried an answer is always answered in
 *   full (the service closes a busy connection only after an answer with Connection: close);
 * - a request that got no byte of an answer is the first on a new connection (queued in the
 *   kernel when the listener closed) and the service never answered it (its request id is not in
 *   the service's request log); no answer is ever cut.
 * And connections idle when the signal comes: a request sent on them just before the signal, or
 * up to 300 ms into the shutdown, is answered (with Connection: close); those that stay idle are
 * closed.
 */
import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { KEYS, OFFER } from '../helpers/fixtures.js';
import type { ServerProcess } from '../helpers/processes.js';
import { useServerFixture } from '../helpers/server-fixture.js';
import { parseResponse } from '../helpers/raw-http.js';
import { scaled } from '../helpers/scale.js';

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
  const fixture = useServerFixture();

  it('behind a load balancer: every request completes, later connects are refused, exit 0', async () => {
    const server = await fixture.startServer({ SHUTDOWN_DELAY_MS: '1500' });
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
    const server = await fixture.startServer({ SHUTDOWN_DELAY_MS: '0' });
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

/** The service closes a connection that has carried no request for this long (src/server.ts). */
const IDLE_GRACE_MS = 1_000;

/** Runs of each kept-alive scenario, and the connections each run keeps busy. */
const SHUTDOWN_RUNS = scaled('SHUTDOWN_RUNS', 1, 4);
const KEPT_ALIVE_CONNECTIONS = scaled('SHUTDOWN_CONNECTIONS', 16, 32);

/** What became of one request written (or about to be written) on a kept-alive connection. */
interface KeptAliveOutcome {
  id: string;
  startedAt: number;
  endedAt: number;
  /** The connection had carried an answer before this request. */
  reused: boolean;
  /** On a reused connection: how long it had been idle (since the last answer) when this was written. */
  idleMs: number;
  /**
   * answered: a whole 200 with a JSON body; refused: the connect was refused (nothing sent);
   * closed-before-write: the server had closed the connection before the request was written
   * (nothing sent); no-answer: the connection ended (EOF or reset) with no byte of an answer;
   * cut: part of an answer, then the end; bad: a whole answer that is not a 200 with JSON.
   */
  result: 'answered' | 'refused' | 'closed-before-write' | 'no-answer' | 'cut' | 'bad';
  closeHeader: boolean;
  detail?: string;
}

const KEPT_ALIVE_REQUESTS = [
  (id: string) => `GET /health HTTP/1.1\r\nHost: x\r\nX-Request-Id: ${id}\r\n\r\n`,
  (id: string) => `GET /api/v1/organization HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEYS.activeA1}\r\nX-Request-Id: ${id}\r\n\r\n`,
  (id: string) => {
    const body = '{"pagination":{"size":20},"sorting":{"field":"price","direction":"desc"}}';
    return `POST /api/v1/offers HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEYS.activeA1}\r\nX-Request-Id: ${id}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  },
  (id: string) => `GET /api/v1/branches HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEYS.activeA1}\r\nX-Request-Id: ${id}\r\n\r\n`,
];

/** A raw client connection that reads answers one at a time and knows when the server has ended it. */
class RawConnection {
  private buffer = '';
  /** 'EOF' or the socket error's code, once the connection has ended. */
  ended: string | undefined;
  private wake: (() => void) | undefined;

  private constructor(readonly socket: net.Socket) {
    const notify = () => this.wake?.();
    socket.on('data', (d: Buffer) => {
      this.buffer += d.toString('latin1');
      notify();
    });
    socket.on('end', () => {
      this.ended ??= 'EOF';
      notify();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      this.ended ??= error.code ?? error.message;
      notify();
    });
    socket.on('close', () => {
      this.ended ??= 'EOF';
      notify();
    });
  }

  /** Connects; the error code when the connect fails. */
  static open(port: number): Promise<RawConnection | string> {
    return new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      const failed = (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message);
      socket.once('error', failed);
      socket.once('connect', () => {
        socket.off('error', failed);
        resolve(new RawConnection(socket));
      });
    });
  }

  /** Writes one request and waits for its whole answer, or for the end of the connection. */
  /** When the last answer on this connection was complete. */
  lastAnswerAt = performance.now();

  async roundTrip(request: string, id: string, reused: boolean): Promise<KeptAliveOutcome> {
    const startedAt = performance.now();
    const idleMs = reused ? startedAt - this.lastAnswerAt : 0;
    const outcome = (result: KeptAliveOutcome['result'], closeHeader = false, detail?: string): KeptAliveOutcome => ({
      id,
      startedAt,
      endedAt: performance.now(),
      reused,
      idleMs,
      result,
      closeHeader,
      ...(detail ? { detail } : {}),
    });
    if (this.ended !== undefined) return outcome('closed-before-write', false, this.ended);
    this.socket.write(request);
    for (;;) {
      const parsed = parseResponse(this.buffer, false, this.ended !== undefined);
      if (parsed) {
        this.buffer = parsed.rest;
        this.lastAnswerAt = performance.now();
        const { status, headers, body } = parsed.response;
        const closeHeader = headers.connection === 'close';
        let json = false;
        try {
          JSON.parse(body);
          json = true;
        } catch {
          json = false;
        }
        return status === 200 && json ? outcome('answered', closeHeader) : outcome('bad', closeHeader, `${status} ${body.slice(0, 100)}`);
      }
      if (this.ended !== undefined) return outcome(this.buffer === '' ? 'no-answer' : 'cut', false, this.ended);
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

/**
 * One client: a kept-alive connection with one request at a time; a new connection after an answer
 * with Connection: close or the end of one. Even clients write the next request as soon as the
 * answer is in; odd ones think up to 4 ms first, so that some connections are idle, with a request
 * about to come, at any moment (the moment Node's own close cut them).
 */
async function keptAliveClient(port: number, client: number, running: () => boolean, outcomes: KeptAliveOutcome[]): Promise<void> {
  const think = client % 2 === 1;
  let n = 0;
  while (running()) {
    const connection = await RawConnection.open(port);
    if (typeof connection === 'string') {
      const now = performance.now();
      outcomes.push({ id: `c${client}-connect`, startedAt: now, endedAt: now, reused: false, idleMs: 0, result: connection === 'ECONNREFUSED' ? 'refused' : 'no-answer', closeHeader: false, detail: connection });
      await sleep(20);
      continue;
    }
    let reused = false;
    while (running()) {
      if (think && reused) await sleep(Math.random() * 4);
      const id = `c${client}-${n}`;
      const outcome = await connection.roundTrip(KEPT_ALIVE_REQUESTS[n % KEPT_ALIVE_REQUESTS.length]!(id), id, reused);
      n++;
      outcomes.push(outcome);
      if (outcome.result !== 'answered' || outcome.closeHeader) break;
      reused = true;
    }
    connection.close();
  }
}

/** The request ids the service wrote a request line for (it answered them). */
function answeredIds(output: string): Set<string> {
  const ids = new Set<string>();
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; reqId?: string };
      if (entry.msg === 'request' && entry.reqId) ids.add(entry.reqId);
    } catch {
      // not a log line
    }
  }
  return ids;
}

interface KeptAliveRun {
  outcomes: KeptAliveOutcome[];
  sigtermAt: number;
  exitCode: number | string | null;
  output: string;
}

/**
 * Drives the clients until each connection has carried a few answers on average (however slow the
 * machine is), then a little longer (a random part of 200 ms, so that runs signal at different
 * moments of the requests), sends SIGTERM and goes on until the process has exited.
 */
async function runKeptAlive(server: ServerProcess): Promise<KeptAliveRun> {
  const outcomes: KeptAliveOutcome[] = [];
  let exited = false;
  const clients = Array.from({ length: KEPT_ALIVE_CONNECTIONS }, (_, i) => keptAliveClient(server.port, i, () => !exited, outcomes));
  const warm = performance.now() + 30_000;
  while (outcomes.filter((o) => o.reused && o.result === 'answered').length < KEPT_ALIVE_CONNECTIONS * 5 && performance.now() < warm) await sleep(20);
  await sleep(Math.random() * 200);
  const sigtermAt = performance.now();
  server.child.kill('SIGTERM');
  const exitCode = await server.exited;
  exited = true;
  await Promise.all(clients);
  return { outcomes, sigtermAt, exitCode, output: server.output() };
}

function keptAliveFigures(run: KeptAliveRun) {
  const byResult: Record<string, number> = {};
  for (const o of run.outcomes) byResult[`${o.result}${o.reused ? ' (reused)' : ''}`] = (byResult[`${o.result}${o.reused ? ' (reused)' : ''}`] ?? 0) + 1;
  const inFlight = run.outcomes.filter((o) => o.startedAt < run.sigtermAt && o.endedAt > run.sigtermAt);
  return {
    requests: run.outcomes.filter((o) => o.result !== 'refused').length,
    byResult,
    inFlightAtSigterm: inFlight.length,
    reusedInFlightAtSigterm: inFlight.filter((o) => o.reused).length,
    reusedAfterSigterm: run.outcomes.filter((o) => o.reused && o.startedAt > run.sigtermAt).length,
    answeredWithClose: run.outcomes.filter((o) => o.result === 'answered' && o.closeHeader).length,
    // When the requests with no answer at all were written (ms from the signal), and how they ended.
    noAnswer: run.outcomes
      .filter((o) => o.result === 'no-answer')
      .slice(0, 8)
      .map((o) => `${o.id} ${Math.round(o.startedAt - run.sigtermAt)}..${Math.round(o.endedAt - run.sigtermAt)} ms ${o.detail ?? ''}`),
    exitCode: run.exitCode,
  };
}

/** The rules of docs/operations.md (Shutdown) over one run; returns the figures for the log. */
function checkKeptAliveRun(run: KeptAliveRun) {
  const figures = keptAliveFigures(run);
  expect(run.exitCode, run.output.slice(-2000)).toBe(0);
  const at = (o: KeptAliveOutcome) => `${o.id} ${o.result}${o.detail ? ` (${o.detail})` : ''} at ${Math.round(o.startedAt - run.sigtermAt)} ms`;
  // No answer is ever cut or wrong.
  expect(run.outcomes.filter((o) => o.result === 'cut' || o.result === 'bad').map(at)).toEqual([]);
  // A connection that has carried an answer is closed by the service only after an answer with
  // Connection: close, or once idle for a second: a request written on it sooner is answered.
  // (Closed before the request was written is clean: nothing was sent.)
  const lost = run.outcomes.filter((o) => o.reused && o.result !== 'answered' && o.result !== 'closed-before-write');
  expect(lost.filter((o) => o.idleMs < IDLE_GRACE_MS).map((o) => `${at(o)} after ${Math.round(o.idleMs)} ms idle`)).toEqual([]);
  // No answer at all happens only to the first request of a new connection, and the service never
  // processed it (it was never accepted: queued in the kernel when the listener closed).
  const answered = answeredIds(run.output);
  expect(answered.size, 'the service writes a request line per answer at LOG_LEVEL=info').toBeGreaterThan(0);
  const unanswered = run.outcomes.filter((o) => o.result === 'no-answer');
  expect(unanswered.filter((o) => answered.has(o.id)).map(at)).toEqual([]);
  // The run proves something only if kept-alive requests were under way when the signal came,
  // and the service then closed connections with Connection: close.
  expect(figures.reusedInFlightAtSigterm).toBeGreaterThan(0);
  expect(figures.answeredWithClose).toBeGreaterThan(0);
  return figures;
}

describe('graceful shutdown with kept-alive connections', () => {
  const fixture = useServerFixture();

  for (const delayMs of [0, 1000]) {
    it(
      `nonstop load, SHUTDOWN_DELAY_MS=${delayMs}: a reused connection never loses a request, nothing answered is lost, exit 0`,
      async () => {
        for (let i = 0; i < SHUTDOWN_RUNS; i++) {
          const server = await fixture.startServer({ SHUTDOWN_DELAY_MS: String(delayMs), LOG_LEVEL: 'info' });
          const run = await runKeptAlive(server);
          const figures = checkKeptAliveRun(run);
          console.log(`graceful shutdown (kept-alive, delay ${delayMs} ms, ${KEPT_ALIVE_CONNECTIONS} connections, run ${i + 1}/${SHUTDOWN_RUNS}) figures ${JSON.stringify(figures)}`);
        }
      },
      60_000 * SHUTDOWN_RUNS,
    );
  }

  it('idle connections: requests sent just before the signal and up to 300 ms into the shutdown are answered; the idle rest are closed', async () => {
    const server = await fixture.startServer({ SHUTDOWN_DELAY_MS: '0', LOG_LEVEL: 'info' });
    const port = server.port;
    const BEFORE = 6;
    const DURING = 18;
    const IDLE = 4;
    const connections: RawConnection[] = [];
    for (let i = 0; i < BEFORE + DURING + IDLE; i++) {
      const connection = await RawConnection.open(port);
      if (typeof connection === 'string') throw new Error(`connect: ${connection}`);
      const first = await connection.roundTrip(KEPT_ALIVE_REQUESTS[0]!(`idle${i}-0`), `idle${i}-0`, false);
      expect(first.result).toBe('answered');
      expect(first.closeHeader).toBe(false);
      connections.push(connection);
    }
    const second = (i: number) => connections[i]!.roundTrip(KEPT_ALIVE_REQUESTS[i % KEPT_ALIVE_REQUESTS.length]!(`idle${i}-1`), `idle${i}-1`, true);
    // Written 0 to 10 ms before the signal: Node's own close cut such requests (EOF or reset).
    const before: Promise<KeptAliveOutcome>[] = [];
    for (let i = 0; i < BEFORE; i++) {
      before.push(second(i));
      await sleep(2);
    }
    server.child.kill('SIGTERM');
    // The shutdown is under way once the listener refuses (it closes in the same step as every
    // answer starts closing its connection); however slow the machine, the rest is sent from then.
    while ((await RawConnection.open(port).then((c) => (typeof c === 'string' ? c : (c.close(), 'open')))) !== 'ECONNREFUSED') await sleep(5);
    const closingSeenAt = performance.now();
    const during = Array.from({ length: DURING }, async (_, k) => {
      await sleep((k * 300) / (DURING - 1));
      return second(BEFORE + k);
    });
    const at = (o: KeptAliveOutcome) => `${o.id} ${o.result}${o.detail ? ` (${o.detail})` : ''} written ${Math.round(o.startedAt - closingSeenAt)} ms after the listener closed`;
    const sentBefore = await Promise.all(before);
    const sentDuring = await Promise.all(during);
    expect([...sentBefore, ...sentDuring].filter((o) => o.result !== 'answered').map(at)).toEqual([]);
    // Those that arrived during the shutdown were told that the connection closes.
    expect(sentDuring.filter((o) => !o.closeHeader).map(at)).toEqual([]);
    // The connections that stay idle are closed by the service (an EOF before anything is written).
    expect(await server.exited, server.output().slice(-2000)).toBe(0);
    for (const connection of connections.slice(BEFORE + DURING)) {
      for (let i = 0; i < 50 && connection.ended === undefined; i++) await sleep(20);
      expect(connection.ended).toBeDefined();
    }
    for (const connection of connections) connection.close();
  });
});
