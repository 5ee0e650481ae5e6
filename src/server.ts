/**
 * The service's entry point: read the configuration, open and migrate the database, load the demo
 * on the first embedded start, build the app, listen, and shut down cleanly on SIGTERM / SIGINT.
 * With WEB_CONCURRENCY > 1 (PostgreSQL only) the primary process migrates once and forks that many
 * workers, which share the port through node:cluster.
 */
import cluster from 'node:cluster';
import fs from 'node:fs';
import { buildApp } from './app.js';
import { trackConnections } from './http/graceful-close.js';
import { stopWithNpmParent } from './parent-watch.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './db/connect.js';
import { DataDirBusyError, LOCK_FILE, lockDataDir } from './db/data-dir-lock.js';
import { migrateToLatest } from './db/migrator.js';
import { serveControlSocket, type ControlSocket } from './cli/control-socket.js';
import { loadDemo } from './demo/index.js';
import { bufferedStdout } from './http/plugins/log-destination.js';
import { aggregateWorkers, askPrimary } from './metrics/cluster.js';
import { createMetrics, METRICS_CONTENT_TYPE } from './metrics/metrics.js';
import { serveMetrics, type MetricsListener, type MetricsText } from './metrics/serve.js';
import { firstWebsites, type WebsiteName } from './features/access/index.js';

/**
 * At shutdown, a connection with no request under way is closed once no byte has arrived on it for
 * this long: a request its client had already sent (on the wire, in the kernel's buffer) is read
 * and answered first. A second is well above a round trip, and adds at most a second to a shutdown.
 */
const IDLE_GRACE_MS = 1_000;

/** An embedded data folder that holds nothing yet (but our lock and its drafts and claims, ecs.lock.*): the newcomer's first start. */
function isEmptyDataDir(dataDir: string): boolean {
  return !fs.existsSync(dataDir) || fs.readdirSync(dataDir).every((name) => name.startsWith(LOCK_FILE));
}

/** A block that stands out among the JSON log lines. */
function banner(lines: readonly string[]): string {
  const rule = '='.repeat(78);
  return ['', rule, ...lines, rule, ''].join('\n') + '\n';
}

function printDemoWelcome(config: Config, demo: { key: string; website_id: string }, address: string): void {
  // Printed once, to the terminal that started the service, never through the logger.
  process.stdout.write(
    banner([
      'Loaded the demo data set into a new embedded database in ' + config.dataDir,
      `Demo website ${demo.website_id}, API key (shown only now; keep it):`,
      '',
      `  ${demo.key}`,
      '',
      'Try it:',
      '',
      `  curl -s -H 'Authorization: ${demo.key}' ${address}/api/v1/organization`,
      `  curl -s -H 'Authorization: ${demo.key}' -H 'Content-Type: application/json' \\`,
      `    -d '{"pagination":{"size":5},"sorting":{"field":"price","direction":"asc"}}' ${address}/api/v1/offers`,
      '',
      `Interactive docs: ${address}/docs`,
    ]),
  );
}

/** On a later start of the embedded database: how to get a key, since the demo key was shown once. */
function printKeyHint(websites: readonly WebsiteName[], address: string): void {
  const website = websites[0];
  const lines = website
    ? [
        `Need an API key? In another terminal: npm run cli -- keys create --website ${website.website_id}` +
          (websites.length > 1 ? ` (or another website: npm run cli -- websites list)` : ` (${website.name})`),
        `Interactive docs: ${address}/docs`,
      ]
    : [`No website yet: npm run cli -- demo loads the demo data set and prints a key. Interactive docs: ${address}/docs`];
  process.stdout.write(banner(lines));
}

const metricsEnabled = (config: Config): boolean => config.metricsPort !== undefined || config.metricsToken !== undefined;

/** The metrics listener of its own, when METRICS_PORT is set. */
async function listenForMetrics(config: Config, read: MetricsText, onError: (error: unknown) => void): Promise<MetricsListener | undefined> {
  if (config.metricsPort === undefined) return undefined;
  return serveMetrics({ host: config.metricsHost, port: config.metricsPort, token: config.metricsToken, contentType: METRICS_CONTENT_TYPE, read, onError });
}

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** Primary of a cluster: bring the schema up to date once, then keep WEB_CONCURRENCY workers. */
async function runPrimary(config: Config): Promise<void> {
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, poolMax: 1 });
  await migrateToLatest(handle.db);
  await handle.close();

  // Workers count; the primary sums them for METRICS_PORT (served here) and for GET /metrics.
  const metricsListener = metricsEnabled(config)
    ? await listenForMetrics(config, aggregateWorkers(), (error) => process.stderr.write(`metrics: ${String(error)}\n`))
    : undefined;

  let stopping = false;
  const fork = () => cluster.fork();
  for (let i = 0; i < config.webConcurrency; i++) fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    process.stderr.write(`worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`);
    setTimeout(fork, 1000).unref();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    void metricsListener?.close();
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    setTimeout(() => process.exit(1), 20_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGTERM'));
}

