/**
 * Opens the database the configuration names: a PostgreSQL server when DATABASE_URL is set,
 * otherwise an embedded PGlite in DATA_DIR (or in memory, for tests). Both speak the same SQL and
 * hand timestamps back as text in UTC, so the rest of the code cannot tell them apart.
 */
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import type { Database } from './database.js';
import { preparedName } from './prepared.js';

export type DbKind = 'postgres' | 'pglite';

export interface DbHandle {
  readonly db: Kysely<Database>;
  readonly kind: DbKind;
  /** Closes the pool or the embedded database. */
  close(): Promise<void>;
  /** The pool's connections right now (PostgreSQL); absent for PGlite, one in-process connection without a pool. */
  poolUsage?(): PoolUsage;
}

export interface PoolUsage {
  /** Open connections, busy and idle (pg.Pool totalCount). */
  readonly total: number;
  readonly idle: number;
  /** Queries waiting for a connection. */
  readonly waiting: number;
  readonly max: number;
}

export interface DbOptions {
  /** postgres://...; undefined means PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite folder; undefined means an in-memory PGlite (tests). */
  dataDir?: string | undefined;
  /** An in-memory PGlite starts from this dumped data folder (tests: one migrated copy for all). */
  pgliteTemplate?: Blob | undefined;
  statementTimeoutMs?: number;
  poolMax?: number;
  /** How long a request may wait for a pooled connection before failing. */
  connectionTimeoutMs?: number;
}

const TIMESTAMPTZ_OID = 1184;
const TIMESTAMP_OID = 1114;
const INT8_OID = 20;
const asText = (value: string): string => value;

export async function openDatabase(options: DbOptions): Promise<DbHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  return openPglite(options.dataDir, options.pgliteTemplate);
}

/** pg's Client, sending queries marked with prepared() as named statements (see src/db/prepared.ts). */
class PreparingClient extends pg.Client {
  // pg's query() has many overloads; Kysely calls query(text, values).
  override query(config: unknown, values?: unknown, callback?: unknown): any {
    if (typeof config === 'string' && Array.isArray(values)) {
      const name = preparedName(config);
      if (name !== undefined) return (super.query as any)({ name, text: config, values }, callback);
    }
    return (super.query as any)(config, values, callback);
  }
}

function openPostgres(url: string, options: DbOptions): DbHandle {
  const timeout = options.statementTimeoutMs ?? 5000;
  const pool = new pg.Pool({
    Client: PreparingClient,
    connectionString: url,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5000,
    // Every session speaks UTC and gives up on a statement that runs too long.
    options: `-c TimeZone=UTC -c statement_timeout=${timeout}`,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === TIMESTAMPTZ_OID || oid === TIMESTAMP_OID || oid === INT8_OID
          ? asText
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  // A checked-out client has no pool listener: a connection lost between two queries would be an
  // uncaught 'error' event and end the process. The query in flight still fails; the pool drops the client.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const max = options.poolMax ?? 10;
  return {
    db,
    kind: 'postgres',
    close: () => db.destroy(),
    poolUsage: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
  };
}

async function openPglite(dataDir: string | undefined, template: Blob | undefined): Promise<DbHandle> {
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir ?? 'memory://', {
    parsers: { [TIMESTAMPTZ_OID]: asText, [TIMESTAMP_OID]: asText, [INT8_OID]: asText },
    ...(template && !dataDir ? { loadDataDir: template } : {}),
  });
  await client.exec(`SET TIME ZONE 'UTC'`);
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  return { db, kind: 'pglite', close: () => db.destroy() };
}
