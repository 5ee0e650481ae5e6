/**
 * The command line as users run it: a separate process, configured by the environment only
 * (DATABASE_URL on PostgreSQL, DATA_DIR for the embedded database); the documented `npm run`
 * form of --json; a reader that closes the pipe early.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';
import { hashKey } from '../../src/features/access/model.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { createTestDb, onPostgres, type TestDb } from '../helpers/db.js';
import { projectRoot, runCliProcess, runShell } from '../helpers/processes.js';
import { tmpFile } from '../import/helpers.js';

const EXAMPLE_WEBSITE = '0b6f8a2e-51c4-4f7e-8a3d-9c2e1f4b7d02';
let t: TestDb | undefined;
/** Over the environment of the tests: only the database of this file. */
const env: Record<string, string | undefined> = { DATABASE_URL: undefined, DATA_DIR: undefined };
let dataDir: string | undefined;

beforeAll(async () => {
  if (onPostgres) {
    t = await createTestDb({ migrate: false }); // the command line migrates it
    env.DATABASE_URL = t.url;
  } else {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-cli-'));
    env.DATA_DIR = path.join(dataDir, 'data');
  }
});
afterAll(async () => {
  await t?.destroy();
});

/** The command line in a process of its own, with this file's environment (and no other database). */
const run = (args: string[]) => runCliProcess(args, env);

describe('command line in a process of its own', () => {
  it('migrates a new database, imports, creates and lists keys, fails cleanly', async () => {
    const migrated = await run(['migrate', '--json']);
    expect(migrated).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(migrated.stdout).status).toBe('up to date');

    const imported = await run(['import', 'examples/bundle.ndjson', '--json']);
    expect(imported.code).toBe(0);
    expect(imported.stderr).toBe('');
    expect(JSON.parse(imported.stdout).offers).toEqual({ created: 5, changed: 0, unchanged: 0, pruned: 0 });

    const created = await run(['keys', 'create', '--website', EXAMPLE_WEBSITE, '--json']);
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout) as { key_id: string; key: string; website_id: string };
    expect(key.website_id).toBe(EXAMPLE_WEBSITE);

    const listed = await run(['keys', 'list', '--json']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(key.key);
    expect(listed.stdout).not.toContain(hashKey(key.key));
    expect((JSON.parse(listed.stdout) as Array<{ key_id: string }>).map((k) => k.key_id)).toContain(key.key_id);

    const bad = await run(['import', tmpFile('bad.json', '{"offers": [{"offer_id": 1}]}')]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('record 1 offers[0].offer_id: expected string, got number 1\n');
    expect(bad.stderr).toMatch(/error: import rejected: \d+ problems found; the database was not changed\n$/);
    expect(bad.stderr).not.toMatch(/\n\s+at /);

    expect((await run(['keys', 'frobnicate'])).code).toBe(2);

    // The stored key is the hash of the printed one.
    const handle = t ?? (await openDatabase({ dataDir: env.DATA_DIR }));
    try {
      const row = await handle.db.selectFrom('api_keys').selectAll().where('key_id', '=', key.key_id).executeTakeFirstOrThrow();
      expect(row.key_sha256).toBe(hashKey(key.key));
    } finally {
      if (!t) await handle.close();
    }
    // Six processes, each loading the command line and opening the database (on PGlite, its
    // WebAssembly build and data directory): under a loaded machine more than the default minute.
  }, 180_000);

  it('the documented --json command line (docs/import.md, through npm) prints exactly one JSON document', async () => {
    const docs = fs.readFileSync(path.join(projectRoot, 'docs/import.md'), 'utf8');
    const documented = docs.split('\n').find((line) => /^npm run .*\bcli -- keys list --json/.test(line));
    expect(documented, 'docs/import.md shows keys list --json').toBeDefined();
    // What the line pipes into (jq) is the reader; stdout up to the pipe must be the document alone.
    const command = documented!.split('|')[0]!.trim();
    const r = await runShell(command, env);
    expect(r.code, r.stderr).toBe(0);
    expect(() => JSON.parse(r.stdout), r.stdout.slice(0, 200)).not.toThrow();
    expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
  });

  it('exits quietly, with its own status, when the reader closes the pipe early (| head -c 10)', async () => {
    // More than a pipe's buffer (64 KiB) of --json output, so that writes meet the closed pipe.
    const org = randomUUID();
    const keys = Array.from({ length: 1500 }, (_, n) => ({ key_sha256: randomBytes(32).toString('hex'), is_active: true, label: `key ${n}` }));
    const bundle = { organizations: [{ organization_id: org, name: 'Many keys' }], websites: [{ website_id: randomUUID(), organization_id: org, name: 'many.example', api_keys: keys }] };
    expect((await run(['import', tmpFile('many-keys.json', JSON.stringify(bundle))])).code).toBe(0);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-epipe-'));
    const errFile = path.join(dir, 'stderr');
    const statusFile = path.join(dir, 'status');
    for (const args of ['keys list --json', 'keys list']) {
      const r = await runShell(`{ node dist/cli/index.js ${args} 2>'${errFile}'; echo $? >'${statusFile}'; } | head -c 10`, env);
      expect(r.code).toBe(0);
      expect(r.stdout).toHaveLength(10);
      expect(fs.readFileSync(errFile, 'utf8'), args).toBe('');
      expect(fs.readFileSync(statusFile, 'utf8').trim(), args).toBe('0');
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
