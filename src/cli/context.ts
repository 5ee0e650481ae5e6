/**
 * What every command gets: where to write, the configuration, and the database (opened and
 * migrated first, so that a new empty database needs no separate step).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pingDatabase } from '../queries/health.js';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type DbHandle } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';

export interface Output {
  write(text: string): unknown;
  /** True on a terminal (progress bar instead of progress lines). */
  isTTY?: boolean;
}

export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: Output;
  stderr: Output;
  /**
   * An open database to use instead of the one the environment names (tests share theirs);
   * it is migrated but not closed.
   */
  database?: DbHandle;
}

/** A mistake the user can fix: printed as one line, exit status 1. */
export class CliUserError extends Error {}

/** PGlite leaves this file in its folder while a process has the database open. */
const PGLITE_LOCK_FILE = 'postmaster.pid';

function assertDataDirFree(dataDir: string): void {
  const lockFile = path.join(dataDir, PGLITE_LOCK_FILE);
  if (fs.existsSync(lockFile)) {
    throw new CliUserError(
      `the embedded database in ${dataDir} is in use (is the service running? stop it first); ` +
        `if nothing is running, a previous process stopped abruptly: remove ${lockFile} and try again`,
    );
  }
}

const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', 'ECONNRESET', 'EAI_AGAIN']);

/** Errors that mean "cannot reach or log in to the database" rather than a fault of ours. */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error instanceof Error && /timeout exceeded when trying to connect|Connection terminated/i.test(error.message);
  return CONNECTION_ERRORS.has(code) || code.startsWith('08') || code.startsWith('28') || code === '3D000';
}

/** An error's message; AggregateError (several addresses refused) has only a code. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return error.message || (typeof code === 'string' ? code : error.name);
}

export async function withDatabase<T>(io: CliIo, run: (db: DbHandle, config: Config) => Promise<T>): Promise<T> {
  const config = loadConfig(io.env);
  if (io.database) {
    await migrateToLatest(io.database.db);
    return run(io.database, config);
  }
  if (!config.databaseUrl) assertDataDirFree(config.dataDir);
  const handle = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    statementTimeoutMs: config.statementTimeoutMs,
    poolMax: 2,
  });
  try {
    try {
      await pingDatabase(handle.db);
    } catch (error) {
      if (isConnectionError(error)) {
        // The URL may hold a password: name the variable, not its value.
        throw new CliUserError(`cannot connect to the database named by DATABASE_URL: ${describeError(error)}`);
      }
      throw error;
    }
    await migrateToLatest(handle.db);
    return await run(handle, config);
  } finally {
    await handle.close();
  }
}
