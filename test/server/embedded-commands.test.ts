/**
 * The command line while the embedded service runs: the service owns DATA_DIR, so `import` and
 * `keys` are run by the service itself over its control socket, with the same output and exit
 * status, and the next request sees the change at once (no poll interval in between).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyMigratedDataDir } from '../helpers/db.js';
import { runCliProcess, startServer, stopServer, type ServerProcess } from '../helpers/processes.js';
import { scaled } from '../helpers/scale.js';
import { EXAMPLE_OFFER, EXAMPLE_WEBSITE, exampleBundleWithPrice } from '../helpers/example-bundle.js';


const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-embedded-cli-'));
const dataDir = path.join(tmp, 'data');
const env = { DATA_DIR: dataDir, DATABASE_URL: undefined };
/** Imports after the first, each a command line process of its own. */
const ROUNDS = scaled('EMBEDDED_IMPORT_ROUNDS', 2, 5);
let server: ServerProcess;

beforeAll(async () => {
  // A migrated folder rather than an empty one: a first start would load the demo, which takes
  // long and which this test does not use.
  copyMigratedDataDir(dataDir);
  // The response cache on and a long poll interval: only the command's own refresh can make a change visible at once.
  server = await startServer({ ...env, RESPONSE_CACHE: 'on', CONTENT_POLL_MS: '60000' });
});
afterAll(async () => {
  if (server) await stopServer(server);
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The example bundle with its first offer at `price`, named relative to here (the command line reads it from its own directory). */
const bundleWithPrice = (price: number) => path.relative(process.cwd(), exampleBundleWithPrice(tmp, price));

describe('the command line while the embedded service runs', () => {
  it('imports through the service, and every change is served by the very next request', async () => {
    const first = await runCliProcess(['import', bundleWithPrice(500_000), '--json'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).offers.created).toBe(5);

    const created = await runCliProcess(['keys', 'create', '--website', EXAMPLE_WEBSITE, '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    const { key } = JSON.parse(created.stdout) as { key: string };

    const price = async () => {
      const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/offers/${EXAMPLE_OFFER}`, { headers: { Authorization: key } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { offer_data: { price: number }; version: number });
    };
    expect((await price()).offer_data.price).toBe(500_000);

    for (let round = 1; round <= ROUNDS; round++) {
      const next = 500_000 + round * 1_000;
      const imported = await runCliProcess(['import', bundleWithPrice(next), '--json'], env);
      expect(imported.code, imported.stderr).toBe(0);
      expect(JSON.parse(imported.stdout).offers.changed).toBe(1);
      const offer = await price(); // at once: no sleep, no retry
      expect(offer.offer_data.price).toBe(next);
      expect(offer.version).toBe(1 + round);
    }
  });

  it('answers a rejected import as the command line does: problems, exit 1, nothing changed', async () => {
    const bad = path.join(tmp, 'bad.ndjson');
    fs.writeFileSync(bad, '{"type":"offer","offer_id":"not-a-uuid"}\n');
    const run = await runCliProcess(['import', bad], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('record 1');
    expect(run.stderr).toMatch(/error: import rejected: \d+ problems? found; the database was not changed/);
    expect(run.stdout).toBe('');
  });

  it('reports a missing file with the name as given', async () => {
    const run = await runCliProcess(['import', 'no/such/file.ndjson', '--json'], env);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).error).toMatch(/no\/such\/file\.ndjson: no such file/);
  });
});
