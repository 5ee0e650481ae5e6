/**
 * GET /api/v1/offers/{offer_id}/photos and the variant URLs it hands out (extension E11), against
 * a local origin serving images made here with sharp: an import queues the sources, the fetcher
 * makes them ready, the answer lists the displayed size, a placeholder and the variants; a variant
 * is rendered once, immutable, with a strong ETag, without metadata, then answered from memory
 * without a signature check or a file; a changed URL answers 404 without any work, and so does a
 * variant whose source is gone until it is back.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, get, type TestApp } from '../../helpers/app.js';
import { startImageOrigin, type ImageOrigin } from '../../helpers/image-origin.js';
import { ORG_A, OFFER, uid } from '../../helpers/fixtures.js';
import { importObject, offer } from '../../import/helpers.js';
import { buildDemoBundle, DEMO_SEED } from '../../../src/demo/index.js';
import { demoPhotoUrl } from '../../../src/features/photos/index.js';
import { UrlSigner } from '../../../src/features/photos/url-signing.js';

const PHOTO_OFFER = uid('0ffc', 1);

interface Variant {
  width: number;
  height: number;
  format: string;
  url: string;
}
interface Photo {
  kind: string;
  index: number;
  source_url: string;
  status: string;
  reason: string | null;
  width: number | null;
  height: number | null;
  placeholder: string | null;
  variants: Variant[];
}

/** Every file under a folder, relative. */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
  } catch {
    return [];
  }
}

const jpeg = (width: number, height: number, colour = { r: 200, g: 120, b: 40 }) =>
  sharp({ create: { width, height, channels: 3, background: colour } }).jpeg().toBuffer();

let t: TestApp;
let origin: ImageOrigin;
let cacheDir: string;

async function photosOf(offerId: string): Promise<Photo[]> {
  const res = await get(t, `/api/v1/offers/${offerId}/photos`);
  expect(res.statusCode).toBe(200);
  return res.json().photos as Photo[];
}

