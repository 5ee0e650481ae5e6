/**
 * Photo sources against a hostile origin, and the fetcher and the cache folder under faults:
 * slow, huge, a lying Content-Length, a decompression bomb, a redirect to an origin not allowed,
 * too many redirects, not an image, SVG, 404 (each makes the photo `unavailable` with a reason,
 * never a 5xx); a restart while a source is being fetched (the next instance fetches it); two
 * instances sharing IMAGE_CACHE_DIR (the same bytes, one file, no leftovers); an instance whose
 * folder lacks the source (fetched again on demand).
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { fetchSource } from '../../../src/features/photos/source-fetch.js';
import { inspectSource } from '../../../src/features/photos/image-processing.js';
import { SOURCE_LIMITS } from '../../../src/features/photos/model.js';
import { buildTestApp, get, type TestApp } from '../../helpers/app.js';
import { pngDeclaring, startImageOrigin, type ImageOrigin } from '../../helpers/image-origin.js';
import { ORG_A, uid } from '../../helpers/fixtures.js';
import { scaled } from '../../helpers/scale.js';
import { closeAfterFile } from '../../helpers/teardown.js';
import { importObject, offer } from '../../import/helpers.js';

/** Side of the test photos: small in `npm test`, larger with TEST_FULL=1 or PHOTO_TEST_SIDE. */
const SIDE = scaled('PHOTO_TEST_SIDE', 700, 2400);

let origin: ImageOrigin;
let png: Buffer;
let photo: Buffer;

const image = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 140, b: 90 } } }).jpeg().toBuffer();

beforeAll(async () => {
  origin = await startImageOrigin();
  png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ff0000' } }).png().toBuffer();
  photo = await image(SIDE, Math.round((SIDE * 3) / 4));
});

/** Fetch and inspect, as the fetcher does: the reason, or 'ok'. */
async function outcome(pathname: string, limits = SOURCE_LIMITS): Promise<string> {
  const fetched = await fetchSource(origin.url(pathname), [origin.origin], limits);
  if (!fetched.ok) return fetched.reason;
  const inspected = await inspectSource(fetched.bytes, limits.maxPixels);
  return inspected.ok ? 'ok' : inspected.reason;
}

