/**
 * The service and the command line as real processes, for the tests that need them (signals,
 * kill -9, first start, output):
 * - prepareDatabase(): a database a process can open, with the HTTP test fixture in it: a
 *   throwaway PostgreSQL database when TEST_DATABASE_URL is set, an embedded PGlite folder otherwise
 *   (seedDataDir(): such a folder where the test says);
 * - startServer(): the server (`dist/server.js`) in a process of its own, resolved once it listens;
 * - spawnCli() / runCliProcess(): the command line (`dist/cli/index.js`) in a process of its own;
 * - runShell(): a shell command line as a user types it (npm run, pipelines).
 * The processes run the build, as `npm start` and `npm run cli` do: test/global-setup.ts brings
 * dist/ up to date with src/ once per run. Through tsx, each process spent about two seconds of CPU
 * compiling before it started, and these tests start about a hundred.
 * Every process is killed after the test file if it is still running (helpers/teardown.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { copyMigratedDataDir, createThrowawayPostgres, onPostgres } from './db.js';
import { insertFixture } from './fixtures.js';
import { freePort, waitForPort } from './net.js';
import { closeAfterFile } from './teardown.js';

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
    const { url, drop } = await createThrowawayPostgres({ migrated: true });
    const handle = await openDatabase({ databaseUrl: url, poolMax: 2 });
    await migrateToLatest(handle.db);
    await insertFixture(handle.db);
    await handle.close();
    return { env: { DATABASE_URL: url }, kind: 'postgres', destroy: drop };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-pglite-'));
  await seedDataDir(dir);
  return {
    env: { DATA_DIR: dir },
    kind: 'pglite',
    destroy: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Fills the new folder `dataDir` with a migrated embedded database holding the HTTP test fixture:
 * what a service that has run leaves behind, without the first start's migrations and demo, which
 * take several seconds of CPU.
 */
export async function seedDataDir(dataDir: string): Promise<void> {
  copyMigratedDataDir(dataDir);
  const handle = await openDatabase({ dataDir });
  await migrateToLatest(handle.db); // nothing left to do after the copy
  await insertFixture(handle.db);
  await handle.close();
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  output(): string;
  /** Resolves with the exit code (or the signal name) once the process has ended. */
  exited: Promise<number | string | null>;
}

/**
 * `node` and its arguments for the server: dist/server.js, or ECS_SERVER_ENTRY (through tsx when it
 * is TypeScript), which lets one try a patched copy against these tests.
 */
function serverCommand(): string[] {
  const entry = process.env.ECS_SERVER_ENTRY;
  if (entry === undefined || entry === '') return ['dist/server.js'];
  return entry.endsWith('.ts') ? ['--import', 'tsx', entry] : [entry];
}

/** Environment of a child process: ours with `env` over it; an undefined value removes a variable. */
function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete merged[name];
  return merged;
}

/** Kills `child` after the test file unless it has ended by then. */
function killAfterFile(child: ChildProcess): void {
  closeAfterFile(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
}

/**
 * Starts the server (`dist/server.js`; PORT: a free one, HOST 127.0.0.1, LOG_LEVEL warn unless `env` says
 * otherwise) and resolves once it accepts connections.
 */
export async function startServer(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const port = Number(env.PORT ?? (await freePort()));
  // node itself (no wrapper in between): the signal goes straight to the server.
  const child = spawn(process.execPath, serverCommand(), {
    cwd: projectRoot,
    env: childEnv({ HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killAfterFile(child);
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

/** Sends SIGTERM and resolves with the exit code (or the signal name). */
export async function stopServer(server: ServerProcess): Promise<number | string | null> {
  server.child.kill('SIGTERM');
  return server.exited;
}

export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal name) once the process has ended. */
  exited: Promise<number | string | null>;
}

/** Runs `dist/cli/index.js ARGS` in a process of its own (environment: ours with `env` over it). */
export function spawnCli(args: readonly string[], env: Record<string, string | undefined>): CliProcess {
  const child = spawn(process.execPath, ['dist/cli/index.js', ...args], {
    cwd: projectRoot,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  killAfterFile(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | string | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/**
 * Runs a shell command line (`sh -c`) from the project root to its end, as a user types it
 * (`npm run -s cli -- …`, a pipeline): its exit code and everything it printed.
 */
export async function runShell(command: string, env: Record<string, string | undefined>): Promise<{ code: number | string | null; stdout: string; stderr: string }> {
  const child = spawn('sh', ['-c', command], { cwd: projectRoot, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  killAfterFile(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | string | null>((resolve) => child.once('close', (c, signal) => resolve(c ?? signal)));
  return { code, stdout: out, stderr: err };
}

/** Runs the command line to its end: its exit code and everything it printed. */
export async function runCliProcess(args: readonly string[], env: Record<string, string | undefined>): Promise<{ code: number | string | null; stdout: string; stderr: string }> {
  const run = spawnCli(args, env);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}