/** Waits until no photo of the offer is pending. */
async function settled(offerId: string): Promise<Photo[]> {
  for (let i = 0; i < 600; i += 1) {
    const photos = await photosOf(offerId);
    if (photos.every((p) => p.status !== 'pending')) return photos;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('photos still pending');
}

/** The path and query of an absolute variant URL (inject takes paths). */
const pathOf = (url: string) => new URL(url).pathname;

beforeAll(async () => {
  origin = await startImageOrigin();
  cacheDir = mkdtempSync(path.join(tmpdir(), 'ecs-photos-'));
  // A GPS position in the EXIF, as phones write it.
  const withGps = await sharp(await jpeg(400, 300))
    .withExif({ IFD0: { Make: 'Phone' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 13/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '21/1 0/1 0/1' } })
    .jpeg()
    .toBuffer();
  // Stored 300 × 200, EXIF orientation 6 (rotate 90°): displayed 200 × 300.
  const rotated = await sharp(await jpeg(300, 200)).withMetadata({ orientation: 6 }).jpeg().toBuffer();
  origin.answers.set('/wide.jpg', { kind: 'bytes', body: await jpeg(2000, 1000) });
  origin.answers.set('/small.png', { kind: 'bytes', body: await sharp({ create: { width: 500, height: 300, channels: 4, background: '#3366aa80' } }).png().toBuffer(), type: 'image/png' });
  origin.answers.set('/gps.jpg', { kind: 'bytes', body: withGps });
  origin.answers.set('/rotated.jpg', { kind: 'bytes', body: rotated });
  origin.answers.set('/plan.jpg', { kind: 'bytes', body: await jpeg(640, 480, { r: 250, g: 250, b: 250 }) });
  t = await buildTestApp({ env: { IMAGE_SOURCES: origin.origin, IMAGE_CACHE_DIR: cacheDir, IMAGE_FETCH_POLL_MS: '50' } });
  const record = offer(PHOTO_OFFER, ORG_A, 1);
  (record.offer_data as Record<string, unknown>).photos_urls = [
    origin.url('/wide.jpg'),
    origin.url('/small.png'),
    origin.url('/gps.jpg'),
    origin.url('/rotated.jpg'),
    origin.url('/missing.jpg'),
    'https://elsewhere.example.com/a.jpg',
  ];
  (record.offer_data as Record<string, unknown>).floor_plan_urls = [origin.url('/plan.jpg')];
  await importObject(t.db.db, { offers: [record] });
  await t.app.contentVersion.refresh();
});

describe('GET /api/v1/offers/{offer_id}/photos', () => {
  it('lists photos then floor plans, ready with displayed sizes, placeholders and variants', async () => {
    const photos = await settled(PHOTO_OFFER);
    expect(photos.map((p) => [p.kind, p.index, p.status])).toEqual([
      ['photo', 0, 'ready'],
      ['photo', 1, 'ready'],
      ['photo', 2, 'ready'],
      ['photo', 3, 'ready'],
      ['photo', 4, 'unavailable'],
      ['photo', 5, 'unavailable'],
      ['floor_plan', 0, 'ready'],
    ]);
    const [wide, small, , rotated, missing, foreign, plan] = photos as [Photo, Photo, Photo, Photo, Photo, Photo, Photo];
    expect([wide.width, wide.height]).toEqual([2000, 1000]);
    expect([...new Set(wide.variants.map((v) => v.width))]).toEqual([320, 640, 960, 1280, 1920]);
    expect(wide.variants.slice(0, 3).map((v) => v.format)).toEqual(['avif', 'webp', 'jpeg']);
    expect(wide.variants.find((v) => v.width === 640)!.height).toBe(320);
    // Never upscaled; the source's own width is offered below 1920.
    expect([...new Set(small.variants.map((v) => v.width))]).toEqual([320, 500]);
    expect([...new Set(plan.variants.map((v) => v.width))]).toEqual([320, 640]);
    // EXIF orientation applied: the displayed size.
    expect([rotated.width, rotated.height]).toEqual([200, 300]);
    expect(missing.reason).toBe('HTTP 404');
    expect(missing.variants).toEqual([]);
    expect(foreign.reason).toMatch(/not in IMAGE_SOURCES/);
    expect(origin.hits.get('/a.jpg')).toBeUndefined();
    for (const photo of photos.filter((p) => p.status === 'ready')) {
      expect(photo.placeholder).toMatch(/^data:image\/webp;base64,[A-Za-z0-9+/=]+$/);
      expect(photo.placeholder!.length).toBeLessThanOrEqual(1024);
      for (const variant of photo.variants) expect(variant.url.startsWith('http://localhost:80/images/')).toBe(true);
    }
  });

  it('answers 404 for an unknown offer and another organization\'s, as GET offer does', async () => {
    expect((await get(t, `/api/v1/offers/${uid('dead', 9)}/photos`)).json()).toEqual({ detail: 'Offer not found' });
    expect((await get(t, `/api/v1/offers/${OFFER.otherOrg}/photos`)).statusCode).toBe(404);
  });
});

describe('variant URLs', () => {
  it('serve the announced size, immutable, with a strong ETag, rendered once', async () => {
    const [wide] = await settled(PHOTO_OFFER);
    const before = t.app.services.photos.rendered;
    for (const variant of wide!.variants.filter((v) => v.width === 320 || v.width === 1920)) {
      const res = await t.app.inject({ method: 'GET', url: pathOf(variant.url) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(`image/${variant.format}`);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.etag).toMatch(/^"[^W]/);
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.format === 'heif' ? 'avif' : meta.format).toBe(variant.format);
      expect([meta.width, meta.height]).toEqual([variant.width, variant.height]);
      // Again: the kept file, the same bytes, and 304 for the ETag.
      const again = await t.app.inject({ method: 'GET', url: pathOf(variant.url) });
      expect(again.rawPayload.equals(res.rawPayload)).toBe(true);
      const revalidated = await t.app.inject({ method: 'GET', url: pathOf(variant.url), headers: { 'if-none-match': res.headers.etag as string } });
      expect(revalidated.statusCode).toBe(304);
    }
    expect(t.app.services.photos.rendered - before).toBe(6);
  });

  it('answer 404 without any work when the signature, width, format, hash or photo is changed', async () => {
    const [, small] = await settled(PHOTO_OFFER);
    const url = pathOf(small!.variants.find((v) => v.width === 320 && v.format === 'webp')!.url);
    const parts = url.split('/'); // ['', 'images', offer, photo, hash, signature, file]
    const flip = (s: string, at: number) => s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);
    const tampered = [
      [...parts.slice(0, 5), flip(parts[5]!, 3), parts[6]],
      [...parts.slice(0, 6), '640.webp'],
      [...parts.slice(0, 6), '500.webp'],
      [...parts.slice(0, 6), '320.avif'],
      [...parts.slice(0, 6), '320.png'],
      [...parts.slice(0, 6), '99999.webp'],
      [...parts.slice(0, 4), flip(parts[4]!, 0).replace('A', 'a'), ...parts.slice(5)],
      [...parts.slice(0, 3), 'photo-0', ...parts.slice(4)],
      [...parts.slice(0, 2), PHOTO_OFFER.replace(/.$/, '9'), ...parts.slice(3)],
      [...parts.slice(0, 5), '', parts[6]],
    ].map((p) => p.join('/'));
    // The genuine URL served first, so it is kept in memory: a changed one is still refused.
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    const files = filesUnder(cacheDir);
    const rendered = t.app.services.photos.rendered;
    for (const bad of tampered) {
      const res = await t.app.inject({ method: 'GET', url: bad });
      expect(res.statusCode, bad).toBe(404);
      expect(res.headers['cache-control']).toBeUndefined();
    }
    expect(t.app.services.photos.rendered).toBe(rendered);
    expect(filesUnder(cacheDir)).toEqual(files);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
  });

  it('once served, are answered from memory: no signature check, no file read, 304 too', async () => {
    const [wide] = await settled(PHOTO_OFFER);
    const url = pathOf(wide!.variants.find((v) => v.width === 640 && v.format === 'jpeg')!.url);
    const first = await t.app.inject({ method: 'GET', url });
    expect(first.statusCode).toBe(200);
    // The file gone and the signer watched: an answer from memory needs neither.
    const parts = url.split('/');
    await rm(t.app.services.photos.store.variantPath(parts[4]!, 640, 'jpeg'));
    const verify = vi.spyOn(UrlSigner.prototype, 'verify');
    try {
      const again = await t.app.inject({ method: 'GET', url });
      expect(again.statusCode).toBe(200);
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
      expect(again.headers).toMatchObject({ etag: first.headers.etag, 'cache-control': 'public, max-age=31536000, immutable', 'content-type': 'image/jpeg' });
      const revalidated = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': first.headers.etag as string } });
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.headers.etag).toBe(first.headers.etag);
      expect(verify).not.toHaveBeenCalled();
    } finally {
      verify.mockRestore();
    }
    expect(t.app.services.photos.memory!.size).toBeGreaterThan(0);
  });

  it('answer 404 while the source is gone (not rendered, not in the folder, its origin failing), and serve it once it is back', async () => {
    const photos = await settled(PHOTO_OFFER);
    const plan = photos.find((p) => p.kind === 'floor_plan')!;
    const url = pathOf(plan.variants.find((v) => v.width === 320 && v.format === 'webp')!.url);
    const hash = url.split('/')[4]!;
    await rm(t.app.services.photos.store.sourcePath(hash));
    const source = origin.answers.get('/plan.jpg')!;
    origin.answers.set('/plan.jpg', { kind: 'status', status: 404 });
    try {
      for (let i = 0; i < 2; i += 1) expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    } finally {
      origin.answers.set('/plan.jpg', source);
    }
    // A 404 is not remembered: fetched again, rendered, served.
    const back = await t.app.inject({ method: 'GET', url });
    expect(back.statusCode).toBe(200);
    expect(back.headers['content-type']).toBe('image/webp');
  });

  it('leave no metadata: a source with an EXIF GPS position gives variants without EXIF', async () => {
    const photos = await settled(PHOTO_OFFER);
    const gps = photos[2]!;
    const source = await sharp((origin.answers.get('/gps.jpg') as { body: Buffer }).body).metadata();
    expect(source.exif).toBeDefined();
    for (const variant of gps.variants.filter((v) => v.width === 320)) {
      const res = await t.app.inject({ method: 'GET', url: pathOf(variant.url) });
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(res.rawPayload.includes(Buffer.from('GPS'))).toBe(false);
      expect(res.rawPayload.includes(Buffer.from('Exif'))).toBe(false);
    }
  });

  it('render an EXIF-rotated source upright at its displayed size', async () => {
    const photos = await settled(PHOTO_OFFER);
    const variant = photos[3]!.variants.find((v) => v.format === 'jpeg')!;
    expect([variant.width, variant.height]).toEqual([200, 300]);
    const res = await t.app.inject({ method: 'GET', url: pathOf(variant.url) });
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([200, 300, undefined]);
  });

  it('are public in /openapi.json', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operation = doc.paths['/images/{offer_id}/{photo}/{hash}/{signature}/{file}'].get;
    expect(operation.security).toEqual([]);
    expect(Object.keys(operation.responses['200'].content)).toEqual(['image/avif', 'image/webp', 'image/jpeg']);
    expect(doc.paths['/api/v1/offers/{offer_id}/photos'].get.security).toEqual([{ APIKeyHeader: [] }]);
  });
});

