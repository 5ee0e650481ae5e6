/**
 * `npm run bench` (`-- --quick` for a small run in under a minute): builds the service, loads a
 * generated catalog through the real import CLI into a throwaway PostgreSQL database, starts the
 * service as users run it (`node dist/server.js`) with the response cache on and then off, and a
 * floor server beside it, drives both with autocannon over loopback, and writes the report to
 * bench/results/. Everything it starts is stopped, and the database dropped, also on failure or
 * Ctrl-C.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateCatalog, type CatalogManifest } from './catalog.js';
import { countOffers, createThrowawayDatabase, databaseFacts, DEFAULT_SERVER_URL, redactUrl, type ThrowawayDatabase } from './database.js';
import { probe, runLoad, type LoadResult, type RequestSpec } from './load.js';
import {
  freePort,
  killAllChildrenNow,
  procStatusKb,
  runInherited,
  runMeasured,
  startChild,
  stopAllChildren,
  treeRssKb,
  waitForHttp,
  type Child,
} from './processes.js';
import {
  evaluateTargets,
  median,
  summarize,
  toMarkdown,
  toSvg,
  type BenchReport,
  type CacheMode,
  type FloorOutcome,
  type ImportOutcome,
  type Machine,
  type ScenarioOutcome,
} from './report.js';
import { buildScenarios, type Scenario } from './scenarios.js';
import { enableTransparency, timeColdBuilds } from './transparency.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS_DIR = path.join(ROOT, 'bench', 'results');
const TMP_DIR = path.join(RESULTS_DIR, 'tmp');

const { values: args } = (() => {
  try {
    return parseOptions();
  } catch (error) {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)} (see --help)\n`);
    process.exit(2);
  }
})();

function parseOptions() {
  return parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      offers: { type: 'string' },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      only: { type: 'string' },
      'keep-catalog': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
}

if (args.help) {
  process.stdout.write(`npm run bench [-- options]

  --quick            5,000 offers, one short round (under a minute); writes bench/results/latest-quick.*
  --offers N         catalog size (default 100000)
  --rounds N         rounds per cache mode (default 3)
  --warmup S         warm-up seconds before each measured window (default 3)
  --duration S       measured seconds per scenario and round (default 6)
  --connections N    concurrent connections (default 50)
  --only ID,ID       only these scenarios (organization, branches, offer-json, offer-xml, offer-include,
                     list-default, list-lang, list-filtered, list-deep, investment-offers, revalidate-304,
                     unauthorized-401, invalid-key-401, invalid-key-401-flood, page100-json, page100-xml,
                     search-box, radius, facets, changes, list-sparse, similar, clusters-all, photo-variant,
                     prices-csv)
  --keep-catalog     keep the generated NDJSON in bench/results/tmp/

A run with --only writes bench/results/latest-partial.* (the published latest.* stay as they are).
The service logs at BENCH_LOG_LEVEL (default info, as it runs in production: one line per request).

DATABASE_URL names the PostgreSQL server (default ${DEFAULT_SERVER_URL});
a throwaway database is created on it and dropped at the end.
`);
  process.exit(0);
}

const quick = args.quick ?? false;
const num = (value: string | undefined, fallback: number) => (value === undefined ? fallback : Number(value));
const settings = {
  offers: num(args.offers, quick ? 5_000 : 100_000),
  rounds: num(args.rounds, quick ? 1 : 3),
  warmupSeconds: num(args.warmup, quick ? 0.3 : 3),
  durationSeconds: num(args.duration, quick ? 0.8 : 6),
  /** Quick runs cap the cache-filling pass; full runs always send every distinct request. */
  prePassMaxSeconds: quick ? 0.5 : undefined,
  connections: num(args.connections, 50),
};
/**
 * The service logs as operators run it: one line per request at the default level (info), to a
 * file (bench/results/tmp/service-<mode>.log, deleted at the end). BENCH_LOG_LEVEL=warn measures
 * it without request lines.
 */
const serviceLogLevel = process.env.BENCH_LOG_LEVEL?.trim() || 'info';
for (const [name, value] of Object.entries(settings)) {
  if (value === undefined) continue;
  if (!Number.isFinite(value) || value < 0 || (name !== 'warmupSeconds' && value === 0)) {
    process.stderr.write(`bench: --${name} must be a positive number\n`);
    process.exit(2);
  }
}
const only = args.only ? new Set(args.only.split(',')) : undefined;

