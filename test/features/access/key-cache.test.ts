import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { hashKey } from '../../../src/features/access/model.js';
import { ApiKeyCache } from '../../../src/features/access/key-cache.js';
import { findApiKeyByHash } from '../../../src/features/access/read.js';
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
    const cache = new ApiKeyCache((hash) => findApiKeyByHash(db.db, hash), 2000, 100, () => now);
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
    const cache = new ApiKeyCache(
      (hash) => {
        loads++;
        return findApiKeyByHash(db.db, hash);
      },
      5000,
      3,
      () => now,
    );
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
    const cache = new ApiKeyCache(
      (hash) => {
        loads++;
        return findApiKeyByHash(db.db, hash);
      },
      2000,
    );
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
});
