/**
 * Soak test (not in CI): starts the service as a process on a demo database of its own, drives it
 * at a steady rate with autocannon for --seconds (default 600), samples the server's resident
 * memory (RSS) every second into a CSV, and judges the run:
 *
 *   PASS when the highest RSS of the second half of the run is at most --bound-mb (default 64)
 *   above the RSS at the end of the warm-up (the first 10% of the run, at least 10 s), and no
 *   request failed (errors, timeouts, 5xx).
 *
 * The warm-up absorbs what fills once (JIT, key and statement caches, pools); what keeps growing
 * after it is a leak. The response cache is capped at --response-cache-mb (default 32) so that its
 * budget cannot be mistaken for growth.
 *
 *   npx tsx scripts/soak.ts --seconds 120
 *   npx tsx scripts/soak.ts --seconds 600 --rate 400 --connections 20 --out soak.csv
 *   npx tsx scripts/soak.ts --database-url postgres://postgres@127.0.0.1:5432/ecs_soak   # a throwaway database: the demo is loaded into it
 *
 * Exit status: 0 PASS, 1 FAIL, 2 could not run.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// autocannon ships no types; this is the part used here (see its README, "autocannon(opts[, cb])").
interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}
interface CannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: CannonRequest) => CannonRequest;
}
interface CannonInstance extends PromiseLike<CannonResult> {
  on(event: 'response', listener: (client: unknown, statusCode: number) => void): this;
  stop(): void;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  overallRate: number;
  timeout: number;
  requests: CannonRequest[];
}) => CannonInstance;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '600' },
    rate: { type: 'string', default: '200' },
    connections: { type: 'string', default: '10' },
    'bound-mb': { type: 'string', default: '64' },
    'response-cache-mb': { type: 'string', default: '32' },
    out: { type: 'string' },
    'database-url': { type: 'string' },
  },
});

const seconds = Number(args.seconds);
const rate = Number(args.rate);
const connections = Number(args.connections);
const boundMb = Number(args['bound-mb']);
if (![seconds, rate, connections, boundMb].every((n) => Number.isFinite(n) && n > 0)) {
  process.stderr.write('--seconds, --rate, --connections and --bound-mb must be positive numbers\n');
  process.exit(2);
}

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-soak-'));
const csvPath = path.resolve(args.out ?? path.join(workDir, 'soak.csv'));
const databaseEnv: Record<string, string> = args['database-url'] ? { DATABASE_URL: args['database-url'] } : { DATA_DIR: path.join(workDir, 'data') };
const nodeTsx = [process.execPath, '--import', 'tsx'];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Resident memory of a process in MiB (Linux /proc, `ps` elsewhere). */
function rssMb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (match) return Number(match[1]) / 1024;
  } catch {
    // not Linux, or the process is gone
  }
  const ps = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' });
  const kb = Number(ps.stdout.trim());
  return Number.isFinite(kb) && kb > 0 ? kb / 1024 : undefined;
}

