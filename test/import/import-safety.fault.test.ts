/**
 * Import safety, with the real command line as a process:
 * - `kill -9` in the middle of a large import leaves every table exactly as before (row counts and
 *   a checksum of every row of every table);
 * - a second import while one runs fails at once with a clear message and exit status 1, and runs
 *   fine once the first is gone (PostgreSQL: the advisory lock).
 * On PostgreSQL (TEST_DATABASE_URL, or a private cluster when the binaries are there) and on the
 * embedded PGlite folder.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DbHandle } from '../../src/db/connect.js';
import type { Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrator.js';
import { IMPORT_LOCK_KEY } from '../../src/import/index.js';
import { copyMigratedDataDir, onPostgres } from '../helpers/db.js';
import { insertFixture, ORG_A, uid, WEBSITE_A1 } from '../helpers/fixtures.js';
import { createPostgresDatabase, pgClusterAvailable } from '../helpers/pg-cluster.js';
import { projectRoot, spawnCli } from '../helpers/processes.js';

/** Offers in the big bundle: more than one progress line (every 50,000 records) of the CLI. */
const BIG_OFFERS = 120_000;

/** Writes an NDJSON bundle that changes organization A and adds `offers` offers to it. */
function writeBigBundle(file: string, offers: number): void {
  const fd = fs.openSync(file, 'w');
  const write = (record: object) => fs.writeSync(fd, JSON.stringify(record) + '\n');
  write({ type: 'organization', organization_id: ORG_A, name: 'Renamed by the killed import' });
  write({ type: 'website', website_id: WEBSITE_A1, organization_id: ORG_A, name: 'renamed.example.com', api_keys: [] });
  let lines: string[] = [];
  for (let i = 1; i <= offers; i++) {
    lines.push(
      JSON.stringify({
        type: 'offer',
        offer_id: uid('b16b', i),
        organization_id: ORG_A,
        external_id: `BIG-${i}`,
        offer_data: { price: 100_000 + i, rooms: 1 + (i % 5), title: `Offer ${i}`, address_city: 'Kraków', offer_type: 'APARTMENT_SALES' },
      }),
    );
    if (lines.length === 5000) {
      fs.writeSync(fd, lines.join('\n') + '\n');
      lines = [];
    }
  }
  if (lines.length > 0) fs.writeSync(fd, lines.join('\n') + '\n');
  fs.closeSync(fd);
}

/** Row count and an md5 of every row (in a fixed order) of every table of the public schema. */
async function snapshot(db: Kysely<Database>): Promise<Record<string, string>> {
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const result: Record<string, string> = {};
  for (const { table_name } of tables.rows) {
    const row = await sql<{ n: string; digest: string | null }>`
      select count(*)::text as n, md5(coalesce(string_agg(t::text, E'\\n' order by t::text), '')) as digest
      from ${sql.table(table_name)} t`.execute(db);
    result[table_name] = `${row.rows[0]!.n} rows, md5 ${row.rows[0]!.digest}`;
  }
  return result;
}

/** Bytes in a folder and below. */
function folderBytes(folder: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    try {
      total += entry.isDirectory() ? folderBytes(full) : fs.statSync(full).size;
    } catch {
      // a file the database removed meanwhile
    }
  }
  return total;
}

