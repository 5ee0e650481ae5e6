/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a throwaway
 * database created on the server named by TEST_DATABASE_URL (and dropped afterwards). It is
 * destroyed after the test file (helpers/teardown.ts), or earlier by destroy().
 *
 *   const t = await createTestDb();
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { openDatabase, type DbHandle } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { closeAfterFile } from './teardown.js';

export interface TestDb extends DbHandle {
  /** postgres://... of the throwaway database, undefined on PGlite. */
  readonly url: string | undefined;
  destroy(): Promise<void>;
}

export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * Creates a database on the TEST_DATABASE_URL server and returns its URL and a dropper: empty, or
 * (`migrated`) a copy of the migrated template database that test/global-setup.ts made, which
 * takes a fraction of the time that running every migration does.
 */
export async function createThrowawayPostgres(options: { migrated?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `ecs_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const template = options.migrated ? process.env.ECS_TEST_PG_TEMPLATE : undefined;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
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

/** The migrated embedded database that test/global-setup.ts dumped, if there is one. */
function migratedTemplate(): Blob | undefined {
  const file = process.env.ECS_TEST_PGLITE_TEMPLATE;
  return file && fs.existsSync(file) ? new Blob([fs.readFileSync(file)]) : undefined;
}

/**
 * Fills the new folder `dataDir` with the migrated embedded database that test/global-setup.ts
 * made, and says whether it could (else the folder is left alone: migrate it yourself).
 */
export function copyMigratedDataDir(dataDir: string): boolean {
  const template = process.env.ECS_TEST_PGLITE_TEMPLATE_DIR;
  if (!template || !fs.existsSync(template)) return false;
  fs.cpSync(template, dataDir, { recursive: true });
  return true;
}

export async function createTestDb(options: { migrate?: boolean } = {}): Promise<TestDb> {
  let handle: DbHandle;
  let url: string | undefined;
  let drop = async () => {};
  if (onPostgres) {
    const created = await createThrowawayPostgres({ migrated: options.migrate !== false });
    url = created.url;
    drop = created.drop;
    handle = await openDatabase({ databaseUrl: url, poolMax: 5 });
  } else {
    handle = await openDatabase({ pgliteTemplate: options.migrate === false ? undefined : migratedTemplate() });
  }
  if (options.migrate !== false) await migrateToLatest(handle.db);
  let destroyed = false;
  const destroy = async () => {
    if (destroyed) return;
    destroyed = true;
    await handle.close();
    await drop();
  };
  closeAfterFile(destroy);
  return { ...handle, url, destroy };
}