/**
 * The embedded database's folder is this process's alone while it runs (src/db/data-dir-lock.ts):
 * a second service or the command line on the same folder is refused, naming this process. The
 * lock goes when the process exits, however it exits; after a crash the next process takes it over.
 */
function lockEmbeddedDatabase(config: Config): void {
  const address = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  try {
    const lock = lockDataDir(config.dataDir, { role: 'service', doing: `serving ${address}` });
    process.on('exit', () => lock.release());
  } catch (error) {
    if (error instanceof DataDirBusyError) {
      process.stderr.write(`estate-content-service cannot start: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function serve(config: Config): Promise<void> {
  // In a cluster worker the primary serves METRICS_PORT and sums the workers (src/metrics/cluster.ts);
  // made first, so that a starting worker answers the primary's collection as soon as it can.
  const worker = cluster.isWorker;
  const metrics = metricsEnabled(config) ? createMetrics({ processMetrics: true, clusterWorker: worker }) : undefined;
  const embedded = !config.databaseUrl;
  if (embedded) lockEmbeddedDatabase(config);
  const firstStart = embedded && isEmptyDataDir(config.dataDir);
  const handle = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    statementTimeoutMs: config.statementTimeoutMs,
    poolMax: config.poolMax,
    connectionTimeoutMs: config.poolTimeoutMs,
  });
  await migrateToLatest(handle.db);
  const demo = firstStart ? await loadDemo(handle.db) : undefined;

  const logDestination = bufferedStdout();
  const app = await buildApp({
    config,
    db: handle,
    // Buffered and asynchronous: a blocking write per request line cost more than the cheapest answers.
    logger: { level: config.logLevel, stream: logDestination },
    metrics,
    ...(metrics && worker ? { metricsText: askPrimary() } : {}),
  });
  let control: ControlSocket | undefined;
  let metricsListener: MetricsListener | undefined;

  // Every connection is tracked from the start, so that shutdown can close each one between two
  // requests instead of cutting those on which a request may be arriving (src/http/graceful-close.ts).
  const connections = trackConnections(app.server);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, delayMs: config.shutdownDelayMs }, 'shutting down: finishing in-flight requests');
    // A stuck request must not keep the process alive forever.
    const force = setTimeout(() => process.exit(1), config.shutdownDelayMs + 15_000);
    force.unref();
    try {
      // Keep serving while the load balancer takes this instance out of rotation (connections that
      // reach a closed listener are refused, those still queued in the kernel are reset); every
      // answer now closes its connection, so that clients move to other instances.
      if (config.shutdownDelayMs > 0) {
        connections.closing();
        await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
      }
      // Stop accepting; every connection ends after an answer (with Connection: close from now on),
      // or after IDLE_GRACE_MS without a byte.
      await connections.drain({ idleGraceMs: IDLE_GRACE_MS });
      await app.close(); // no connection is left: runs the onClose hooks
      await metricsListener?.close();
      await control?.close(); // waits for a command under way
      await handle.close();
      process.exit(0);
    } catch (error) {
      app.log.error(error, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  if (metrics && !worker) {
    metricsListener = await listenForMetrics(config, () => metrics.registry.metrics(), (error) => app.log.error({ err: error }, 'metrics listener error'));
    if (metricsListener) app.log.info({ host: metricsListener.address.address, port: metricsListener.address.port }, 'metrics listening');
  }
  // The command line reaches the embedded database through this process while it runs.
  if (embedded) {
    control = await serveControlSocket({
      dataDir: config.dataDir,
      database: handle,
      afterCommand: async () => {
        // A `keys` or `websites` command may have changed keys: the next request reads them again.
        app.services.keys.clear();
        await app.contentVersion.refresh();
        // An import or `webhooks test` may have written to the outbox: send without waiting for the poll.
        app.webhookSender?.wake();
      },
      log: app.log,
      metrics,
    });
  }
  const address = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  // The lines logged so far first (they are buffered), so that the banner comes after "listening".
  try {
    logDestination.flushSync();
  } catch {
    // an unwritable standard output: the lines go when they can
  }
  if (demo) printDemoWelcome(config, demo, address);
  else if (embedded) printKeyHint(await firstWebsites(handle.db, 2), address);
}

async function main(): Promise<void> {
  const config = readConfig();
  // Under `npm start`: stop, gracefully, when npm has gone without passing on a signal.
  stopWithNpmParent(() => process.kill(process.pid, 'SIGTERM'));
  if (config.webConcurrency > 1 && !config.databaseUrl) {
    process.stderr.write('WEB_CONCURRENCY > 1 needs DATABASE_URL (the embedded database has one process); running one process\n');
  }
  if (cluster.isPrimary && config.webConcurrency > 1 && config.databaseUrl) return runPrimary(config);
  return serve(config);
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`estate-content-service failed to start: ${message}\n`);
  process.exit(1);
});
