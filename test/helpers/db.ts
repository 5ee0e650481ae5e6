/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a throwaway
 * database created on the server named by TEST_DATABASE_URL (and dropped afterwards).
 *
 *   const t = await createTestDb();
 *   afterAll(() => t.destroy());
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DbHandle } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';

export interface TestDb extends DbHandle {
  /** postgres://... of the throwaway database, undefined on PGlite. */
  readonly url: string | undefined;
  destroy(): Promise<void>;
}

export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** Creates an empty database on the TEST_DATABASE_URL server and returns its URL and a dropper. */
export async function createThrowawayPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `ecs_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function createTestDb(options: { migrate?: boolean } = {}): Promise<TestDb> {
  let handle: DbHandle;
  let url: string | undefined;
  let drop = async () => {};
  if (onPostgres) {
    const created = await createThrowawayPostgres();
    url = created.url;
    drop = created.drop;
    handle = await openDatabase({ databaseUrl: url, poolMax: 5 });
  } else {
    handle = await openDatabase({});
  }
  if (options.migrate !== false) await migrateToLatest(handle.db);
  let destroyed = false;
  return {
    ...handle,
    url,
    destroy: async () => {
      if (destroyed) return;
      destroyed = true;
      await handle.close();
      await drop();
    },
  };
}
