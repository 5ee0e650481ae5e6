/**
 * Extension E8 on PostgreSQL: when `import` exits 0, the next request to any running instance sees
 * the new content. The poll interval is set to a minute and the response cache is on, so only the
 * import's notification can make the change visible at once; with WEB_CONCURRENCY=2 the requests
 * reach both workers. (On the embedded database the same guarantee comes from the command line
 * running inside the service: test/server/embedded-commands.test.ts.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createThrowawayPostgres, onPostgres } from '../../helpers/db.js';
import { runCliProcess, startServer, stopServer } from '../../helpers/processes.js';
import { scaled } from '../../helpers/scale.js';
import { EXAMPLE_OFFER, EXAMPLE_WEBSITE, exampleBundleWithPrice } from '../../helpers/example-bundle.js';


const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-fresh-'));
let database: { url: string; drop: () => Promise<void> };
let key: string;

const bundleWithPrice = (price: number) => exampleBundleWithPrice(tmp, price);
/** Imports per server, each a command line process of its own. */
const ROUNDS = scaled('FRESH_IMPORT_ROUNDS', 2, 4);

beforeAll(async () => {
  if (!onPostgres) return;
  database = await createThrowawayPostgres();
  const env = { DATABASE_URL: database.url };
  const first = await runCliProcess(['import', bundleWithPrice(400_000), '--json'], env);
  expect(first.code, first.stderr).toBe(0);
  const created = await runCliProcess(['keys', 'create', '--website', EXAMPLE_WEBSITE, '--json'], env);
  expect(created.code, created.stderr).toBe(0);
  key = (JSON.parse(created.stdout) as { key: string }).key;
}, 120_000);
afterAll(async () => {
  await database?.drop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!onPostgres)('fresh after import (PostgreSQL: NOTIFY in the import, LISTEN in every instance)', () => {
  for (const workers of [1, 2]) {
    it(`serves an import's change from the next request on, WEB_CONCURRENCY=${workers}`, async () => {
      const env = { DATABASE_URL: database.url };
      const server = await startServer({ ...env, WEB_CONCURRENCY: String(workers), RESPONSE_CACHE: 'on', CONTENT_POLL_MS: '60000' });
      try {
        const url = `http://127.0.0.1:${server.port}/api/v1/offers/${EXAMPLE_OFFER}`;
        // New connections each time (no keep-alive), so that requests spread over the workers.
        const price = async () => {
          const res = await fetch(url, { headers: { Authorization: key, Connection: 'close' } });
          expect(res.status).toBe(200);
          return ((await res.json()) as { offer_data: { price: number } }).offer_data.price;
        };
        // Warm every worker's response cache with the current answer.
        for (let i = 0; i < 4 * workers; i++) await price();
        for (let round = 1; round <= ROUNDS; round++) {
          const next = 400_000 + workers * 100_000 + round * 1_000;
          const imported = await runCliProcess(['import', bundleWithPrice(next), '--json'], env);
          expect(imported.code, imported.stderr).toBe(0);
          // At once: no sleep, no retry; several requests so that each worker answers.
          for (let i = 0; i < 3 * workers; i++) expect(await price()).toBe(next);
        }
      } finally {
        await stopServer(server);
      }
    }, 300_000);
  }
});
