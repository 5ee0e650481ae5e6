/**
 * Once per test run (vitest globalSetup):
 * - dist/ brought up to date with src/ (scripts/build-if-stale.mjs, a few milliseconds when it is):
 *   the tests that need real processes run the build, as `npm start` and `npm run cli` do
 *   (helpers/processes.ts);
 * - a migrated embedded database, in a folder and dumped to a file, from which every PGlite test
 *   database starts (helpers/db.ts): loading the dump or copying the folder takes a fraction of a
 *   second where creating and migrating a database takes several;
 * - with TEST_DATABASE_URL, a migrated template database on that server, which every test database
 *   there is created from (CREATE DATABASE … TEMPLATE), for the same reason.
 * Both are made here, by every run, and removed at its end: a fresh clone needs nothing prepared.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { createThrowawayPostgres } from './helpers/db.js';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

function buildIfStale(): void {
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: projectRoot, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`building dist/ for the process tests failed:\n${build.stderr}`);
}

/** Makes the migrated template database on the TEST_DATABASE_URL server; returns its name and a dropper. */
async function migratedPostgresTemplate(): Promise<{ name: string; drop: () => Promise<void> }> {
  const created = await createThrowawayPostgres();
  const handle = await openDatabase({ databaseUrl: created.url, poolMax: 1 });
  await migrateToLatest(handle.db);
  // No session may stay connected to a template while databases are created from it.
  await handle.close();
  return { name: new URL(created.url).pathname.slice(1), drop: created.drop };
}

export default async function setup(): Promise<() => Promise<void>> {
  buildIfStale();
  const postgresTemplate = process.env.TEST_DATABASE_URL ? await migratedPostgresTemplate() : undefined;
  if (postgresTemplate) process.env.ECS_TEST_PG_TEMPLATE = postgresTemplate.name;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-test-template-'));
  const dataDir = path.join(dir, 'data');
  const file = path.join(dir, 'migrated.tar');
  const client = await PGlite.create(dataDir);
  const db = new Kysely<unknown>({ dialect: new PGliteDialect(client) });
  await migrateToLatest(db as never);
  const dump = await client.dumpDataDir('none');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await db.destroy();
  // Test files run in processes forked after this: they inherit the variables.
  process.env.ECS_TEST_PGLITE_TEMPLATE = file;
  process.env.ECS_TEST_PGLITE_TEMPLATE_DIR = dataDir;
  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await postgresTemplate?.drop();
  };
}
