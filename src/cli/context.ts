/**
 * What every command gets: where to write, the configuration, and the database (opened and
 * migrated first, so that a new empty database needs no separate step).
 */
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type DbHandle } from '../db/connect.js';
import { DataDirBusyError, lockDataDir, type DataDirLock } from '../db/data-dir-lock.js';
import { migrateToLatest } from '../db/migrator.js';
import { pingDatabase } from '../db/health.js';

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
  /** The command being run ("keys list"), for the embedded database's lock; set by runCli. */
  command?: string;
  /** Where relative file names are read from (default: this process's working directory). */
  cwd?: string;
}

/** A mistake the user can fix: printed as one line, exit status 1. */
export class CliUserError extends Error {}

/** The embedded database's folder for this command alone (src/db/data-dir-lock.ts). */
function lockEmbeddedDatabase(dataDir: string, command: string | undefined): DataDirLock {
  try {
    return lockDataDir(dataDir, { role: 'command line', doing: command ?? 'a command' });
  } catch (error) {
    if (error instanceof DataDirBusyError) throw new CliUserError(error.message);
    throw error;
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
  const lock = config.databaseUrl ? undefined : lockEmbeddedDatabase(config.dataDir, io.command);
  try {
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
  } finally {
    lock?.release();
  }
}
