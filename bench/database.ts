/**
 * The benchmark's throwaway database: created on the server that DATABASE_URL names (or the local
 * server), with a unique name, and dropped at the end of the run whatever happens.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface ThrowawayDatabase {
  readonly name: string;
  /** postgres://... of the new database. */
  readonly url: string;
  /** "PostgreSQL 15.20 (Debian ...)" of the server. */
  readonly serverVersion: string;
  drop(): Promise<void>;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The URL with its password hidden, for messages and the report. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

export async function createThrowawayDatabase(serverUrl: string): Promise<ThrowawayDatabase> {
  const name = `ecs_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const serverVersion = await withClient(serverUrl, async (client) => {
    const version = await client.query<{ version: string }>('SELECT version()');
    await client.query(`CREATE DATABASE ${name}`);
    return version.rows[0]!.version;
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    name,
    url: url.toString(),
    serverVersion,
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/** Table and index sizes after the import, for the report. */
export interface DatabaseFacts {
  readonly databaseSize: string;
  readonly offersSize: string;
  /** Whether the planner has statistics for offers (ANALYZE by the import or by autovacuum). */
  readonly offersAnalyzed: 'by ANALYZE' | 'by autovacuum' | 'no';
}

/** Sizes after the import and whether the offers table has planner statistics. */
export async function databaseFacts(url: string): Promise<DatabaseFacts> {
  return withClient(url, async (client) => {
    const result = await client.query<{ database: string; offers: string; last_analyze: string | null; last_autoanalyze: string | null }>(
      `SELECT pg_size_pretty(pg_database_size(current_database())) AS database,
              pg_size_pretty(pg_total_relation_size('offers')) AS offers,
              s.last_analyze::text AS last_analyze, s.last_autoanalyze::text AS last_autoanalyze
         FROM pg_stat_user_tables s WHERE s.relname = 'offers'`,
    );
    const row = result.rows[0];
    return {
      databaseSize: row?.database ?? '?',
      offersSize: row?.offers ?? '?',
      offersAnalyzed: row?.last_analyze ? 'by ANALYZE' : row?.last_autoanalyze ? 'by autovacuum' : 'no',
    };
  });
}

/** Offers in the database (active ones too), to check that the import loaded everything. */
export async function countOffers(url: string): Promise<{ total: number; active: number }> {
  return withClient(url, async (client) => {
    const result = await client.query<{ total: string; active: string }>(
      'SELECT count(*)::text AS total, count(*) FILTER (WHERE is_active)::text AS active FROM offers',
    );
    return { total: Number(result.rows[0]!.total), active: Number(result.rows[0]!.active) };
  });
}