const startedAt = Date.now();
const log = (message: string) => {
  const stamp = `[${((Date.now() - startedAt) / 1000).toFixed(1).padStart(5)} s]`;
  process.stderr.write(message.startsWith('\n') ? `\n${stamp} ${message.slice(1)}\n` : `${stamp} ${message}\n`);
};
const mb = (kb: number) => kb / 1024;

// ---------------------------------------------------------------------------------------------
// Cleanup: on every way out, stop the children, drop the database, delete the catalog.

let database: ThrowawayDatabase | undefined;
let catalogFile: string | undefined;
const serviceLogs: string[] = [];
let cleaning: Promise<void> | undefined;

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await stopAllChildren();
    if (database) {
      await database.drop().then(
        () => log(`dropped database ${database!.name}`),
        (error: unknown) => log(`could not drop database ${database!.name}: ${String(error)} (drop it by hand)`),
      );
    }
    if (catalogFile && !args['keep-catalog']) fs.rmSync(catalogFile, { force: true });
    for (const file of serviceLogs) fs.rmSync(file, { force: true });
  })();
  return cleaning;
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) {
      killAllChildrenNow();
      process.exit(130);
    }
    interrupted = true;
    log(`\n${signal}: stopping the benchmark and cleaning up (again to force)...`);
    void cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// Machine

const loadAverageAtStart = os.loadavg()[0] ?? 0;

function machineFacts(postgresVersion: string): Machine {
  const cpuModel = (() => {
    try {
      const match = /^model name\s*:\s*(.+)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'));
      if (match) return match[1]!.trim();
    } catch {
      // not Linux
    }
    return os.cpus()[0]?.model ?? 'unknown CPU';
  })();
  const git = (gitArgs: string[]) => {
    try {
      return execFileSync('git', gitArgs, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return '';
    }
  };
  const commit = git(['rev-parse', '--short', 'HEAD']) || 'unknown';
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) ? '+changes' : '';
  const autocannonVersion = (createRequire(import.meta.url)('autocannon/package.json') as { version: string }).version;
  return {
    cpus: os.availableParallelism(),
    cpuModel,
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    postgres: postgresVersion.replace(/,.*$/, '').replace(/ on .*$/, ''),
    os: `${os.type()} ${os.release()}`,
    commit: commit + dirty,
    autocannon: autocannonVersion,
    loadAverageAtStart,
  };
}

// ---------------------------------------------------------------------------------------------
// Steps

async function build(): Promise<void> {
  log('building the service (npm run build)...');
  const code = await runInherited('npm', ['run', 'build', '--silent'], { cwd: ROOT, env: process.env });
  if (code !== 0) throw new Error(`npm run build failed (${code}); the benchmark measures the built service`);
}

async function importCatalog(file: string, manifest: CatalogManifest, url: string): Promise<ImportOutcome> {
  const cli = path.join(ROOT, 'dist', 'cli', 'index.js');
  if (!fs.existsSync(cli)) {
    throw new Error('dist/cli/index.js is missing after the build: the import CLI (src/cli/index.ts) does not exist yet');
  }
  log(`importing ${manifest.offers.toLocaleString('en-US')} offers through the CLI (node dist/cli/index.js import FILE --json)...`);
  const run = await runMeasured('import', process.execPath, [cli, 'import', file, '--json'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' },
    timeoutMs: 60 * 60_000,
  });
  const base = {
    offers: manifest.offers,
    seconds: run.seconds,
    offersPerSecond: manifest.offers / run.seconds,
    peakRssMb: mb(run.peakRssKb),
    exitCode: run.code,
  };
  let counts: unknown = run.stdout.trim();
  try {
    counts = JSON.parse(run.stdout);
  } catch {
    // kept as text
  }
  if (run.code !== 0) {
    const tail = run.stderr.trim().split('\n').slice(-15).join('\n');
    throw new Error(`the import failed (exit ${run.code}):\n${tail}\n${String(run.stdout).slice(0, 2000)}`);
  }
  const loaded = await countOffers(url);
  if (loaded.total !== manifest.offers || loaded.active !== manifest.activeOffers) {
    return {
      ...base,
      counts,
      problem: `the database holds ${loaded.total} offers (${loaded.active} active) after the import, expected ${manifest.offers} (${manifest.activeOffers} active)`,
    };
  }
  log(`  ${run.seconds.toFixed(1)} s, ${Math.round(base.offersPerSecond).toLocaleString('en-US')} offers/s, peak RSS ${Math.round(base.peakRssMb)} MB`);
  return { ...base, counts };
}

