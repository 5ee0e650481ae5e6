/**
 * Once per test run (vitest globalSetup): a migrated embedded database, dumped to a file, from
 * which every PGlite test database starts (helpers/db.ts). Loading it takes a fraction of a second
 * where creating and migrating a database takes two.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { migrateToLatest } from '../src/db/migrate.js';

export default async function setup(): Promise<() => void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-test-template-'));
  const file = path.join(dir, 'migrated.tar');
  const client = await PGlite.create('memory://');
  const db = new Kysely<unknown>({ dialect: new PGliteDialect(client) });
  await migrateToLatest(db as never);
  const dump = await client.dumpDataDir('none');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await db.destroy();
  // Test files run in processes forked after this: they inherit the variable.
  process.env.ECS_TEST_PGLITE_TEMPLATE = file;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
