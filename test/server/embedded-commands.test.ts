/**
 * The command line while the embedded service runs: the service owns DATA_DIR, so `import` and
 * `keys` are run by the service itself over its control socket, with the same output and exit
 * status, and the next request sees the change at once (no poll interval in between).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot, runCliProcess, startServer, stopServer, type ServerProcess } from '../helpers/processes.js';

const EXAMPLE_WEBSITE = '0b6f8a2e-51c4-4f7e-8a3d-9c2e1f4b7d02';
const EXAMPLE_OFFER = '0ffe0000-0000-4000-8000-000000000001';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-embedded-cli-'));
const dataDir = path.join(tmp, 'data');
const env = { DATA_DIR: dataDir, DATABASE_URL: undefined };
let server: ServerProcess;

beforeAll(async () => {
  // The response cache on and a long poll interval: only the command's own refresh can make a change visible at once.
  server = await startServer({ ...env, RESPONSE_CACHE: 'on', CONTENT_POLL_MS: '60000' });
});
afterAll(async () => {
  if (server) await stopServer(server);
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** examples/bundle.json with the first offer's price set to `price`. */
function bundleWithPrice(price: number): string {
  const bundle = JSON.parse(fs.readFileSync(path.join(projectRoot, 'examples/bundle.json'), 'utf8')) as {
    offers: Array<{ offer_id: string; offer_data: Record<string, unknown> }>;
  };
  bundle.offers.find((o) => o.offer_id === EXAMPLE_OFFER)!.offer_data.price = price;
  const file = path.join(tmp, `bundle-${price}.json`);
  fs.writeFileSync(file, JSON.stringify(bundle));
  return path.relative(process.cwd(), file); // a relative name: read from the command line's directory
}

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

    for (let round = 1; round <= 5; round++) {
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
