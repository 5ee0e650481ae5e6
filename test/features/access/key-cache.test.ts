import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { hashKey } from '../../../src/features/access/model.js';
import { ApiKeyCache } from '../../../src/features/access/key-cache.js';
import { findApiKeyByHash, readKeyDirectory } from '../../../src/features/access/read.js';
import { createTestDb, type TestDb } from '../../helpers/db.js';
import { insertFixture, KEY_IDS, KEYS } from '../../helpers/fixtures.js';

describe('API key lookup cache', () => {
  let db: TestDb;
  beforeAll(async () => {
    db = await createTestDb();
    await insertFixture(db.db);
  });
  afterAll(() => db.destroy());

  const setActive = (keyId: string, isActive: boolean) =>
    db.db.updateTable('api_keys').set({ is_active: isActive }).where('key_id', '=', keyId).execute();

  it('trusts a lookup for its time to live, then reads the key again', async () => {
    let now = 1_000_000;
    const cache = new ApiKeyCache({ load: (hash) => findApiKeyByHash(db.db, hash), ttlMs: 2000, maxEntries: 100, now: () => now });
    const hash = hashKey(KEYS.activeA2);
    expect((await cache.lookup(hash))?.is_active).toBe(true);
    await setActive(KEY_IDS.activeA2, false);
    now += 1999;
    expect((await cache.lookup(hash))?.is_active).toBe(true); // still cached
    now += 1;
    expect((await cache.lookup(hash))?.is_active).toBe(false); // read again: deactivation seen
    await setActive(KEY_IDS.activeA2, true);
  });

  it('remembers unknown keys too, and never holds more than its limit', async () => {
    let now = 0;
    let loads = 0;
    const cache = new ApiKeyCache({
      load: (hash) => {
        loads++;
        return findApiKeyByHash(db.db, hash);
      },
      ttlMs: 5000,
      maxEntries: 3,
      now: () => now,
    });
    expect(await cache.lookup(hashKey('nope'))).toBeUndefined();
    expect(await cache.lookup(hashKey('nope'))).toBeUndefined();
    expect(loads).toBe(1);
    for (const key of ['a', 'b', 'c', 'd', 'e']) await cache.lookup(hashKey(key));
    expect(cache.size).toBe(3);
    now += 5000;
    await cache.lookup(hashKey('e'));
    expect(loads).toBe(7);
  });

  it('shares one query between concurrent lookups of the same key', async () => {
    let loads = 0;
    const cache = new ApiKeyCache({
      load: (hash) => {
        loads++;
        return findApiKeyByHash(db.db, hash);
      },
      ttlMs: 2000,
    });
    const hash = hashKey(KEYS.activeA1);
    const results = await Promise.all([cache.lookup(hash), cache.lookup(hash), cache.lookup(hash)]);
    expect(loads).toBe(1);
    expect(results.every((r) => r?.key_id === KEY_IDS.activeA1)).toBe(true);
  });

  it('the app with the default cache still refuses a deactivated key after the time to live', async () => {
    // KEY_CACHE_TTL_MS=1 stands in for "at most 5 s" without making the test wait.
    const app = await buildApp({ config: loadConfig({ KEY_CACHE_TTL_MS: '1' }), db, logger: false });
    try {
      const ask = () => app.inject({ method: 'GET', url: '/api/v1/organization', headers: { authorization: KEYS.expiresLaterA1 } });
      expect((await ask()).statusCode).toBe(200);
      await setActive(KEY_IDS.expiresLaterA1, false);
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect((await ask()).json()).toEqual({ detail: 'API key is not active' });
    } finally {
      await setActive(KEY_IDS.expiresLaterA1, true);
      await app.close();
    }
  });

  describe('with the directory of every key', () => {
    function counted(options: { ttlMs?: number; directoryMaxKeys?: number; now: () => number }) {
      const counts = { loads: 0, directoryReads: 0 };
      const cache = new ApiKeyCache({
        load: (hash) => {
          counts.loads++;
          return findApiKeyByHash(db.db, hash);
        },
        readDirectory: (limit) => {
          counts.directoryReads++;
          return readKeyDirectory(db.db, limit);
        },
        ttlMs: options.ttlMs ?? 2000,
        now: options.now,
        ...(options.directoryMaxKeys !== undefined ? { directoryMaxKeys: options.directoryMaxKeys } : {}),
      });
      return { cache, counts };
    }

    it('refuses any number of different unknown keys with one read of the directory and no per-key query', async () => {
      const { cache, counts } = counted({ now: () => 5_000 });
      for (let i = 0; i < 500; i++) expect(await cache.lookup(hashKey(`ecs_guess_${i}`))).toBeUndefined();
      expect((await cache.lookup(hashKey(KEYS.activeA1)))?.key_id).toBe(KEY_IDS.activeA1);
      expect(counts).toEqual({ loads: 0, directoryReads: 1 });
      expect(cache.size).toBe(0); // nothing remembered per key: a flood cannot fill memory
      expect(cache.peek(hashKey('ecs_another_guess'))).toEqual({ record: undefined }); // answered synchronously
    });

    it('answers as the per-key lookup does, for every key of the database', async () => {
      const { cache } = counted({ now: () => 5_000 });
      const hashes = (await db.db.selectFrom('api_keys').select('key_sha256').execute()).map((r) => r.key_sha256);
      expect(hashes.length).toBeGreaterThan(3);
      for (const hash of hashes) expect(await cache.lookup(hash)).toEqual(await findApiKeyByHash(db.db, hash));
    });

    it('is trusted for its time to live, read ahead half-way, and sees a deactivation after it', async () => {
      let now = 1_000_000;
      const { cache, counts } = counted({ now: () => now });
      const hash = hashKey(KEYS.activeA2);
      expect((await cache.lookup(hash))?.is_active).toBe(true);
      await setActive(KEY_IDS.activeA2, false);
      now += 999;
      expect(cache.peek(hash)?.record?.is_active).toBe(true); // fresh, no read ahead yet
      expect(counts.directoryReads).toBe(1);
      now += 1; // half-way: answered from what is known while the directory is read again
      expect(cache.peek(hash)?.record?.is_active).toBe(true);
      expect(counts.directoryReads).toBe(2);
      await expect.poll(() => cache.peek(hash)?.record?.is_active).toBe(false);
      now += 2000; // older than the time to live: not answered from memory
      expect(cache.peek(hash)).toBeUndefined();
      expect((await cache.lookup(hash))?.is_active).toBe(false);
      await setActive(KEY_IDS.activeA2, true);
      expect(counts.loads).toBe(0);
    });

    it('does not use a read that began before clear()', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let reads = 0;
      const cache = new ApiKeyCache({
        load: (hash) => findApiKeyByHash(db.db, hash),
        readDirectory: async (limit) => {
          reads++;
          const keys = await readKeyDirectory(db.db, limit);
          if (reads === 1) await gate; // the first read is held until after clear()
          return keys;
        },
        ttlMs: 2000,
        now: () => 5_000,
      });
      const hash = hashKey(KEYS.activeA2);
      const first = cache.lookup(hash);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await setActive(KEY_IDS.activeA2, false);
      cache.clear();
      release();
      await first; // answered, but the stale directory is not kept
      expect(cache.directorySize).toBeUndefined();
      expect((await cache.lookup(hash))?.is_active).toBe(false);
      await setActive(KEY_IDS.activeA2, true);
    });

    it('falls back to per-key lookups when the database holds more keys than it keeps', async () => {
      const { cache, counts } = counted({ now: () => 5_000, directoryMaxKeys: 2 });
      expect((await cache.lookup(hashKey(KEYS.activeA1)))?.key_id).toBe(KEY_IDS.activeA1);
      expect(await cache.lookup(hashKey('ecs_guess'))).toBeUndefined();
      expect(cache.directorySize).toBeUndefined();
      expect(counts).toEqual({ loads: 2, directoryReads: 1 }); // not read again for a while
    });
  });
  describe('unknown keys remembered as presented (no hash for the same guess again)', () => {
    const guess = 'ecs_a-guess-no-website-holds-000000000';

    it('per-key: known unknown for exactly as long as the cached "no such key", never for a valid key, forgotten by clear()', async () => {
      let now = 1_000_000;
      const cache = new ApiKeyCache({ load: (hash) => findApiKeyByHash(db.db, hash), ttlMs: 2000, now: () => now });
      expect(cache.knownUnknown(guess)).toBe(false);
      cache.rememberUnknown(guess, hashKey(guess)); // nothing known of it yet: not remembered
      expect(cache.knownUnknown(guess)).toBe(false);
      expect(await cache.lookup(hashKey(guess))).toBeUndefined();
      cache.rememberUnknown(guess, hashKey(guess));
      expect(cache.knownUnknown(guess)).toBe(true);
      // A valid key is never remembered, whatever it is called with.
      expect((await cache.lookup(hashKey(KEYS.activeA1)))?.key_id).toBe(KEY_IDS.activeA1);
      cache.rememberUnknown(KEYS.activeA1, hashKey(KEYS.activeA1));
      expect(cache.knownUnknown(KEYS.activeA1)).toBe(false);
      now += 1999;
      expect(cache.knownUnknown(guess)).toBe(true);
      now += 1; // the cached answer has expired: so has this
      expect(cache.peek(hashKey(guess))).toBeUndefined();
      expect(cache.knownUnknown(guess)).toBe(false);
      expect(await cache.lookup(hashKey(guess))).toBeUndefined();
      cache.rememberUnknown(guess, hashKey(guess));
      expect(cache.knownUnknown(guess)).toBe(true);
      cache.clear(); // keys changed in the database
      expect(cache.knownUnknown(guess)).toBe(false);
    });

    it('with the directory: until its half-way point, and forgotten when a new directory is read', async () => {
      let now = 5_000;
      const cache = new ApiKeyCache({ load: (hash) => findApiKeyByHash(db.db, hash), readDirectory: (limit) => readKeyDirectory(db.db, limit), ttlMs: 2000, now: () => now });
      expect(await cache.lookup(hashKey(guess))).toBeUndefined();
      cache.rememberUnknown(guess, hashKey(guess));
      expect(cache.knownUnknown(guess)).toBe(true);
      now += 999;
      expect(cache.knownUnknown(guess)).toBe(true);
      now += 1; // past half-way: requests go through peek(), which reads the directory ahead
      expect(cache.knownUnknown(guess)).toBe(false);
      cache.rememberUnknown(guess, hashKey(guess));
      expect(cache.knownUnknown(guess)).toBe(false);
      expect(cache.peek(hashKey(guess))).toEqual({ record: undefined });
      await expect.poll(() => {
        cache.rememberUnknown(guess, hashKey(guess)); // remembered again once the new directory is in
        return cache.knownUnknown(guess);
      }).toBe(true);
    });

    it('keeps at most 4,096 texts and none longer than 256 characters', async () => {
      const cache = new ApiKeyCache({ load: (hash) => findApiKeyByHash(db.db, hash), readDirectory: (limit) => readKeyDirectory(db.db, limit), ttlMs: 2000, now: () => 5_000 });
      await cache.lookup(hashKey(guess));
      const long = `ecs_${'x'.repeat(253)}`;
      cache.rememberUnknown(long, hashKey(long));
      expect(cache.knownUnknown(long)).toBe(false);
      const texts = Array.from({ length: 4_097 }, (_, i) => `ecs_guess_${i}`);
      for (const text of texts.slice(0, 4_096)) cache.rememberUnknown(text, hashKey(text));
      expect(texts.slice(0, 4_096).every((text) => cache.knownUnknown(text))).toBe(true);
      cache.rememberUnknown(texts[4_096]!, hashKey(texts[4_096]!)); // full: forgotten all at once
      expect(cache.knownUnknown(texts[0]!)).toBe(false);
      expect(cache.knownUnknown(texts[4_096]!)).toBe(true);
    });
  });
});