/** The demo data set, loaded by the command line (prints a working key). */
function loadDemo(): string {
  const run = spawnSync(nodeTsx[0]!, [...nodeTsx.slice(1), 'src/cli/index.ts', 'demo', '--json'], {
    cwd: ROOT,
    env: { ...process.env, ...databaseEnv },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`demo failed: ${run.stderr || run.stdout}`);
  return (JSON.parse(run.stdout) as { key: string }).key;
}

async function waitForHealth(base: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/health`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become healthy within 60 s');
}

async function main(): Promise<number> {
  process.stdout.write(`soak: loading the demo data (${args['database-url'] ? 'DATABASE_URL' : 'embedded database in ' + workDir})…\n`);
  const key = loadDemo();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(nodeTsx[0]!, [...nodeTsx.slice(1), 'src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...databaseEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RESPONSE_CACHE_MB: args['response-cache-mb'],
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stopServer = () => server.exitCode === null && server.kill('SIGKILL');
  process.on('SIGINT', () => {
    stopServer();
    process.exit(2);
  });
  try {
    await waitForHealth(base, server);
    const auth = { authorization: key };
    // Ids to ask for: a page of offers, the investments and branches.
    const page = (await (
      await fetch(`${base}/api/v1/offers`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ pagination: { size: 100 } }),
      })
    ).json()) as { items: Array<{ offer_id: string }> };
    const offerIds = page.items.map((o) => o.offer_id);
    const investmentIds = ((await (await fetch(`${base}/api/v1/investments`, { headers: auth })).json()) as Array<{ investment_id: string }>).map(
      (i) => i.investment_id,
    );
    const branchIds = ((await (await fetch(`${base}/api/v1/branches`, { headers: auth })).json()) as Array<{ branch_id: string }>).map((b) => b.branch_id);
    if (offerIds.length === 0 || investmentIds.length === 0 || branchIds.length === 0) throw new Error('the demo data has no offers, investments or branches');
    const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
    const json = { ...auth, 'content-type': 'application/json' };

    // A realistic mix; bodies vary so that the response cache cannot answer everything.
    const requests: CannonRequest[] = [
      { method: 'GET', path: '/api/v1/organization', headers: auth },
      { method: 'GET', path: '/api/v1/branches', headers: auth },
      { method: 'GET', path: '/api/v1/agents', headers: auth },
      { method: 'GET', setupRequest: (r) => ({ ...r, path: `/api/v1/branches/${pick(branchIds)}/agents` }), headers: auth },
      { method: 'GET', setupRequest: (r) => ({ ...r, path: `/api/v1/offers/${pick(offerIds)}?include=agent,branch` }), headers: auth },
      {
        method: 'GET',
        setupRequest: (r) => ({ ...r, path: `/api/v1/offers/${pick(offerIds)}`, headers: { ...auth, accept: 'application/xml' } }),
      },
      {
        method: 'POST',
        path: '/api/v1/offers',
        headers: json,
        setupRequest: (r) => {
          const low = Math.floor(Math.random() * 1_500_000);
          return {
            ...r,
            body: JSON.stringify({
              pagination: { page: 1 + Math.floor(Math.random() * 3), size: pick([10, 20, 50]) },
              sorting: { field: pick(['price', 'created_at', 'property_size']), direction: pick(['asc', 'desc']) },
              filters: [{ field: 'price', operator: 'between', value: [low, low + 300_000] }],
            }),
          };
        },
      },
      {
        method: 'POST',
        headers: json,
        setupRequest: (r) => ({ ...r, path: `/api/v1/investments/${pick(investmentIds)}/offers?include=investment`, body: '{"pagination":{"size":20}}' }),
      },
      { method: 'GET', path: '/api/v1/offers/00000000-0000-4000-8000-000000000000', headers: auth }, // 404
      { method: 'GET', path: '/health' },
    ];

    const samples: Array<{ second: number; rssMb: number; responses: number; failures: number }> = [];
    let responses = 0;
    let failures = 0;
    const startRss = rssMb(server.pid!) ?? 0;
    process.stdout.write(
      `soak: ${seconds} s at ${rate} requests/s over ${connections} connections against pid ${server.pid}; RSS at start ${startRss.toFixed(1)} MiB\n`,
    );
    const started = Date.now();
    const sampler = setInterval(() => {
      const rss = rssMb(server.pid!);
      if (rss === undefined) return;
      const second = Math.round((Date.now() - started) / 1000);
      samples.push({ second, rssMb: rss, responses, failures });
      if (second % 30 === 0) process.stdout.write(`  ${second} s: RSS ${rss.toFixed(1)} MiB, ${responses} responses, ${failures} failures\n`);
    }, 1000);

    const instance = autocannon({ url: base, connections, duration: seconds, overallRate: rate, timeout: 10, requests });
    instance.on('response', (_client, statusCode) => {
      responses++;
      if (statusCode >= 500) failures++;
    });
    const result = await instance;
    clearInterval(sampler);
    const endRss = rssMb(server.pid!) ?? samples.at(-1)?.rssMb ?? 0;

    fs.mkdirSync(path.dirname(csvPath), { recursive: true });
    fs.writeFileSync(csvPath, ['second,rss_mb,responses,failures_5xx', ...samples.map((s) => `${s.second},${s.rssMb.toFixed(1)},${s.responses},${s.failures}`)].join('\n') + '\n');

    const warmupEnd = Math.max(10, Math.round(seconds * 0.1));
    const afterWarmup = samples.find((s) => s.second >= warmupEnd)?.rssMb ?? startRss;
    const secondHalf = samples.filter((s) => s.second >= seconds / 2).map((s) => s.rssMb);
    const maxRss = Math.max(...samples.map((s) => s.rssMb), endRss);
    const maxSecondHalf = secondHalf.length > 0 ? Math.max(...secondHalf) : endRss;
    const growth = maxSecondHalf - afterWarmup;
    const failed = result.errors + result.timeouts + failures;
    const pass = growth <= boundMb && failed === 0;

    const statuses = Object.entries(result.statusCodeStats)
      .map(([code, { count }]) => `${code}: ${count}`)
      .join(', ');
    process.stdout.write(
      [
        '',
        `requests: ${result.requests.total} (${result.requests.average.toFixed(0)}/s on average); statuses ${statuses}`,
        `latency: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
        `errors ${result.errors}, timeouts ${result.timeouts}, 5xx ${failures}`,
        `RSS: start ${startRss.toFixed(1)} MiB, after warm-up (${warmupEnd} s) ${afterWarmup.toFixed(1)} MiB, end ${endRss.toFixed(1)} MiB, max ${maxRss.toFixed(1)} MiB`,
        `growth after warm-up: ${growth.toFixed(1)} MiB (bound ${boundMb} MiB)`,
        `samples: ${csvPath}`,
        `verdict: ${pass ? 'PASS' : 'FAIL'}`,
        '',
      ].join('\n'),
    );

    // The run ends as a deployment would: SIGTERM, and the process exits 0.
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    const code = await exited;
    process.stdout.write(`server exit status after SIGTERM: ${code}\n`);
    return pass && code === 0 ? 0 : 1;
  } finally {
    stopServer();
    if (!args['database-url']) fs.rmSync(path.join(workDir, 'data'), { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`soak could not run: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