describe('a hostile origin', () => {
  it('slow: gives up at the time limit', async () => {
    origin.answers.set('/slow.jpg', { kind: 'slow', everyMs: 100 });
    const started = Date.now();
    expect(await outcome('/slow.jpg', { ...SOURCE_LIMITS, timeoutMs: 800 })).toBe('no complete answer within 0.8 s');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('huge: a declared size over 25 MB is refused unread; a body running past 25 MB is cut off', async () => {
    origin.answers.set('/declared.jpg', { kind: 'lying', declared: 30 * 1024 * 1024, body: Buffer.alloc(1024) });
    expect(await outcome('/declared.jpg')).toBe(`larger than ${25 * 1024 * 1024} bytes (Content-Length ${30 * 1024 * 1024})`);
    origin.answers.set('/endless.jpg', { kind: 'endless', bytes: 40 * 1024 * 1024 });
    expect(await outcome('/endless.jpg')).toBe(`larger than ${25 * 1024 * 1024} bytes`);
  });

  it('a lying Content-Length (more or less than is sent) never gives a usable source', async () => {
    origin.answers.set('/short.jpg', { kind: 'lying', declared: photo.length * 2, body: photo });
    expect(await outcome('/short.jpg')).not.toBe('ok');
    origin.answers.set('/long.jpg', { kind: 'lying', declared: 100, body: photo });
    expect(await outcome('/long.jpg')).not.toBe('ok');
  });

  it('a decompression bomb (a small PNG declaring 100,000 × 100,000 pixels) is refused from its header', async () => {
    const bomb = pngDeclaring(png, 100_000, 100_000);
    expect(bomb.length).toBeLessThan(1024);
    origin.answers.set('/bomb.png', { kind: 'bytes', body: bomb, type: 'image/png' });
    expect(await outcome('/bomb.png')).toBe('more than 50000000 pixels (100000 × 100000)');
    // Just over the limit is refused too; a real image at the limit's side is fine.
    origin.answers.set('/over.png', { kind: 'bytes', body: pngDeclaring(png, 10_000, 5_001), type: 'image/png' });
    expect(await outcome('/over.png')).toMatch(/^more than 50000000 pixels/);
  });

  it('redirects: only to allowed origins, at most 3', async () => {
    origin.answers.set('/ok.jpg', { kind: 'bytes', body: photo });
    // The same server under another name is another origin.
    const foreign = origin.origin.replace('127.0.0.1', 'localhost');
    origin.answers.set('/away', { kind: 'redirect', location: `${foreign}/ok.jpg` });
    const before = origin.hits.get('/ok.jpg') ?? 0;
    expect(await outcome('/away')).toBe(`redirected to a source not allowed: origin ${foreign} is not in IMAGE_SOURCES`);
    expect(origin.hits.get('/ok.jpg') ?? 0).toBe(before);
    origin.answers.set('/r1', { kind: 'redirect', location: '/r2' });
    origin.answers.set('/r2', { kind: 'redirect', location: '/r3' });
    origin.answers.set('/r3', { kind: 'redirect', location: '/ok.jpg' });
    expect(await outcome('/r1')).toBe('ok');
    origin.answers.set('/r0', { kind: 'redirect', location: '/r1' });
    expect(await outcome('/r0')).toBe('more than 3 redirects');
  });

  it('not an image, SVG, 404, an empty answer', async () => {
    origin.answers.set('/text.jpg', { kind: 'bytes', body: Buffer.from('<html>nope</html>'), type: 'image/jpeg' });
    expect(await outcome('/text.jpg')).toBe('not an image');
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="http://169.254.169.254/x"/></svg>`);
    origin.answers.set('/drawing.svg', { kind: 'bytes', body: svg, type: 'image/svg+xml' });
    expect(await outcome('/drawing.svg')).toBe('not an image of an accepted format (svg)');
    expect(await outcome('/nothing.jpg')).toBe('HTTP 404');
    origin.answers.set('/empty.jpg', { kind: 'bytes', body: Buffer.alloc(0) });
    expect(await outcome('/empty.jpg')).toBe('an empty answer');
  });

  it('through the service: every such photo is unavailable with its reason, the answer a 200', async () => {
    const t = await buildTestApp({ env: { IMAGE_SOURCES: origin.origin, IMAGE_CACHE_DIR: mkdtempSync(path.join(tmpdir(), 'ecs-photos-')), IMAGE_FETCH_POLL_MS: '50' } });
    origin.answers.set('/bomb.png', { kind: 'bytes', body: pngDeclaring(png, 100_000, 100_000), type: 'image/png' });
    const urls = ['/bomb.png', '/away', '/text.jpg', '/nothing.jpg', '/long.jpg', '/declared.jpg', '/ok.jpg'].map((p) => origin.url(p));
    const offerId = uid('0ffd', 1);
    const record = offer(offerId, ORG_A, 1);
    (record.offer_data as Record<string, unknown>).photos_urls = urls;
    await importObject(t.db.db, { offers: [record] });
    await t.app.contentVersion.refresh();
    let photos: { status: string; reason: string | null }[] = [];
    for (let i = 0; i < 600 && (photos.length === 0 || photos.some((p) => p.status === 'pending')); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const res = await get(t, `/api/v1/offers/${offerId}/photos`);
      expect(res.statusCode).toBe(200);
      photos = res.json().photos;
    }
    expect(photos.map((p) => p.status)).toEqual(['unavailable', 'unavailable', 'unavailable', 'unavailable', 'unavailable', 'unavailable', 'ready']);
    expect(photos[0]!.reason).toMatch(/pixels/);
    expect(photos[1]!.reason).toMatch(/redirected to a source not allowed/);
    expect(photos[3]!.reason).toBe('HTTP 404');
    // The next import tries the unavailable ones again.
    origin.answers.set('/nothing.jpg', { kind: 'bytes', body: photo });
    const hits = origin.hits.get('/nothing.jpg')!;
    (record.offer_data as Record<string, unknown>).title = 'changed';
    await importObject(t.db.db, { offers: [record] });
    await t.app.contentVersion.refresh();
    for (let i = 0; i < 600 && photos[3]!.status !== 'ready'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      photos = (await get(t, `/api/v1/offers/${offerId}/photos`)).json().photos;
    }
    expect(photos[3]!.status).toBe('ready');
    expect(origin.hits.get('/nothing.jpg')).toBe(hits + 1);
    await t.destroy();
  });
});

/** A second instance on the test app's database (its own services, fetcher and config). */
async function instanceOn(t: TestApp, env: Record<string, string>): Promise<FastifyInstance> {
  const config = loadConfig({ KEY_CACHE_TTL_MS: '0', LOG_LEVEL: 'silent', ...env });
  const app = await buildApp({ config, db: t.db, logger: false });
  await app.ready();
  closeAfterFile(() => app.close());
  return app;
}

async function sourceRow(t: TestApp, url: string) {
  return t.db.db.selectFrom('photo_sources').selectAll().where('url', '=', url).executeTakeFirstOrThrow();
}

/** The source's row once there is one (an import notes its offer; a fetcher's pass queues the source). */
async function queuedRow(t: TestApp, url: string) {
  return t.db.db.selectFrom('photo_sources').selectAll().where('url', '=', url).executeTakeFirst();
}

async function until<T>(what: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describe('instances', () => {
  it('a restart while a source is being fetched: the source is handed back and the next instance fetches it', async () => {
    const t = await buildTestApp({ env: { IMAGE_SOURCES: '' } });
    // The test's own app only holds the database: its fetcher (no IMAGE_SOURCES) would race the
    // instances for the source and record it refused.
    await t.app.services.photos.stop();
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'ecs-photos-'));
    const env = { IMAGE_SOURCES: origin.origin, IMAGE_CACHE_DIR: cacheDir, IMAGE_FETCH_POLL_MS: '50' };
    origin.answers.set('/late.jpg', { kind: 'bytes', body: photo, delayMs: 60_000 });
    const first = await instanceOn(t, env);
    const record = offer(uid('0ffd', 2), ORG_A, 2);
    (record.offer_data as Record<string, unknown>).photos_urls = [origin.url('/late.jpg')];
    await importObject(t.db.db, { offers: [record] });
    first.services.photos.wake();
    await until(async () => origin.hits.get('/late.jpg') ?? 0, (n) => n >= 1);
    expect((await sourceRow(t, origin.url('/late.jpg'))).locked_until).not.toBeNull();
    await first.close(); // SIGTERM's path: the fetch is aborted, the claim handed back
    const handedBack = await sourceRow(t, origin.url('/late.jpg'));
    expect([handedBack.status, handedBack.locked_until]).toEqual(['pending', null]);
    origin.answers.set('/late.jpg', { kind: 'bytes', body: photo });
    const second = await instanceOn(t, env);
    const ready = await until(() => sourceRow(t, origin.url('/late.jpg')), (row) => row.status === 'ready');
    expect(ready.width).toBe(SIDE);
    expect(second.services.photos.fetcher!.finished).toBeGreaterThanOrEqual(1);
  });

  it('two instances sharing IMAGE_CACHE_DIR serve the same bytes and leave one file per variant', async () => {
    const t = await buildTestApp({ env: { IMAGE_SOURCES: '' } });
    await t.app.services.photos.stop(); // as above: only the instances fetch
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'ecs-photos-'));
    const env = { IMAGE_SOURCES: origin.origin, IMAGE_CACHE_DIR: cacheDir, IMAGE_FETCH_POLL_MS: '50', IMAGE_SIGNING_SECRET: 'x'.repeat(40) };
    const a = await instanceOn(t, env);
    const b = await instanceOn(t, env);
    origin.answers.set('/shared.jpg', { kind: 'bytes', body: photo });
    const offerId = uid('0ffd', 3);
    const record = offer(offerId, ORG_A, 3);
    (record.offer_data as Record<string, unknown>).photos_urls = [origin.url('/shared.jpg')];
    await importObject(t.db.db, { offers: [record] });
    a.services.photos.wake();
    b.services.photos.wake();
    await until(() => queuedRow(t, origin.url('/shared.jpg')), (row) => row?.status === 'ready');
    // Fetched by one of them.
    expect(origin.hits.get('/shared.jpg')).toBe(1);
    const answer = async (app: FastifyInstance) =>
      (await app.inject({ method: 'GET', url: `/api/v1/offers/${offerId}/photos`, headers: { authorization: t.fixture.KEYS.activeA1 } })).json();
    const fromA = await answer(a);
    // Both instances sign alike (one secret): the same URLs.
    expect(await answer(b)).toEqual(fromA);
    const variants = fromA.photos[0].variants.filter((v: { width: number }) => v.width === 320) as { url: string }[];
    const paths = variants.map((v) => new URL(v.url).pathname);
    const results = await Promise.all(paths.flatMap((p) => [a, b].map((app) => app.inject({ method: 'GET', url: p }))));
    for (const res of results) expect(res.statusCode).toBe(200);
    for (let i = 0; i < paths.length; i += 1) expect(results[2 * i]!.rawPayload.equals(results[2 * i + 1]!.rawPayload)).toBe(true);
    const files = filesUnder(cacheDir);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('variants')).map((f) => path.basename(f)).sort()).toEqual(['320.avif', '320.jpeg', '320.webp']);
    expect(files.filter((f) => f.startsWith('sources'))).toHaveLength(1);

    // A third instance with a folder of its own fetches the source again when first asked.
    const otherDir = mkdtempSync(path.join(tmpdir(), 'ecs-photos-'));
    const c = await instanceOn(t, { ...env, IMAGE_CACHE_DIR: otherDir, IMAGE_FETCH_POLL_MS: '600000' });
    const res = await c.inject({ method: 'GET', url: paths[1]! });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(results[2]!.rawPayload)).toBe(true);
    expect(origin.hits.get('/shared.jpg')).toBe(2);
  });

  it('a source refused while IMAGE_SOURCES did not allow it is fetched once an instance that allows it is asked', async () => {
    const t = await buildTestApp({ env: { IMAGE_SOURCES: '', IMAGE_FETCH_POLL_MS: '50' } });
    origin.answers.set('/later.jpg', { kind: 'bytes', body: photo });
    const offerId = uid('0ffd', 4);
    const record = offer(offerId, ORG_A, 4);
    (record.offer_data as Record<string, unknown>).photos_urls = [origin.url('/later.jpg')];
    await importObject(t.db.db, { offers: [record] });
    t.app.services.photos.wake();
    const refused = await until(() => queuedRow(t, origin.url('/later.jpg')), (row) => row?.status === 'unavailable');
    expect(refused!.reason).toBe('IMAGE_SOURCES is not set: no photo is fetched');
    expect(origin.hits.get('/later.jpg')).toBeUndefined();
    await t.app.services.photos.stop(); // the instance that does not allow it fetches no more
    const allowing = await instanceOn(t, { IMAGE_SOURCES: origin.origin, IMAGE_CACHE_DIR: mkdtempSync(path.join(tmpdir(), 'ecs-photos-')), IMAGE_FETCH_POLL_MS: '50' });
    const ask = async () =>
      (await allowing.inject({ method: 'GET', url: `/api/v1/offers/${offerId}/photos`, headers: { authorization: t.fixture.KEYS.activeA1 } })).json().photos[0];
    expect((await ask()).status).toBe('pending');
    const ready = await until(ask, (p) => p.status === 'ready');
    expect(ready.width).toBe(SIDE);
  });
});