async function startFloor(): Promise<{ child: Child; origin: string }> {
  const port = await freePort();
  const child = startChild('floor server', process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'floor-server.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(`${origin}/`, child, 30_000);
  return { child, origin };
}

async function startService(mode: CacheMode, url: string): Promise<{ child: Child; origin: string }> {
  const port = await freePort();
  fs.mkdirSync(TMP_DIR, { recursive: true });
  const logFile = path.join(TMP_DIR, `service-${mode}.log`);
  serviceLogs.push(logFile);
  const child = startChild(`service (cache ${mode})`, process.execPath, [path.join(ROOT, 'dist', 'server.js')], {
    cwd: ROOT,
    stdoutFile: logFile,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: url,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: serviceLogLevel,
      RESPONSE_CACHE: mode,
      // The load comes from one address and 50 connections: a per-minute budget would turn it into 429s.
      RATE_LIMIT_PER_MINUTE: '0',
    },
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(`${origin}/health`, child, 60_000);
  await waitForColumns(logFile);
  return { child, origin };
}

/**
 * The service loads the organizations' offer columns and cards in the background once it serves
 * (extension E13); measuring before that ends would measure the load. Waits for its log line
 * (logged at info), at most five minutes.
 */
async function waitForColumns(logFile: string): Promise<void> {
  if (!['info', 'debug', 'trace'].includes(serviceLogLevel)) return;
  const started = Date.now();
  while (Date.now() - started < 300_000) {
    const line = fs.readFileSync(logFile, 'utf8').split('\n').find((l) => l.includes('"msg":"offer columns loaded"'));
    if (line !== undefined) {
      const { organizations, bytes, ms } = JSON.parse(line) as { organizations: number; bytes: number; ms: number };
      log(`  offer columns and cards loaded: ${organizations} organizations, ${(bytes / 1024 / 1024).toFixed(1)} MB, ${(ms / 1000).toFixed(1)} s`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  log('  the offer columns were not loaded within 5 minutes: measuring anyway');
}

/** What went wrong in a measured run, or undefined when every answer had the expected status. */
function runProblem(result: LoadResult, expectedStatus: number): string | undefined {
  if (result.responses === 0 && result.errors === 0) {
    return `no answer completed in the ${settings.durationSeconds} s window (slower than ${settings.warmupSeconds + settings.durationSeconds} s per request)`;
  }
  const parts: string[] = [];
  if (result.unexpected > 0) {
    const others = Object.entries(result.statusCounts)
      .filter(([status]) => status !== String(expectedStatus))
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ');
    parts.push(`${result.unexpected} of ${result.responses} answers not ${expectedStatus} (${others})`);
  }
  if (result.errors > 0) parts.push(`${result.errors} connection errors${result.timeouts ? ` (${result.timeouts} timeouts)` : ''}`);
  return parts.length ? parts.join('; ') : undefined;
}

const fmt = (r: LoadResult) =>
  `${Math.round(r.requestsPerSecond).toLocaleString('en-US').padStart(7)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms`;

interface ModeResults {
  floor: FloorOutcome;
  scenarios: ScenarioOutcome[];
  peakRssMb: number;
  /** Facts the scenarios found while preparing. */
  notes: string[];
}

async function measureMode(mode: CacheMode, url: string, floorServer: { origin: string; pid: number }, scenarios: Scenario[]): Promise<ModeResults> {
  log(`\nstarting the service with RESPONSE_CACHE=${mode} (node dist/server.js)...`);
  const service = await startService(mode, url);
  const prepared: { scenario: Scenario; pool: RequestSpec[]; rounds: LoadResult[]; problem?: string; status: ScenarioOutcome['status'] }[] = [];
  const notes: string[] = [];
  for (const scenario of scenarios) {
    const ready = await scenario.prepare(service.origin).catch((error: unknown) => ({ problem: `could not prepare: ${String(error)}` }));
    if ('notApplicable' in ready) {
      prepared.push({ scenario, pool: [], rounds: [], status: 'n/a', problem: ready.notApplicable });
      continue;
    }
    if ('problem' in ready) {
      prepared.push({ scenario, pool: [], rounds: [], status: 'error', problem: ready.problem });
      continue;
    }
    if (ready.note) {
      log(`  ${scenario.label}: ${ready.note}`);
      notes.push(`${scenario.label}, cache ${mode}: ${ready.note}.`);
    }
    // Check real answers first (three requests, different websites): a fast wrong answer is no result.
    let problem: string | undefined;
    for (const spec of ready.pool.slice(0, 3)) {
      try {
        problem = scenario.check(await probe(service.origin, spec), spec);
      } catch (error) {
        problem = `request failed: ${error instanceof Error ? error.message : String(error)}`;
      }
      if (problem) break;
    }
    prepared.push({ scenario, pool: ready.pool, rounds: [], status: problem ? 'error' : 'ok', ...(problem ? { problem } : {}) });
    if (problem) log(`  ${scenario.label}: ERROR before measuring: ${problem}`);
  }

  const floorRounds: LoadResult[] = [];
  let peakRssKb = 0;
  for (let round = 1; round <= settings.rounds; round++) {
    const floorResult = await runLoad({
      origin: floorServer.origin,
      pool: [{ method: 'GET', path: '/', headers: {} }],
      connections: settings.connections,
      warmupSeconds: settings.warmupSeconds,
      durationSeconds: settings.durationSeconds,
      prePass: false,
      expectedStatus: 200,
      cpuPid: floorServer.pid,
    });
    floorRounds.push(floorResult);
    log(`[cache ${mode}] round ${round}/${settings.rounds}  ${'floor'.padEnd(48)} ${fmt(floorResult)}`);
    for (const entry of prepared) {
      if (entry.status !== 'ok') continue;
      const result = await runLoad({
        origin: service.origin,
        pool: entry.pool,
        connections: settings.connections,
        warmupSeconds: settings.warmupSeconds,
        durationSeconds: settings.durationSeconds,
        // With the cache on, every distinct request is sent once first, so the run measures a warm cache.
        prePass: mode === 'on',
        ...(settings.prePassMaxSeconds !== undefined ? { prePassMaxSeconds: settings.prePassMaxSeconds } : {}),
        expectedStatus: entry.scenario.expectedStatus,
        rssPid: service.child.pid,
        cpuPid: service.child.pid,
      });
      peakRssKb = Math.max(peakRssKb, result.peakRssKb ?? 0);
      entry.rounds.push(result);
      const problem = runProblem(result, entry.scenario.expectedStatus);
      log(`[cache ${mode}] round ${round}/${settings.rounds}  ${entry.scenario.label.padEnd(48)} ${fmt(result)}${problem ? `  ERROR: ${problem}` : ''}`);
      if (problem) {
        entry.status = 'error';
        entry.problem = problem;
      }
    }
  }
  peakRssKb = Math.max(peakRssKb, procStatusKb(service.child.pid, 'VmHWM') ?? 0, treeRssKb(service.child.pid));
  await service.child.stop();

  const floor: FloorOutcome = { mode, rounds: floorRounds, median: summarize(floorRounds) };
  const scenarioOutcomes = prepared.map<ScenarioOutcome>((entry) => {
    const base = {
      id: entry.scenario.id,
      label: entry.scenario.label,
      mode,
      poolSize: entry.pool.length,
      rounds: entry.rounds,
      ...(entry.problem ? { problem: entry.problem } : {}),
    };
    if (entry.status !== 'ok' || entry.rounds.length === 0) return { ...base, status: entry.status === 'ok' ? 'error' : entry.status };
    const summary = summarize(entry.rounds);
    return {
      ...base,
      status: 'ok',
      median: summary,
      ratioToFloor: summary.requestsPerSecond / floor.median.requestsPerSecond,
      ...(summary.cpuMicrosPerAnswer !== undefined && floor.median.cpuMicrosPerAnswer !== undefined
        ? { cpuRatioToFloor: floor.median.cpuMicrosPerAnswer / summary.cpuMicrosPerAnswer }
        : {}),
      p99RatioToFloor: summary.p99 / floor.median.p99,
      bytesPerResponse: median(entry.rounds.map((r) => r.bytesPerResponse)),
      peakRssMb: mb(Math.max(...entry.rounds.map((r) => r.peakRssKb ?? 0))),
    };
  });
  return { floor, scenarios: scenarioOutcomes, peakRssMb: mb(peakRssKb), notes };
}

function xmlVsJson(scenarios: readonly ScenarioOutcome[], mode: CacheMode): number | undefined {
  const json = scenarios.find((s) => s.id === 'page100-json' && s.mode === mode);
  const xml = scenarios.find((s) => s.id === 'page100-xml' && s.mode === mode);
  if (json?.status !== 'ok' || xml?.status !== 'ok' || !json.median || !xml.median) return undefined;
  // cost per page = 1 / throughput at the same concurrency
  return json.median.requestsPerSecond / xml.median.requestsPerSecond;
}

/**
 * Turns the first organization's price-transparency dataset on (the operator's command) and times
 * cold builds of its CSV in this process, apart from the HTTP load; returns the report's notes.
 */
async function prepareTransparency(manifest: CatalogManifest, url: string): Promise<string[]> {
  const organization = manifest.organizations[0]!;
  log(`turning on the price-transparency dataset of ${organization.organization_id} (node dist/cli/index.js transparency enable)...`);
  await enableTransparency(ROOT, url, organization.organization_id);
  const builds = await timeColdBuilds(url, organization.organization_id, 5);
  const first = builds[0]!;
  const range = (pick: (b: (typeof builds)[number]) => number) => {
    const values = builds.map(pick);
    return `${Math.round(median(values))} ms (${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))})`;
  };
  const line =
    `today's price CSV of ${first.rows.toLocaleString('en-US')} offers (${(first.bytes / 1e6).toFixed(1)} MB, ${Math.round(first.gzippedBytes / 1024)} KB gzipped) ` +
    `built cold ${builds.length} times in process: median ${range((b) => b.totalMs)}; statement ${range((b) => b.statementMs)}, rows ${range((b) => b.writeMs)}, ` +
    `hash ${range((b) => b.hashMs)}, gzip ${range((b) => b.gzipMs)}; load average ${(os.loadavg()[0] ?? 0).toFixed(1)}`;
  log(`  ${line}`);
  return [`Price-transparency dataset (organization ${organization.organization_id}): ${line}.`];
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL?.trim() || DEFAULT_SERVER_URL;
  log(`estate content service benchmark${quick ? ' (quick)' : ''}: ${settings.offers.toLocaleString('en-US')} offers, ` +
    `${settings.rounds} round(s) of ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s, ${settings.connections} connections`);

  await build();
  if (!fs.existsSync(path.join(ROOT, 'dist', 'server.js'))) throw new Error('dist/server.js is missing after the build');

  log(`creating a throwaway database on ${redactUrl(serverUrl)}...`);
  database = await createThrowawayDatabase(serverUrl).catch((error: unknown) => {
    throw new Error(
      `could not create a throwaway database on ${redactUrl(serverUrl)}: ${error instanceof Error ? error.message : String(error)} ` +
        '(the benchmark needs a PostgreSQL server and a role with the CREATEDB right; set DATABASE_URL)',
    );
  });
  log(`  ${database.name}`);

  fs.mkdirSync(TMP_DIR, { recursive: true });
  catalogFile = path.join(TMP_DIR, `catalog-${database.name}.ndjson`);
  log(`generating the catalog (${catalogFile})...`);
  const generationStarted = Date.now();
  const manifest = await generateCatalog({ offers: settings.offers, outFile: catalogFile });
  const generationSeconds = (Date.now() - generationStarted) / 1000;
  log(`  ${manifest.records.toLocaleString('en-US')} records, ${Math.round(manifest.bytes / 1e6)} MB, ${manifest.averageOfferBytes} bytes per offer, ${generationSeconds.toFixed(1)} s`);

  const imported = await importCatalog(catalogFile, manifest, database.url);
  if (imported.problem) log(`  ERROR: ${imported.problem}`);
  if (!args['keep-catalog']) fs.rmSync(catalogFile, { force: true });
  const facts = await databaseFacts(database.url);

  const activePerOrganization = Math.min(...manifest.organizations.map((o) => o.activeOfferIds.length));
  const deepPage = Math.max(2, Math.min(100, Math.floor((activePerOrganization * 0.6) / 50)));
  let scenarios = buildScenarios(manifest, {
    offersPerOrganization: quick ? 50 : 200,
    filtersPerOrganization: quick ? 3 : 20,
    deepPage,
    bigPagesPerOrganization: quick ? 2 : 10,
  });
  if (only) scenarios = scenarios.filter((s) => only.has(s.id));
  const transparencyNotes = scenarios.some((s) => s.id === 'prices-csv') ? await prepareTransparency(manifest, database.url) : [];

  log('starting the floor server (bare Fastify, 17-byte JSON)...');
  const floor = await startFloor();

  const results: ModeResults[] = [];
  for (const mode of ['on', 'off'] as const) results.push(await measureMode(mode, database.url, { origin: floor.origin, pid: floor.child.pid }, scenarios));
  await floor.child.stop();

  const allScenarios = results.flatMap((r) => r.scenarios);
  const xml = { on: xmlVsJson(allScenarios, 'on'), off: xmlVsJson(allScenarios, 'off') };
  const notes: string[] = [
    `Each scenario walks through a pool of distinct requests spread over the ${manifest.organizations.length} websites and their keys ` +
      `(${[...new Set(allScenarios.map((s) => `${s.id} ${s.poolSize}`))].join(', ')}).`,
    `“× floor” is the scenario's median requests/s divided by the floor's median in the same mode; with the cache on, every distinct request was sent once before the warm-up.`,
    `The deep-page scenario filters on a broad price range only: the four-filter search matches several hundred offers of an organization, so its page ${deepPage} would be empty.`,
    'Response sizes are as sent (no Accept-Encoding), headers included.',
  ];
  if (facts.offersAnalyzed === 'no') notes.push('The offers table had no planner statistics after the import (neither the import nor autovacuum had run ANALYZE).');
  notes.push(...transparencyNotes, ...results.flatMap((r) => r.notes));
  if (quick) notes.push('Quick run: a small catalog and one short round; figures are noisy and are not the published ones.');

  const partial = {
    date: new Date().toISOString(),
    quick,
    machine: machineFacts(database.serverVersion),
    settings: {
      connections: settings.connections,
      warmupSeconds: settings.warmupSeconds,
      durationSeconds: settings.durationSeconds,
      rounds: settings.rounds,
      serviceLogLevel,
    },
    catalog: {
      offers: manifest.offers,
      activeOffers: manifest.activeOffers,
      organizations: manifest.organizations.length,
      megabytes: manifest.bytes / 1e6,
      averageOfferBytes: manifest.averageOfferBytes,
      generationSeconds,
    },
    database: { size: facts.databaseSize, offersSize: facts.offersSize, offersAnalyzed: facts.offersAnalyzed },
    import: imported,
    floor: results.map((r) => r.floor),
    scenarios: allScenarios,
    xmlVsJson: Object.fromEntries(Object.entries(xml).filter(([, v]) => v !== undefined)) as BenchReport['xmlVsJson'],
    servicePeakRssMb: { on: results[0]!.peakRssMb, off: results[1]!.peakRssMb },
    notes,
  };
  const report: BenchReport = { ...partial, targets: evaluateTargets(partial) };

  // A partial run (--only) never replaces the published full report.
  const stem = only ? 'latest-partial' : quick ? 'latest-quick' : 'latest';
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const markdown = toMarkdown(report);
  fs.writeFileSync(path.join(RESULTS_DIR, `${stem}.md`), markdown);
  fs.writeFileSync(path.join(RESULTS_DIR, `${stem}.json`), JSON.stringify(report, null, 2) + '\n');
  fs.writeFileSync(path.join(RESULTS_DIR, `${stem}.svg`), toSvg(report));
  process.stdout.write('\n' + markdown);
  log(`\nwrote bench/results/${stem}.md, ${stem}.json and ${stem}.svg in ${Math.round((Date.now() - startedAt) / 1000)} s`);
}

main()
  .then(async () => {
    await cleanup();
    // Idle keep-alive sockets and pools would hold the process open for seconds more.
    process.exit(0);
  })
  .catch(async (error: unknown) => {
    log(`\nbenchmark failed: ${error instanceof Error ? error.message : String(error)}`);
    await cleanup();
    process.exit(1);
  });
