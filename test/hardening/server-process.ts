/**
 * The real service as a child process (`tsx src/server.ts`) on a database prepared by the test:
 * a throwaway PostgreSQL database when TEST_DATABASE_URL is set, an embedded PGlite folder in a
 * temporary directory otherwise. Both hold the HTTP test fixture (two organizations, known keys).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createThrowawayPostgres, onPostgres } from '../helpers/db.js';
import { insertFixture } from '../helpers/fixtures.js';
import { freePort, waitForPort } from './net.js';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface PreparedDatabase {
  /** DATABASE_URL or DATA_DIR for the server. */
  env: Record<string, string>;
  kind: 'postgres' | 'pglite';
  destroy(): Promise<void>;
}

/** A migrated database with the fixture in it, that a server process can open. */
export async function prepareDatabase(): Promise<PreparedDatabase> {
  if (onPostgres) {
    const { url, drop } = await createThrowawayPostgres();
    const handle = await openDatabase({ databaseUrl: url, poolMax: 2 });
    await migrateToLatest(handle.db);
    await insertFixture(handle.db);
    await handle.close();
    return { env: { DATABASE_URL: url }, kind: 'postgres', destroy: drop };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-pglite-'));
  const handle = await openDatabase({ dataDir: dir });
  await migrateToLatest(handle.db);
  await insertFixture(handle.db);
  await handle.close();
  return {
    env: { DATA_DIR: dir },
    kind: 'pglite',
    destroy: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  output(): string;
  /** Resolves with the exit code (or the signal name) once the process has ended. */
  exited: Promise<number | string | null>;
}

/** The entry point to run; ECS_SERVER_ENTRY lets one try a patched copy against these tests. */
const SERVER_ENTRY = process.env.ECS_SERVER_ENTRY ?? 'src/server.ts';

/** Starts `tsx src/server.ts` and resolves once it accepts connections. */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  // `node --import tsx` rather than the tsx wrapper: the signal goes straight to the server.
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_ENTRY], {
    cwd: projectRoot,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const failed = exited.then((code) => {
    throw new Error(`server exited (${code}) before listening:\n${out}`);
  });
  await Promise.race([waitForPort(port, 60_000), failed]);
  failed.catch(() => {});
  return { child, port, output: () => out, exited };
}
