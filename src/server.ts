/**
 * The service's entry point: read the configuration, open and migrate the database, load the demo
 * on the first embedded start, build the app, listen, and shut down cleanly on SIGTERM / SIGINT.
 * With WEB_CONCURRENCY > 1 (PostgreSQL only) the primary process migrates once and forks that many
 * workers, which share the port through node:cluster.
 */
import cluster from 'node:cluster';
import fs from 'node:fs';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { loadDemo } from './demo/index.js';

/** An embedded data folder that does not exist yet or holds nothing: the newcomer's first start. */
function isFirstEmbeddedStart(config: Config): boolean {
  if (config.databaseUrl) return false;
  return !fs.existsSync(config.dataDir) || fs.readdirSync(config.dataDir).length === 0;
}

function printDemoWelcome(config: Config, demo: { key: string; website_id: string }, address: string): void {
  // Printed once, to the terminal that started the service, never through the logger.
  const lines = [
    '',
    'Loaded the demo data set into a new embedded database in ' + config.dataDir,
    `Demo website ${demo.website_id}, API key (shown only now):`,
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
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
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
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    setTimeout(() => process.exit(1), 20_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGTERM'));
}

async function serve(config: Config): Promise<void> {
  const firstStart = isFirstEmbeddedStart(config);
  const handle = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    statementTimeoutMs: config.statementTimeoutMs,
    poolMax: config.poolMax,
    connectionTimeoutMs: config.poolTimeoutMs,
  });
  await migrateToLatest(handle.db);
  const demo = firstStart ? await loadDemo(handle.db) : undefined;

  const app = await buildApp({ config, db: handle, logger: { level: config.logLevel } });

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
      // reach a closed listener are reset by the kernel); every answer now closes its connection.
      // Prepended: runs before Fastify's handler, which may answer synchronously (cache, 503).
      app.server.prependListener('request', (_request, response) => {
        if (!response.headersSent) response.setHeader('connection', 'close');
      });
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
      await app.close(); // stops accepting, waits for in-flight requests
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
  const address = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  if (demo) printDemoWelcome(config, demo, address);
}

async function main(): Promise<void> {
  const config = readConfig();
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
