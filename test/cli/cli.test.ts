import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/features/access/model.js';
import { createProgress } from '../../src/cli/progress.js';
import { runCli, type CliIo } from '../../src/cli/run.js';
import { copyMigratedDataDir, createTestDb, type TestDb } from '../helpers/db.js';
import { offer, resetDatabase, tmpFile } from '../import/helpers.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.destroy());
beforeEach(() => resetDatabase(t.db));

const EXAMPLE_WEBSITE = '0b6f8a2e-51c4-4f7e-8a3d-9c2e1f4b7d02';

class Capture {
  text = '';
  isTTY = false;
  write(chunk: string) {
    this.text += chunk;
    return true;
  }
}

/** Runs the command line in-process on the test database. */
async function cli(args: string[], env: NodeJS.ProcessEnv = {}, database: CliIo['database'] | null = t) {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await runCli(args, { env, stdout, stderr, ...(database ? { database } : {}) });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('import', () => {
  it('--json prints the counts per kind and nothing else', async () => {
    const r = await cli(['import', 'examples/bundle.json', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout);
    expect(doc.offers).toEqual({ created: 5, changed: 0, unchanged: 0, pruned: 0 });
    expect(doc.organizations).toEqual({ created: 1, changed: 0, unchanged: 0 });
    expect(Object.keys(doc)).toEqual(['organizations', 'websites', 'api_keys', 'branches', 'agents', 'investments', 'offers', 'records', 'content_version', 'scope_changes']);
  });

  it('prints a table for people', async () => {
    const r = await cli(['import', 'examples/bundle.ndjson', '--prune']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Imported examples\/bundle\.ndjson: 14 records in \d+\.\d s\n/);
    expect(r.stdout).toMatch(/ {2}offers +5 +0 +0\n/);
    expect(r.stdout).toContain('offers made inactive by --prune: 0');
    expect(r.stdout).toContain('Content version is now 2.');
    expect((await cli(['import', 'examples/bundle.ndjson'])).stdout).toContain('Nothing changed (content version stays 2).');
    const one = tmpFile('one.json', JSON.stringify({ organizations: [{ organization_id: randomUUID(), name: 'One' }] }));
    expect((await cli(['import', one])).stdout).toMatch(/^Imported .*one\.json: 1 record in \d+\.\d s\n/);
  });

  it('lists the problems of a bad bundle on stderr and exits 1', async () => {
    const org = randomUUID();
    const lines = [JSON.stringify({ type: 'organization', organization_id: org, name: 'A' })];
    for (let n = 0; n < 60; n += 1) lines.push(JSON.stringify({ type: 'offer', ...offer(randomUUID(), org, n), external_id: 7 }));
    const file = tmpFile('bad.ndjson', lines.join('\n'));
    const r = await cli(['import', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const errLines = r.stderr.trimEnd().split('\n');
    expect(errLines[0]).toBe('record 2 external_id: expected string, got number 7');
    expect(errLines).toHaveLength(52);
    expect(errLines[50]).toBe('… and 10 more');
    expect(errLines[51]).toBe('error: import rejected: 60 problems found; the database was not changed');
    expect(r.stderr).not.toMatch(/\n\s+at /);

    const json = await cli(['import', file, '--json']);
    expect(json.code).toBe(1);
    expect(json.stderr).toBe('error: import rejected: 60 problems found; the database was not changed\n');
    const doc = JSON.parse(json.stdout);
    expect(doc.problem_count).toBe(60);
    expect(doc.problems[0]).toEqual({ record: 2, path: 'external_id', message: 'expected string, got number 7' });
  });

  it('says in one line what is wrong with the file', async () => {
    const r = await cli(['import', '/nonexistent/feed.json']);
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'error: /nonexistent/feed.json: no such file\n' });
    const json = await cli(['import', '/nonexistent/feed.json', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ error: '/nonexistent/feed.json: no such file' });
  });
});

describe('keys', () => {
  it('create prints a working key once; list never prints secrets', async () => {
    await cli(['import', 'examples/bundle.json']);
    const created = await cli(['keys', 'create', '--website', EXAMPLE_WEBSITE, '--label', 'ci', '--json']);
    expect(created.code).toBe(0);
    const doc = JSON.parse(created.stdout);
    expect(Object.keys(doc)).toEqual(['key_id', 'key', 'website_id']);
    expect(doc.website_id).toBe(EXAMPLE_WEBSITE);
    const row = await t.db.selectFrom('api_keys').selectAll().where('key_id', '=', doc.key_id).executeTakeFirstOrThrow();
    expect(row.key_sha256).toBe(hashKey(doc.key));

    const human = await cli(['keys', 'create', '--website', EXAMPLE_WEBSITE, '--expires-at', '2099-01-01T00:00:00Z']);
    const key = /\n {2}(ecs_\S+)\n/.exec(human.stdout)![1]!;
    expect(human.stdout.split(key)).toHaveLength(2); // printed exactly once

    for (const args of [['keys', 'list', '--json'], ['keys', 'list'], ['keys', 'list', '--website', EXAMPLE_WEBSITE, '--json']]) {
      const listed = await cli(args);
      expect(listed.code).toBe(0);
      for (const secret of [doc.key, key, hashKey(doc.key), hashKey(key)]) expect(listed.stdout).not.toContain(secret);
    }
    const list = JSON.parse((await cli(['keys', 'list', '--json'])).stdout) as Array<Record<string, unknown>>;
    expect(list).toHaveLength(3); // the example's imported key and the two new ones
    for (const entry of list) {
      for (const field of ['key_id', 'website_id', 'label', 'is_active', 'expires_at', 'created_at']) expect(entry).toHaveProperty(field);
    }
    expect(list.find((k) => k.key_id === doc.key_id)).toMatchObject({ label: 'ci', is_active: true, status: 'active', key_prefix: doc.key.slice(0, 12) });
    expect((await cli(['keys', 'list'])).stdout).toMatch(/KEY ID +WEBSITE +PREFIX +STATUS/);
  });

  it('deactivate and activate', async () => {
    await cli(['import', 'examples/bundle.json']);
    const { key_id } = JSON.parse((await cli(['keys', 'create', '--website', EXAMPLE_WEBSITE, '--json'])).stdout);
    const off = await cli(['keys', 'deactivate', key_id, '--json']);
    expect(JSON.parse(off.stdout)).toEqual({ key_id, website_id: EXAMPLE_WEBSITE, is_active: false, changed: true });
    expect((await cli(['keys', 'deactivate', key_id])).stdout).toBe(`Key ${key_id} was already inactive.\n`);
    expect((await cli(['keys', 'activate', key_id])).stdout).toBe(`Key ${key_id} is now active.\n`);
    const unknown = randomUUID();
    expect(await cli(['keys', 'activate', unknown])).toEqual({ code: 1, stdout: '', stderr: `error: unknown key ${unknown}\n` });
  });

  it('refuses an unknown website and a bad date in one line', async () => {
    const unknown = randomUUID();
    expect(await cli(['keys', 'create', '--website', unknown])).toEqual({ code: 1, stdout: '', stderr: `error: unknown website ${unknown}\n` });
    const r = await cli(['keys', 'create', '--website', unknown, '--expires-at', 'soon', '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatch(/^expires-at must be an RFC 3339 date-time/);
  });
});

describe('demo and migrate', () => {
  it('demo --json prints a key for the demo website', async () => {
    const r = await cli(['demo', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['key_id', 'key', 'website_id']);
    const row = await t.db.selectFrom('api_keys').selectAll().where('key_id', '=', doc.key_id).executeTakeFirstOrThrow();
    expect(row.key_sha256).toBe(hashKey(doc.key));
    expect(row.website_id).toBe(doc.website_id);
  });

  it('migrate brings the schema up to date', async () => {
    const r = await cli(['migrate', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ status: 'up to date', database: t.kind });
  });
});

describe('usage and environment', () => {
  it('exits 2 on wrong usage, with commander\'s one-line message', async () => {
    for (const args of [['bogus'], ['keys', 'create'], ['import'], ['import', 'a.json', '--frobnicate'], ['import', 'a', '--format', 'xml'], ['keys']]) {
      const r = await cli(args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect((await cli(['bogus'])).stderr).toBe("error: unknown command 'bogus'\n");
  });

  it('prints help with status 0', async () => {
    const r = await cli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('import [options] <file>');
    expect(r.stdout).toContain('keys');
  });

  it('reports a configuration mistake and an unreachable database in one line', async () => {
    const bad = await cli(['migrate'], { DATABASE_URL: 'mysql://localhost/x' }, null);
    expect(bad).toEqual({ code: 1, stdout: '', stderr: 'error: DATABASE_URL must start with postgres:// or postgresql://\n' });
    const down = await cli(['keys', 'list', '--json'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' }, null);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^error: cannot connect to the database named by DATABASE_URL: .+\n$/);
    expect(JSON.parse(down.stdout).error).toMatch(/^cannot connect/);
  });

  it('says so, naming the process, when another process holds the embedded database', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-cli-held-'));
    // The lock of a live process (vitest's own), as a command line under way leaves it.
    const owner = { pid: process.ppid, started: null, role: 'command line', doing: 'import big.ndjson', since: '2026-11-24T10:00:00.000Z', host: os.hostname(), token: 'x' };
    fs.writeFileSync(path.join(dataDir, 'ecs.lock'), JSON.stringify(owner));
    const r = await cli(['keys', 'list'], { DATA_DIR: dataDir }, null);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`^error: the embedded database in .* is in use by the command line \\(process ${process.ppid}, import big\\.ndjson, since .*\\); wait until it has finished\n$`),
    );
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('opens a folder that PGlite left a postmaster.pid in (PGlite does not lock; our own lock does)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-cli-stale-'));
    // A migrated folder (as a service that ran leaves it), not an empty one: creating and migrating
    // a database in it would take most of this test's time and is not what it is about.
    copyMigratedDataDir(dataDir);
    fs.writeFileSync(path.join(dataDir, 'postmaster.pid'), '-42\n');
    const r = await cli(['keys', 'list', '--json'], { DATA_DIR: dataDir }, null);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'ecs.lock'))).toBe(false);
  });
});

describe('progress display', () => {
  const progress = (records: number, phase: 'reading' | 'rereading' = 'reading') => ({ phase, records, bytesRead: 0, totalBytes: 100 });

  it('prints a line every 50,000 records when stderr is not a terminal', () => {
    const err = new Capture();
    const display = createProgress(err, { quiet: false });
    for (let n = 1000; n <= 120_000; n += 1000) display.update(progress(n));
    display.stop();
    expect(err.text).toBe('imported 50,000 records…\nimported 100,000 records…\n');
  });

  it('prints nothing with --json', () => {
    const err = new Capture();
    const display = createProgress(err, { quiet: true });
    display.update(progress(100_000));
    expect(err.text).toBe('');
  });
});
