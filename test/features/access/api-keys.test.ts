import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { generateKey, hashKey } from '../../../src/features/access/model.js';
import { createKey, KeyManagementError, listKeys, setKeyActive } from '../../../src/features/access/write.js';
import { createTestDb, type TestDb } from '../../helpers/db.js';
import { dumpDatabase, importObject, resetDatabase, smallBundle } from '../../import/helpers.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.destroy());
beforeEach(() => resetDatabase(t.db));

async function storedKey(keyId: string) {
  return t.db.selectFrom('api_keys').selectAll().where('key_id', '=', keyId).executeTakeFirstOrThrow();
}

describe('API keys in a bundle', () => {
  it('imports a key given as key_sha256: the key it hashes authenticates', async () => {
    const { key, sha256 } = generateKey();
    const keyId = randomUUID();
    const { bundle, ids } = smallBundle();
    bundle.websites![0]!.api_keys = [{ key_id: keyId, key_sha256: sha256, is_active: true, label: 'from CRM' }];
    const report = await importObject(t.db, bundle);
    expect(report.counts.api_keys).toEqual({ created: 1, changed: 0, unchanged: 0 });
    const row = await storedKey(keyId);
    expect(row.key_sha256).toBe(hashKey(key));
    expect(row.website_id).toBe(ids.website);
    expect(row.key_prefix).toBeNull();
    expect(row.label).toBe('from CRM');
  });

  it('imports a plain key as its hash and prefix only', async () => {
    const { key } = generateKey();
    const { bundle } = smallBundle();
    bundle.websites![0]!.api_keys = [{ key, is_active: true, expires_at: '2030-01-01T00:00:00Z' }];
    await importObject(t.db, bundle);
    const [summary] = await listKeys(t.db);
    const row = await storedKey(summary!.key_id);
    expect(row.key_sha256).toBe(hashKey(key));
    expect(row.key_prefix).toBe(key.slice(0, 12));
    expect(row.expires_at).toBe('2030-01-01 00:00:00+00');
    expect(JSON.stringify(await dumpDatabase(t.db))).not.toContain(key);
    // Without a key_id the same key keeps its id on every import.
    expect((await importObject(t.db, bundle)).counts.api_keys).toEqual({ created: 0, changed: 0, unchanged: 1 });
    expect(await listKeys(t.db)).toHaveLength(1);
    // Given later by hash alone, it keeps its prefix.
    bundle.websites![0]!.api_keys = [{ key_sha256: hashKey(key), is_active: false, expires_at: '2030-01-01T00:00:00Z' }];
    expect((await importObject(t.db, bundle)).counts.api_keys).toEqual({ created: 0, changed: 1, unchanged: 0 });
    const after = await storedKey(summary!.key_id);
    expect(after.key_prefix).toBe(key.slice(0, 12));
    expect(after.is_active).toBe(false);
  });
});

describe('key management', () => {
  it('creates a key shown once and stores only its hash', async () => {
    const { bundle, ids } = smallBundle();
    await importObject(t.db, bundle);
    const created = await createKey(t.db, { websiteId: ids.website.toUpperCase(), label: 'site' });
    expect(created.key).toMatch(/^ecs_[A-Za-z0-9_-]{43}$/);
    expect(created.website_id).toBe(ids.website);
    expect(created.status).toBe('active');
    const row = await storedKey(created.key_id);
    expect(row.key_sha256).toBe(hashKey(created.key));
    expect(row.key_prefix).toBe(created.key.slice(0, 12));
    expect(JSON.stringify(await dumpDatabase(t.db))).not.toContain(created.key);
  });

  it('lists keys without secrets or hashes, with their status', async () => {
    const { bundle, ids } = smallBundle();
    await importObject(t.db, bundle);
    const created = await createKey(t.db, { websiteId: ids.website, expiresAt: '2099-12-31T23:59:59Z' });
    const expired = await createKey(t.db, { websiteId: ids.website, label: 'old' });
    await sql`update api_keys set expires_at = now() - interval '1 day' where key_id = ${expired.key_id}`.execute(t.db);
    const keys = await listKeys(t.db, { websiteId: ids.website });
    expect(keys.map((k) => [k.key_id, k.status])).toEqual([
      [created.key_id, 'active'],
      [expired.key_id, 'expired'],
    ]);
    expect(keys[0]!.expires_at).toBe('2099-12-31T23:59:59Z');
    expect(Object.keys(keys[0]!).sort()).toEqual(
      ['created_at', 'expires_at', 'is_active', 'key_id', 'key_prefix', 'label', 'last_used_at', 'status', 'website_id'].sort(),
    );
    const text = JSON.stringify(keys);
    for (const k of [created, expired]) {
      expect(text).not.toContain(k.key);
      expect(text).not.toContain(hashKey(k.key));
    }
  });

  it('deactivates and activates keys', async () => {
    const { bundle, ids } = smallBundle();
    await importObject(t.db, bundle);
    const created = await createKey(t.db, { websiteId: ids.website });
    expect(await setKeyActive(t.db, created.key_id, false)).toMatchObject({ is_active: false, status: 'inactive', changed: true });
    expect(await setKeyActive(t.db, created.key_id, false)).toMatchObject({ is_active: false, changed: false });
    expect((await storedKey(created.key_id)).is_active).toBe(false);
    expect(await setKeyActive(t.db, created.key_id, true)).toMatchObject({ is_active: true, status: 'active', changed: true });
  });

  it('says clearly what is wrong', async () => {
    const { bundle, ids } = smallBundle();
    await importObject(t.db, bundle);
    const unknown = randomUUID();
    await expect(createKey(t.db, { websiteId: unknown })).rejects.toThrow(new KeyManagementError(`unknown website ${unknown}`));
    await expect(createKey(t.db, { websiteId: 'site-1' })).rejects.toThrow('website id must be a UUID, got "site-1"');
    await expect(createKey(t.db, { websiteId: ids.website, expiresAt: 'tomorrow' })).rejects.toThrow(/expires-at must be an RFC 3339 date-time/);
    await expect(createKey(t.db, { websiteId: ids.website, expiresAt: '2001-01-01T00:00:00Z' })).rejects.toThrow(/is in the past/);
    await expect(listKeys(t.db, { websiteId: unknown })).rejects.toThrow(`unknown website ${unknown}`);
    await expect(setKeyActive(t.db, unknown, false)).rejects.toThrow(`unknown key ${unknown}`);
  });
});
