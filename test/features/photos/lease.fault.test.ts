/**
 * A fetcher that dies loses no photo: the real service (`dist/server.js`) is killed (SIGKILL) while
 * it holds the claim of a source whose origin has not answered yet. Nothing hands the claim back;
 * the source stays pending under the dead instance's lease, and another instance on the same
 * database fetches it once the lease has ended, not before.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { openDatabase, type DbHandle } from '../../../src/db/connect.js';
import { FETCH_LEASE_MARGIN_MS } from '../../../src/features/photos/photo-fetcher.js';
import { FETCH_TIMEOUT_MS } from '../../../src/features/photos/model.js';
import { ORG_A, uid } from '../../helpers/fixtures.js';
import { startImageOrigin, type ImageOrigin } from '../../helpers/image-origin.js';
import { prepareDatabase, startServer, type PreparedDatabase } from '../../helpers/processes.js';
import { closeAfterFile } from '../../helpers/teardown.js';
import { importObject, offer } from '../../import/helpers.js';
import { FULL_LENGTH } from '../../helpers/scale.js';

/** Real processes start slowly on a busy machine; the lease alone is FETCH_TIMEOUT_MS + FETCH_LEASE_MARGIN_MS. */
const TEST_TIMEOUT_MS = 240_000;
const LEASE_MS = FETCH_TIMEOUT_MS + FETCH_LEASE_MARGIN_MS;
/**
 * How much of the dead instance's lease `npm test` waits out: the lease it wrote is cut to this
 * (the claim respects whatever locked_until says, so "not before it ends" is shown the same);
 * TEST_FULL=1 waits the whole LEASE_MS (30 s).
 */
const REMAINING_LEASE_MS = 2_000;

let database: PreparedDatabase;
let env: Record<string, string | undefined>;
let origin: ImageOrigin;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-photo-lease-'));

const open = (): Promise<DbHandle> =>
  openDatabase(database.env.DATABASE_URL ? { databaseUrl: database.env.DATABASE_URL, poolMax: 2 } : { dataDir: database.env.DATA_DIR });

async function sourceRow(handle: DbHandle, url: string) {
  return handle.db.selectFrom('photo_sources').selectAll().where('url', '=', url).executeTakeFirstOrThrow();
}

async function until<T>(what: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  database = await prepareDatabase();
  env = { DATABASE_URL: undefined, DATA_DIR: undefined, ...database.env };
  origin = await startImageOrigin();
}, TEST_TIMEOUT_MS);
afterAll(async () => {
  await database?.destroy();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('a photo fetcher killed mid-fetch', () => {
  it('keeps the source pending under its lease; another instance fetches it once the lease has ended', async () => {
    const url = origin.url('/held.jpg');
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#558833' } }).jpeg().toBuffer();
    // The origin holds its answer far longer than the lease: the first instance is on the wire when it dies.
    origin.answers.set('/held.jpg', { kind: 'bytes', body: photo, delayMs: 10 * 60_000 });
    const record = offer(uid('0ffe', 1), ORG_A, 1);
    (record.offer_data as Record<string, unknown>).photos_urls = [url];
    (record.offer_data as Record<string, unknown>).floor_plan_urls = [];
    const before = await open();
    await importObject(before.db, { offers: [record] });
    await before.close(); // the embedded database is the server's alone while it runs

    const imageEnv = { IMAGE_SOURCES: origin.origin, IMAGE_FETCH_POLL_MS: '50' };
    const first = await startServer({ ...env, ...imageEnv, IMAGE_CACHE_DIR: path.join(tmp, 'first') });
    await until(async () => origin.hits.get('/held.jpg') ?? 0, (n) => n >= 1, 120_000);
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    const handle = await open();
    closeAfterFile(() => handle.close());
    const held = await sourceRow(handle, url);
    expect([held.status, held.attempts]).toEqual(['pending', 1]);
    expect(held.locked_until).not.toBeNull();
    const writtenLeaseEnd = new Date(held.locked_until as unknown as string | Date);
    const { rows } = await sql<{ now: Date | string }>`select now() as now`.execute(handle.db);
    const claimedAt = writtenLeaseEnd.getTime() - LEASE_MS;
    expect(new Date(rows[0]!.now).getTime()).toBeGreaterThanOrEqual(claimedAt);
    if (!FULL_LENGTH) {
      await sql`update photo_sources set locked_until = least(locked_until, now() + ${REMAINING_LEASE_MS} * interval '1 millisecond') where url = ${url}`.execute(handle.db);
    }
    const leaseEnd = new Date((await sourceRow(handle, url)).locked_until as unknown as string | Date);

    // Another instance, the origin now answering at once.
    origin.answers.set('/held.jpg', { kind: 'bytes', body: photo });
    const config = loadConfig({ ...imageEnv, IMAGE_CACHE_DIR: path.join(tmp, 'second'), KEY_CACHE_TTL_MS: '0', LOG_LEVEL: 'silent', ...(database.env.DATABASE_URL ? { DATABASE_URL: database.env.DATABASE_URL } : {}) });
    const second = await buildApp({ config, db: handle, logger: false });
    closeAfterFile(() => second.close());
    await second.ready();

    const ready = await until(() => sourceRow(handle, url), (row) => row.status === 'ready', LEASE_MS + 120_000);
    expect([ready.width, ready.height, ready.attempts]).toEqual([640, 480, 2]);
    // Fetched again only after the dead instance's lease had ended.
    expect(new Date(ready.fetched_at as unknown as string | Date).getTime()).toBeGreaterThanOrEqual(leaseEnd.getTime());
    expect(origin.hits.get('/held.jpg')).toBe(2);
    expect(second.services.photos.fetcher.finished).toBe(1);
    await second.close();
  }, TEST_TIMEOUT_MS);
});
