/**
 * The sitemap of 100,000 offers (extension E12), measured in one process: an embedded database
 * (PGlite, in memory) with the test fixture's website and N more active offers of one organization
 * (written by SQL, each with its slug), the service listening on a free port, and one
 * GET /api/v1/sitemap.xml?page=1 (SITEMAP_PAGE_SIZE 100,000 here, so it is one part) read as a
 * stream. Prints the time to the first byte and to the last, the bytes, and the process's peak RSS
 * over its RSS before the request (sampled every 20 ms): the answer is written while it is read,
 * so the peak stays far below the answer's size.
 *
 *   npx tsx bench/sitemap-size.ts [offers]      (default 100000)
 */
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createTestDb } from '../test/helpers/db.js';
import { insertFixture, KEYS, ORG_A } from '../test/helpers/fixtures.js';

const offers = Number(process.argv[2] ?? 100_000);
const db = await createTestDb();
await insertFixture(db.db);
await sql`insert into offers (offer_id, organization_id, external_id, is_active, offer_data, offer_data_json, created_at, updated_at, slug)
  select gen_random_uuid(), ${ORG_A}::uuid, 'SITEMAP-' || g, true, '{}'::jsonb, '{}', now(), now(), 'oferta-sitemap-' || g
  from generate_series(1, ${offers}) as g`.execute(db.db);
const config = loadConfig({ LOG_LEVEL: 'silent', PORT: '0', SITEMAP_PAGE_SIZE: String(Math.min(50_000, offers)) });
const app = await buildApp({ config, db, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address() as { port: number };

global.gc?.();
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
const parts = Math.ceil(offers / Math.min(50_000, offers));
const started = performance.now();
let firstByte = 0;
let bytes = 0;
for (let page = 1; page <= parts; page += 1) {
  const res = await fetch(`http://127.0.0.1:${address.port}/api/v1/sitemap.xml?page=${page}`, { headers: { authorization: KEYS.activeA1 } });
  if (res.status !== 200) throw new Error(`sitemap answered ${res.status}: ${await res.text()}`);
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (firstByte === 0) firstByte = performance.now() - started;
    bytes += value.byteLength;
  }
}
const total = performance.now() - started;
clearInterval(sampler);
const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
process.stdout.write(
  `sitemap of ${offers.toLocaleString('en-US')} offers (${parts} part${parts > 1 ? 's' : ''} of 50,000): first byte ${firstByte.toFixed(0)} ms, ` +
    `all ${total.toFixed(0)} ms, ${mb(bytes)} MB sent; RSS ${mb(before)} MB before, peak +${mb(peak - before)} MB\n`,
);
await app.close();
await db.destroy();
