/**
 * Runs fuzz requests against the app through inject() and checks every answer: never a 5xx, an
 * error is always a JSON body with `detail` (Content-Type application/json), every answer has
 * X-Content-Type-Options: nosniff and no X-Powered-By. Heap use after GC is sampled as it goes.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { expect } from 'vitest';
import { buildTestApp } from '../helpers/app.js';
import { fuzzRequest, prng, type FuzzRequest } from './fuzz-requests.js';
import { captureLog } from '../helpers/log-capture.js';

/** A real collection, with or without --expose-gc. */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}

export interface FuzzFigures {
  seed: number;
  requests: number;
  byStatus: Record<string, number>;
  serverErrors: number;
  /** Requests inject() itself refused to send (invalid for the HTTP library, never reached the app). */
  notSendable: number;
  heapMb: { afterWarmup: number; samples: number[]; end: number; growth: number };
  rssMb: { start: number; end: number };
  seconds: number;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

function describeRequest(req: FuzzRequest): string {
  const payload = req.payload === undefined ? '' : ` payload=${String(req.payload).slice(0, 300)}`;
  return `${req.method} ${req.url.slice(0, 300)} headers=${JSON.stringify(req.headers).slice(0, 300)}${payload}`;
}

export async function runFuzz(seed: number, count: number, env: Record<string, string> = {}): Promise<FuzzFigures> {
  // Errors are logged (with their stack) so that a 5xx names its cause.
  const log = captureLog();
  // Key lookups cached as in production (buildTestApp turns the cache off by default).
  const t = await buildTestApp({ env: { KEY_CACHE_TTL_MS: '2000', ...env }, logger: log.options('error') });
  let logLinesSeen = 0;
  const lastError = () => {
    const lines = log.lines();
    const fresh = lines.slice(logLinesSeen);
    logLinesSeen = lines.length;
    const err = fresh.map((l) => l.err as { type?: string; message?: string; stack?: string } | undefined).find(Boolean);
    return err ? `${err.type}: ${err.message} ${String(err.stack).split('\n').slice(1, 4).join(' | ')}` : 'no error logged';
  };
  const gc = collector();
  const r = prng(seed);
  const byStatus: Record<string, number> = {};
  const problems: string[] = [];
  let notSendable = 0;
  const started = performance.now();
  const rssStart = process.memoryUsage().rss;
  const warmup = Math.min(5000, Math.floor(count / 10));
  let heapAfterWarmup = 0;
  const samples: number[] = [];
  const sampleEvery = Math.max(1, Math.floor(count / 10));
  try {
    for (let i = 0; i < count; i++) {
      const req = fuzzRequest(r);
      let res;
      try {
        res = await t.app.inject(req);
      } catch (error) {
        // light-my-request validates what it sends (like a real client would); those never reach
        // the app. Anything else is a failure.
        if (/invalid|ERR_INVALID|not a valid HTTP token/i.test(String((error as Error).message) + String((error as { code?: string }).code))) {
          notSendable++;
          continue;
        }
        throw error;
      }
      byStatus[res.statusCode] = (byStatus[res.statusCode] ?? 0) + 1;
      const where = `seed ${seed} request #${i}: ${describeRequest(req)}`;
      if (res.statusCode >= 500) problems.push(`${res.statusCode} ${res.body.slice(0, 100)} [${lastError()}] <- ${where}`);
      if (res.headers['x-content-type-options'] !== 'nosniff') problems.push(`no nosniff on ${res.statusCode} <- ${where}`);
      if (res.headers['x-powered-by'] !== undefined) problems.push(`x-powered-by on ${res.statusCode} <- ${where}`);
      if (res.statusCode >= 400 && req.method !== 'HEAD') {
        const type = String(res.headers['content-type'] ?? '');
        let detailOk = false;
        try {
          detailOk = 'detail' in (JSON.parse(res.body) as object);
        } catch {
          detailOk = false;
        }
        if (!type.startsWith('application/json') || !detailOk) {
          problems.push(`non-JSON error ${res.statusCode} (${type}) ${res.body.slice(0, 120)} <- ${where}`);
        }
      }
      if (problems.length >= 20) break;
      if (i + 1 === warmup) {
        gc();
        heapAfterWarmup = process.memoryUsage().heapUsed;
      }
      if ((i + 1) % sampleEvery === 0) {
        gc();
        samples.push(mb(process.memoryUsage().heapUsed));
      }
    }
  } finally {
    await t.destroy();
  }
  gc();
  const heapEnd = samples.length > 0 ? samples[samples.length - 1]! : mb(process.memoryUsage().heapUsed);
  const figures: FuzzFigures = {
    seed,
    requests: Object.values(byStatus).reduce((a, b) => a + b, 0),
    byStatus,
    serverErrors: Object.entries(byStatus).filter(([s]) => Number(s) >= 500).reduce((a, [, n]) => a + n, 0),
    notSendable,
    heapMb: { afterWarmup: mb(heapAfterWarmup), samples, end: heapEnd, growth: Math.round((heapEnd - mb(heapAfterWarmup)) * 10) / 10 },
    rssMb: { start: mb(rssStart), end: mb(process.memoryUsage().rss) },
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
  console.log(`fuzz figures ${JSON.stringify(figures)}`);
  expect(problems).toEqual([]);
  return figures;
}
