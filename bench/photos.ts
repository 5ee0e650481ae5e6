/**
 * `npm run bench:photos`: what photos cost (extension E11), apart from the HTTP benchmark (whose
 * `photo-variant` scenario measures a cached variant against the floor).
 *
 * 1. First renders: a 12-megapixel JPEG (4000 × 3000, noisy like a photo, so it compresses like
 *    one) rendered to a 640-wide WebP, `--renders` times, all asked for at once through the
 *    render gate at 8 and at the default 2 concurrent renders: variants per second and the
 *    process's peak RSS (sampled every 10 ms, and the kernel's high-water mark).
 * 2. The import's cost: a bundle of `--offers` offers with 10 distinct photo URLs each imported
 *    into a fresh embedded database (the import notes the offers), then the fetcher's step that
 *    queues their sources (expandNotedPhotoOffers, chunks of EXPANSION_CHUNK offers) timed apart.
 *    Both queueing and fetching run after the import's transaction, so they add nothing to the
 *    import itself.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { buildDemoBundle, DEMO_SEED } from '../src/demo/index.js';
import { importBundle, memorySource } from '../src/import/index.js';
import { expandNotedPhotoOffers } from '../src/features/photos/index.js';
import { EXPANSION_CHUNK } from '../src/features/photos/photo-fetcher.js';
import { renderVariant } from '../src/features/photos/image-processing.js';
import { RenderGate } from '../src/features/photos/render-gate.js';
import { SOURCE_LIMITS, variantHeight } from '../src/features/photos/model.js';

const { values } = parseArgs({ options: { renders: { type: 'string' }, offers: { type: 'string' } } });
const RENDERS = Number(values.renders ?? 16);
const OFFERS = Number(values.offers ?? 2000);

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function renders(source: string, concurrency: number): Promise<string> {
  const gate = new RenderGate(concurrency);
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: RENDERS }, () => gate.run(() => renderVariant(source, 640, variantHeight({ width: 4000, height: 3000 }, 640), 'webp', SOURCE_LIMITS.maxPixels))),
  );
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return `${RENDERS} renders, ${concurrency} at once: ${(RENDERS / seconds).toFixed(2)} variants/s (${(seconds * 1000 / RENDERS).toFixed(0)} ms each on average), peak RSS ${mb(peak)} MB (kernel high-water mark ${mb(process.resourceUsage().maxRSS * 1024)} MB)`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ecs-bench-photos-'));
  const source = path.join(dir, 'source.jpg');
  await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#8899aa', noise: { type: 'gaussian', mean: 120, sigma: 40 } } })
    .jpeg({ quality: 90 })
    .toFile(source);
  const before = process.memoryUsage().rss;
  console.log(`source: 4000 × 3000 JPEG; RSS before rendering ${mb(before)} MB`);
  await renderVariant(source, 640, 480, 'webp', SOURCE_LIMITS.maxPixels); // warm-up
  console.log(await renders(source, 2));
  console.log(await renders(source, 8));

  const bundle = buildDemoBundle(DEMO_SEED, OFFERS);
  const urls: string[] = [];
  for (const offer of bundle.offers as { offer_id: string; offer_data: Record<string, unknown> }[]) {
    offer.offer_data.photos_urls = Array.from({ length: 10 }, (_, n) => `https://crm.example.pl/photos/${offer.offer_id}/${n}.jpg`);
    offer.offer_data.floor_plan_urls = [];
    urls.push(...(offer.offer_data.photos_urls as string[]));
  }
  const imported = await openDatabase({ dataDir: mkdtempSync(path.join(dir, 'a-')) });
  await migrateToLatest(imported.db);
  let started = performance.now();
  await importBundle(imported.db, memorySource({ ...bundle }, 'bench'));
  const importMs = performance.now() - started;
  started = performance.now();
  let queuedSources = 0;
  for (;;) {
    const done = await expandNotedPhotoOffers(imported.db, EXPANSION_CHUNK);
    queuedSources += done.queued;
    if (done.notes < EXPANSION_CHUNK) break;
  }
  const queueMs = performance.now() - started;
  await imported.close();
  console.log(
    `import of ${OFFERS} offers with ${urls.length} distinct photo URLs (embedded database): ${importMs.toFixed(0)} ms; ` +
      `then the fetcher's queueing of their ${queuedSources} sources: ${queueMs.toFixed(0)} ms (${((100 * queueMs) / importMs).toFixed(1)} % of the import's time, after it)`,
  );
}

await main();