describe('without IMAGE_SOURCES', () => {
  it('fetches nothing: every photo is unavailable with the reason', async () => {
    const bare = await buildTestApp();
    const res = await get(bare, `/api/v1/offers/${OFFER.krakowFull}/photos`);
    expect(res.statusCode).toBe(200);
    const photos = res.json().photos as Photo[];
    expect(photos.length).toBe(2);
    for (const photo of photos) {
      expect(photo).toMatchObject({ kind: 'photo', status: 'unavailable', reason: 'IMAGE_SOURCES is not set: no photo is fetched', variants: [] });
    }
    // Nothing was asked of the network: the fetcher records such sources unavailable by itself.
    await bare.destroy();
  });
});

describe('the demo', () => {
  it('shows real variants on a fresh clone: its photos are drawn by the service, no network, no IMAGE_SOURCES', async () => {
    const demo = await buildTestApp({ env: { IMAGE_CACHE_DIR: mkdtempSync(path.join(tmpdir(), 'ecs-demo-photos-')), IMAGE_FETCH_POLL_MS: '50' } });
    const bundle = buildDemoBundle(DEMO_SEED, 3);
    const urls = (bundle.offers as { offer_data: { photos_urls: string[]; floor_plan_urls: string[] } }[]).flatMap((o) => [
      ...o.offer_data.photos_urls,
      ...o.offer_data.floor_plan_urls,
    ]);
    expect(urls.every((u) => u.startsWith('http://127.0.0.1:8000/demo/photos/'))).toBe(true);
    const record = offer(uid('0ffc', 2), ORG_A, 2);
    (record.offer_data as Record<string, unknown>).photos_urls = [demoPhotoUrl('photo-1'), 'https://crm.example.pl/1.jpg'];
    (record.offer_data as Record<string, unknown>).floor_plan_urls = [demoPhotoUrl('plan-2')];
    await importObject(demo.db.db, { offers: [record] });
    await demo.app.contentVersion.refresh();
    let photos: Photo[] = [];
    for (let i = 0; i < 600; i += 1) {
      photos = (await get(demo, `/api/v1/offers/${uid('0ffc', 2)}/photos`)).json().photos;
      if (photos.every((p) => p.status !== 'pending')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(photos.map((p) => [p.status, p.width, p.height])).toEqual([
      ['ready', 1280, 853],
      ['unavailable', null, null],
      ['ready', 1200, 900],
    ]);
    const variant = photos[0]!.variants.find((v) => v.width === 640 && v.format === 'avif')!;
    const res = await demo.app.inject({ method: 'GET', url: pathOf(variant.url) });
    expect(res.statusCode).toBe(200);
    expect((await sharp(res.rawPayload).metadata()).width).toBe(640);
    // The sources themselves, for a browser; nothing else under that path.
    const source = await demo.app.inject({ method: 'GET', url: '/demo/photos/photo-1.jpg' });
    expect([source.statusCode, source.headers['content-type']]).toEqual([200, 'image/jpeg']);
    expect((await demo.app.inject({ method: 'GET', url: '/demo/photos/photo-99.jpg' })).statusCode).toBe(404);
    expect((await demo.app.inject({ method: 'GET', url: '/demo/photos/..%2Fx.jpg' })).statusCode).toBe(404);
    await demo.destroy();
  });
});
