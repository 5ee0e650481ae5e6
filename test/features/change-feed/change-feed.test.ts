import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import * as changeFeedMigration from '../../../src/db/migrations/2026_11_24_0006_change_feed.js';
import * as changeEntryMigration from '../../../src/db/migrations/2026_11_25_0014_change_entry_json.js';
import { decodeCursor } from '../../../src/features/change-feed/model.js';
import { purgeTombstones, recordWebsiteChanges } from '../../../src/features/change-feed/write.js';
import { createTestDb, type TestDb } from '../../helpers/db.js';
import { insertFixture, OFFER, ORG_A, ORG_B, WEBSITE_A1, WEBSITE_A2, WEBSITE_B1 } from '../../helpers/fixtures.js';
import { importObject, smallBundle } from '../../import/helpers.js';
import { IMPORT_LOCK_KEY } from '../../../src/import/index.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
  await insertFixture(t.db);
});
afterAll(() => t.destroy());

const rows = async (websiteId: string) =>
  (
    await sql<{ kind: string; entity_id: string; op: string; version: number; seq: string }>`
      select c.kind, c.entity_id::text, c.op, c.version, c.seq::text from website_changes c where c.website_id = ${websiteId} order by c.seq`.execute(t.db)
  ).rows;

async function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { env, stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, database: t });
  return { code, stdout, stderr };
}

describe('change feed writes', () => {
  it('the migration gives websites that existed before it their initial feed', async () => {
    expect(await rows(WEBSITE_A1)).toEqual([]); // the fixture is written without the import
    // Undone and done again in order: the later migration that adds a column to the feed comes off first.
    await changeEntryMigration.down(t.db);
    await changeFeedMigration.down(t.db);
    await changeFeedMigration.up(t.db);
    await changeEntryMigration.up(t.db);
    const a1 = await rows(WEBSITE_A1);
    expect(a1.map((r) => r.kind)).toEqual([
      'organization', ...Array(4).fill('branch'), ...Array(4).fill('agent'), ...Array(3).fill('investment'), ...Array(6).fill('offer'),
    ]);
    expect(a1.every((r) => r.op === 'upsert')).toBe(true);
    expect(a1.map((r) => r.entity_id)).not.toContain(OFFER.inactive);
    expect((await rows(WEBSITE_A2)).map((r) => r.entity_id)).toEqual(a1.map((r) => r.entity_id));
    expect((await rows(WEBSITE_B1)).map((r) => r.entity_id)).toContain(ORG_B);
    // Nothing to catch up on afterwards.
    expect(await t.db.transaction().execute((trx) => recordWebsiteChanges(trx, [ORG_A, ORG_B]))).toEqual([]);
  });

  it('summarizes each changed website with its new head cursor', async () => {
    await sql`update offers set version = version + 1, updated_at = now() where offer_id = ${OFFER.krakowFull}`.execute(t.db);
    await sql`update offers set is_active = false, version = version + 1, updated_at = now() where offer_id = ${OFFER.krakowCheap}`.execute(t.db);
    const summaries = await t.db.transaction().execute((trx) => recordWebsiteChanges(trx, [ORG_A]));
    expect(summaries.map((s) => s.websiteId)).toEqual([WEBSITE_A1, WEBSITE_A2]);
    for (const summary of summaries) {
      expect(summary.counts).toEqual({ offer: { upsert: 1, delete: 1 } });
      const feed = await rows(summary.websiteId);
      expect(decodeCursor(summary.cursor)).toBe(feed.at(-1)!.seq);
      expect(feed.slice(-2).map((r) => [r.entity_id, r.op])).toEqual([[OFFER.krakowFull, 'upsert'], [OFFER.krakowCheap, 'delete']]);
    }
    // One row per entity: the changed offer moved to the end instead of appearing twice.
    expect((await rows(WEBSITE_A1)).filter((r) => r.entity_id === OFFER.krakowFull)).toHaveLength(1);
  });

  it('purges deletes past the retention and raises the floor of their websites only', async () => {
    const deleted = (await rows(WEBSITE_A1)).find((r) => r.op === 'delete')!;
    expect(await t.db.transaction().execute((trx) => purgeTombstones(trx, 30))).toBe(0);
    await sql`update website_changes set changed_at = now() - interval '30 days 1 minute' where op = 'delete'`.execute(t.db);
    expect(await t.db.transaction().execute((trx) => purgeTombstones(trx, 31))).toBe(0);
    expect(await t.db.transaction().execute((trx) => purgeTombstones(trx, 30))).toBe(2);
    const floors = await sql<{ website_id: string; floor_seq: string }>`
      select website_id::text, floor_seq::text from website_feeds order by website_id`.execute(t.db);
    expect(floors.rows.map((r) => r.website_id)).toEqual([WEBSITE_A1, WEBSITE_A2]);
    expect(floors.rows[0]!.floor_seq).toBe(deleted.seq);
    expect((await rows(WEBSITE_A1)).some((r) => r.op === 'delete')).toBe(false);
  });

  it('an import records its changes and purges old deletes (FEED_RETENTION_DAYS through the command line)', async () => {
    const { bundle, ids } = smallBundle();
    const first = await importObject(t.db, bundle);
    expect(first.feed).toEqual([
      expect.objectContaining({ websiteId: ids.website, counts: { organization: { upsert: 1, delete: 0 }, branch: { upsert: 1, delete: 0 }, agent: { upsert: 1, delete: 0 }, investment: { upsert: 1, delete: 0 }, offer: { upsert: 3, delete: 0 } } }),
    ]);
    expect((await importObject(t.db, bundle)).feed).toEqual([]);
    const pruned = await importObject(t.db, { ...bundle, offers: bundle.offers!.slice(0, 1) }, { prune: true });
    expect(pruned.feed[0]!.counts).toEqual({ offer: { upsert: 0, delete: 2 } });
    await sql`update website_changes set changed_at = now() - interval '3 days' where op = 'delete'`.execute(t.db);
    const purge = await cli(['feed', 'purge', '--json'], { FEED_RETENTION_DAYS: '2' });
    expect(purge.code, purge.stderr).toBe(0);
    expect(JSON.parse(purge.stdout)).toEqual({ purged: 2, retention_days: 2 });
    expect((await cli(['feed', 'purge'], { FEED_RETENTION_DAYS: '2' })).stdout).toBe('Purged 0 change-feed deletes older than 2 days.\n');
    expect((await cli(['feed', 'purge'], { FEED_RETENTION_DAYS: '0' })).code).toBe(1);
  });

  it('feed purge waits for no import: busy while one holds the lock', async () => {
    if (!t.url) return; // the embedded database has one connection: no second session to hold the lock
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: t.url });
    await client.connect();
    try {
      await client.query('begin');
      await client.query(`select pg_advisory_xact_lock(${IMPORT_LOCK_KEY})`);
      const busy = await cli(['feed', 'purge']);
      expect(busy.code).toBe(1);
      expect(busy.stderr).toMatch(/an import is running/);
    } finally {
      await client.query('rollback');
      await client.end();
    }
  });
});
