/**
 * The photos in the Prometheus metrics (extension E11): the fetch queue's depth (sources, not
 * the offers an import noted) as the fetcher fills it from those notes and empties it, fetches by outcome (ready, unavailable, released when the
 * instance stops mid-fetch), the fetches under way, renders and their seconds, and where a
 * variant's bytes came from (rendered now, then memory).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, get, type TestApp } from '../../helpers/app.js';
import { startImageOrigin, type ImageOrigin } from '../../helpers/image-origin.js';
import { ORG_A, uid } from '../../helpers/fixtures.js';
import { sample } from '../../helpers/metrics-text.js';
import { importObject, offer } from '../../import/helpers.js';

const TOKEN = 'metrics-token-for-photos-0123456789';
const OFFER_ID = uid('0ffc', 71);
const SLOW_OFFER_ID = uid('0ffc', 72);

let t: TestApp;
let origin: ImageOrigin;

const scrape = async (): Promise<string> => {
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  return res.body;
};

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 1200; i += 1) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`still waiting for ${what}`);
}

function offerWithPhotos(id: string, n: number, urls: string[]) {
  const record = offer(id, ORG_A, n);
  (record.offer_data as Record<string, unknown>).photos_urls = urls;
  (record.offer_data as Record<string, unknown>).floor_plan_urls = [];
  return record;
}

beforeAll(async () => {
  origin = await startImageOrigin();
  origin.answers.set('/a.jpg', { kind: 'bytes', body: await sharp({ create: { width: 800, height: 600, channels: 3, background: '#aa6633' } }).jpeg().toBuffer() });
  origin.answers.set('/b.png', { kind: 'bytes', body: await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3366aa' } }).png().toBuffer(), type: 'image/png' });
  origin.answers.set('/slow.jpg', { kind: 'slow', everyMs: 200 });
  t = await buildTestApp({
    env: { METRICS_TOKEN: TOKEN, IMAGE_SOURCES: origin.origin, IMAGE_CACHE_DIR: mkdtempSync(path.join(tmpdir(), 'ecs-photo-metrics-')), IMAGE_FETCH_POLL_MS: '50' },
  });
});

describe('photo metrics', () => {
  it('show the queue the import fills and the fetcher empties, fetches by outcome, renders and variant lookups', async () => {
    // The fetcher waits while the import notes its offer and the sources are queued, so the queue's depth can be seen.
    await t.app.services.photos.stop();
    const before = await scrape();
    await importObject(t.db.db, { offers: [offerWithPhotos(OFFER_ID, 1, [origin.url('/a.jpg'), origin.url('/b.png'), origin.url('/missing.jpg')])] });
    // The import only noted the offer: the depth counts sources, which the fetcher's pass queues.
    expect(sample(await scrape(), 'estate_photo_queue_sources') - sample(before, 'estate_photo_queue_sources')).toBe(0);
    await t.app.services.photos.fetcher.expandNoted();
    const queued = await scrape();
    expect(sample(queued, 'estate_photo_queue_sources') - sample(before, 'estate_photo_queue_sources')).toBe(3);

    t.app.services.photos.startFetching();
    const photos = await until(
      async () => (await get(t, `/api/v1/offers/${OFFER_ID}/photos`)).json().photos as { status: string; variants: { width: number; format: string; url: string }[] }[],
      (list) => list.every((p) => p.status !== 'pending'),
      'the photos to be fetched',
    );
    const fetched = await until(scrape, (text) => sample(text, 'estate_photo_queue_sources') === sample(before, 'estate_photo_queue_sources'), 'an empty queue');
    const delta = (name: string, labels: Record<string, string> = {}, from = before, to = fetched) => sample(to, name, labels) - sample(from, name, labels);
    expect(delta('estate_photo_fetches_total', { outcome: 'ready' })).toBe(2);
    expect(delta('estate_photo_fetches_total', { outcome: 'unavailable' })).toBe(1);
    expect(delta('estate_photo_fetches_total', { outcome: 'released' })).toBe(0);
    expect(sample(fetched, 'estate_photo_fetches_in_flight')).toBe(0);

    // A variant: rendered on the first request (a miss, one render timed), then served from memory.
    const url = new URL(photos[0]!.variants.find((v) => v.width === 320 && v.format === 'webp')!.url).pathname;
    for (let i = 0; i < 3; i += 1) expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    const served = await scrape();
    expect(delta('estate_photo_variant_lookups_total', { result: 'miss' }, fetched, served)).toBe(1);
    expect(delta('estate_photo_variant_lookups_total', { result: 'memory' }, fetched, served)).toBe(2);
    expect(delta('estate_photo_render_duration_seconds_count', {}, fetched, served)).toBe(1);
    expect(delta('estate_photo_render_duration_seconds_sum', {}, fetched, served)).toBeGreaterThan(0);
    expect(served).toContain('# TYPE estate_photo_render_duration_seconds histogram');
  });

  it('count a fetch the instance gave back when it stopped, still queued', async () => {
    const before = await scrape();
    await importObject(t.db.db, { offers: [offerWithPhotos(SLOW_OFFER_ID, 2, [origin.url('/slow.jpg')])] });
    t.app.services.photos.wake();
    const fetching = await until(scrape, (text) => sample(text, 'estate_photo_fetches_in_flight') === 1, 'the slow fetch to start');
    expect(sample(fetching, 'estate_photo_queue_sources') - sample(before, 'estate_photo_queue_sources')).toBe(1);
    await t.app.services.photos.stop();
    const after = await scrape();
    expect(sample(after, 'estate_photo_fetches_total', { outcome: 'released' }) - sample(before, 'estate_photo_fetches_total', { outcome: 'released' })).toBe(1);
    expect(sample(after, 'estate_photo_fetches_in_flight')).toBe(0);
    expect(sample(after, 'estate_photo_queue_sources') - sample(before, 'estate_photo_queue_sources')).toBe(1);
  });
});
