/**
 * A throwaway PostgreSQL 15 cluster of the test's own (initdb into a temporary folder, its own
 * port on 127.0.0.1 and its own socket folder), so that a test can stop and start a database
 * server without touching the machine's shared one. Runs as the `postgres` OS user when the test
 * runs as root (initdb refuses root).
 *
 *   const pg = await createPgCluster();
 *   afterAll(() => pg.destroy());
 *   await pg.stop('immediate'); ... await pg.start();
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { createThrowawayPostgres, onPostgres } from './db.js';

const run = promisify(execFile);

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const RUNUSER = '/usr/sbin/runuser';
const isRoot = process.getuid?.() === 0;

/** True when this machine can run a private cluster (PostgreSQL binaries, and runuser when root). */
export function pgClusterAvailable(): boolean {
  if (!fs.existsSync(path.join(PG_BIN, 'initdb')) || !fs.existsSync(path.join(PG_BIN, 'pg_ctl'))) return false;
  return !isRoot || fs.existsSync(RUNUSER);
}

export type StopMode = 'smart' | 'fast' | 'immediate';

export interface PgCluster {
  readonly port: number;
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  readonly adminUrl: string;
  /** URL of another database on this cluster. */
  urlFor(database: string): string;
  /** Starts the server and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops the server (`immediate` is a crash, `fast` disconnects every client). */
  stop(mode?: StopMode): Promise<void>;
  readonly running: boolean;
  /** Stops the server if it runs and deletes its folder. */
  destroy(): Promise<void>;
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
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

/** Runs a PostgreSQL program as the postgres user (when root) or as ourselves. */
function pgCommand(program: string, args: string[], timeoutMs = 60_000) {
  const file = path.join(PG_BIN, program);
  return isRoot
    ? run(RUNUSER, ['-u', 'postgres', '--', file, ...args], { timeout: timeoutMs })
    : run(file, args, { timeout: timeoutMs });
}

export async function createPgCluster(): Promise<PgCluster> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-pg-'));
  const dataDir = path.join(root, 'data');
  const logFile = path.join(root, 'server.log');
  if (isRoot) {
    // The postgres user owns the folder it writes into.
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    fs.chownSync(root, Number(stdout.trim()), Number(gid.trim()));
  }
  await pgCommand('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const port = await freePort();
  const serverOptions = [
    `-p ${port}`,
    `-c listen_addresses=127.0.0.1`,
    `-c unix_socket_directories=${root}`,
    // A test cluster: durability off for speed (crash recovery still runs on restart).
    `-c fsync=off`,
    `-c synchronous_commit=off`,
    `-c full_page_writes=off`,
    `-c max_connections=100`,
  ].join(' ');

  let running = false;
  const cluster: PgCluster = {
    port,
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    urlFor: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    get running() {
      return running;
    },
    async start() {
      await pgCommand('pg_ctl', ['-D', dataDir, '-o', serverOptions, '-l', logFile, '-w', '-t', '60', 'start']);
      running = true;
    },
    async stop(mode: StopMode = 'fast') {
      await pgCommand('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
      running = false;
    },
    async destroy() {
      if (running) await cluster.stop('immediate').catch(() => {});
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}

/**
 * A throwaway PostgreSQL database for tests that need PostgreSQL itself: on TEST_DATABASE_URL's
 * server when it is set, otherwise in a private cluster started for the test. `drop` removes
 * whichever was made.
 */
export async function createPostgresDatabase(name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  if (onPostgres) return createThrowawayPostgres();
  const cluster = await createPgCluster();
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return { url: cluster.urlFor(name), drop: () => cluster.destroy() };
}
