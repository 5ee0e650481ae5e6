/**
 * One place that reads the environment. The server and the command line both call loadConfig(),
 * so they always agree on which database they use.
 */
import path from 'node:path';

export interface Config {
  /** postgres://... for a PostgreSQL server; undefined means embedded PGlite in dataDir. */
  readonly databaseUrl: string | undefined;
  /** Folder of the embedded database (used only without databaseUrl). */
  readonly dataDir: string;
  readonly port: number;
  readonly host: string;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Largest accepted request body, in bytes. */
  readonly bodyLimit: number;
  /** How long a looked-up API key is trusted before it is read again (contract: at most 5 s). */
  readonly keyCacheTtlMs: number;
  /** Per-statement timeout on the server database, in milliseconds. */
  readonly statementTimeoutMs: number;
  /** Largest number of pooled connections to a PostgreSQL server. */
  readonly poolMax: number;
}

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const logLevel = (env.LOG_LEVEL?.trim() || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }
  return Object.freeze({
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR?.trim() || './data'),
    port: int(env, 'PORT', 8000, 0, 65535),
    host: env.HOST?.trim() || '127.0.0.1',
    logLevel,
    bodyLimit: int(env, 'BODY_LIMIT', 1024 * 1024, 1024, 64 * 1024 * 1024),
    keyCacheTtlMs: int(env, 'KEY_CACHE_TTL_MS', 2000, 0, 5000),
    statementTimeoutMs: int(env, 'DB_STATEMENT_TIMEOUT_MS', 5000, 100, 600_000),
    poolMax: int(env, 'DB_POOL_MAX', 10, 1, 1000),
  });
}