/** Resolves once `predicate` holds, polling every 50 ms; rejects after timeoutMs. */
async function waitUntil(what: string, predicate: () => boolean | Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-import-'));
const bigFile = path.join(tmp, 'big.ndjson');
const smallFile = path.join(projectRoot, 'examples/bundle.ndjson');

beforeAll(() => {
  writeBigBundle(bigFile, BIG_OFFERS);
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const postgresAvailable = onPostgres || pgClusterAvailable();

describe.runIf(postgresAvailable)('import safety on PostgreSQL', () => {
  let url: string;
  let drop = async () => {};
  let handle: DbHandle;

  beforeAll(async () => {
    ({ url, drop } = await createPostgresDatabase('ecs_import'));
    handle = await openDatabase({ databaseUrl: url, poolMax: 2 });
    await migrateToLatest(handle.db);
    await insertFixture(handle.db);
  });
  afterAll(async () => {
    await handle?.close();
    await drop();
  });

  const importLockHeld = async () => {
    const result = await sql<{ n: number }>`
      select count(*)::int as n from pg_locks
      where locktype = 'advisory' and granted and objid = ${IMPORT_LOCK_KEY} and database = (select oid from pg_database where datname = current_database())`.execute(
      handle.db,
    );
    return result.rows[0]!.n > 0;
  };

  it('a second import fails clearly while one runs; kill -9 of the first leaves every table as it was', async () => {
    const before = await snapshot(handle.db);

    const first = spawnCli(['import', bigFile], { DATABASE_URL: url, LOG_LEVEL: 'silent' });
    // Well into the import: the lock is held and 50,000 records have been written (uncommitted).
    await waitUntil('the first import to hold the lock', importLockHeld);
    await waitUntil('50,000 records imported', () => /imported 50,000 records/.test(first.stderr()) || first.child.exitCode !== null);
    expect(first.child.exitCode, first.stderr()).toBeNull();

    const second = spawnCli(['import', smallFile, '--json'], { DATABASE_URL: url });
    const secondCode = await second.exited;
    expect(secondCode).toBe(1);
    expect(JSON.parse(second.stdout())).toEqual({ error: 'another import is running; try again when it has finished' });
    expect(second.stderr()).toContain('another import is running');
    expect(first.child.exitCode).toBeNull(); // still importing

    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    // The server notices the dead client, rolls its transaction back and drops the lock.
    await waitUntil('the import lock to be released', async () => !(await importLockHeld()), 60_000);

    const after = await snapshot(handle.db);
    console.log(`import kill -9 (postgres): tables ${JSON.stringify(after)}`);
    expect(after).toEqual(before);

    // Serialized cleanly: the next import runs and commits.
    const third = spawnCli(['import', smallFile, '--json'], { DATABASE_URL: url });
    expect(await third.exited, third.stderr()).toBe(0);
    expect(JSON.parse(third.stdout()).organizations).toBeDefined();
    expect(await snapshot(handle.db)).not.toEqual(before);
  });
});

describe('import safety on the embedded database (PGlite)', () => {
  it('kill -9 in the middle of a large import leaves every table as it was', async () => {
    const dataDir = path.join(tmp, 'pglite');
    copyMigratedDataDir(dataDir);
    const seed = await openDatabase({ dataDir });
    await migrateToLatest(seed.db);
    await insertFixture(seed.db);
    const before = await snapshot(seed.db);
    await seed.close();

    const bytesBefore = folderBytes(dataDir);
    const first = spawnCli(['import', bigFile], { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    // Well into the import: the embedded database has written 20 MB of it (uncommitted) to its folder.
    await waitUntil('the import to write 20 MB', () => folderBytes(dataDir) - bytesBefore > 20e6 || first.child.exitCode !== null);
    expect(first.child.exitCode, first.stderr()).toBeNull();
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    // The killed process leaves its lock behind (ecs.lock names it); the folder is untouched below.
    expect(fs.existsSync(path.join(dataDir, 'ecs.lock'))).toBe(true);

    const reopened = await openDatabase({ dataDir });
    try {
      const after = await snapshot(reopened.db);
      console.log(`import kill -9 (pglite): tables ${JSON.stringify(after)}`);
      expect(after).toEqual(before);
    } finally {
      await reopened.close();
    }
    // The next command takes the stale lock over and imports.
    const next = spawnCli(['import', smallFile, '--json'], { DATA_DIR: dataDir });
    expect(await next.exited, next.stderr()).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'ecs.lock'))).toBe(false);
  });
});
