/**
 * mirror: this service as the source (fixture and demo data on one database), a second database as
 * the target. After a mirror every answer of the original interface with the same key is the
 * source's, byte for byte, except an offer's version and updated_at, which start afresh.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInService } from '../../../src/cli/remote.js';
import { serveControlSocket } from '../../../src/cli/control-socket.js';
import { loadDemo } from '../../../src/demo/index.js';
import { hashKey } from '../../../src/features/access/model.js';
import { derivedWebsiteId } from '../../../src/features/mirror/index.js';
import { KEYS, OFFER, ORG_A } from '../../helpers/fixtures.js';
import { dumpDatabase, importObject, offer } from '../../import/helpers.js';
import { answersOf, Capture, createTarget, FAST, idsOf, mirror, startSource, targetApp, withoutVersions } from '../../helpers/mirror-world.js';

let source: Awaited<ReturnType<typeof startSource>>;
beforeAll(async () => {
  source = await startSource();
});
afterAll(() => source.destroy());

const KEY = KEYS.activeA1;

async function expectSameAnswers(target: Parameters<typeof targetApp>[0], key: string, sourceApp = source.app) {
  const ids = await idsOf(sourceApp, key);
  const want = await answersOf(sourceApp, key, ids);
  const got = await answersOf(await targetApp(target), key, ids);
  expect(got.map((a) => a.request)).toEqual(want.map((a) => a.request));
  for (let i = 0; i < want.length; i += 1) {
    const [w, g] = [want[i]!, got[i]!];
    expect({ request: g.request, status: g.status, type: g.type }).toEqual({ request: w.request, status: w.status, type: w.type });
    expect(withoutVersions(g.body), w.request).toBe(withoutVersions(w.body));
  }
  return { want, got, ids };
}

describe('mirror from this service', () => {
  it('copies everything the key sees, ids kept, and the key works on the copy', async () => {
    const target = await createTarget();
    // Two offers a page: the offer list is read in three pages.
    const run = await mirror(target, ['--from', source.url, '--key', KEY, '--json', '--page-size', '2', ...FAST]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    const doc = JSON.parse(run.stdout);
    expect(doc.organizations).toEqual({ created: 1, changed: 0, unchanged: 0 });
    expect(doc.websites).toEqual({ created: 1, changed: 0, unchanged: 0 });
    expect(doc.api_keys).toEqual({ created: 1, changed: 0, unchanged: 0 });
    expect(doc.branches.created).toBe(4);
    expect(doc.agents.created).toBe(4);
    expect(doc.investments.created).toBe(3);
    expect(doc.offers).toEqual({ created: 6, changed: 0, unchanged: 0, pruned: 0 });
    expect(doc.mirror).toMatchObject({ source: source.url, offers_read: 6, pages: 3, retries: 0, warnings: [] });
    expect(doc.mirror.website_id).toBe(derivedWebsiteId(source.url, hashKey(KEY)));
    expect(run.stdout).not.toContain(KEY);

    const { want, got } = await expectSameAnswers(target, KEY);
    // What is not carried: krakowFull is at version 3 in the source and starts at 1 in the target.
    const offerAlone = want.findIndex((a) => a.request.startsWith(`GET /api/v1/offers/${OFFER.krakowFull}`));
    expect(JSON.parse(want[offerAlone]!.body).version).toBe(3);
    expect(JSON.parse(got[offerAlone]!.body).version).toBe(1);
    expect(JSON.parse(got[offerAlone]!.body).created_at).toBe(JSON.parse(want[offerAlone]!.body).created_at);

    // Only the key's hash is stored, on the mirrored website.
    const keys = await sql<{ key_sha256: string; website_id: string; key_prefix: string | null }>`select key_sha256, website_id::text, key_prefix from api_keys`.execute(target.db);
    expect(keys.rows).toEqual([{ key_sha256: hashKey(KEY), website_id: doc.mirror.website_id, key_prefix: null }]);

    // Again: nothing changes, not even the content version.
    const before = await dumpDatabase(target.db);
    const again = await mirror(target, ['--from', `${source.url}/api/v1/`, '--key', KEY, '--json', ...FAST]);
    expect(again.code, again.stderr).toBe(0);
    const second = JSON.parse(again.stdout);
    expect(second.offers).toEqual({ created: 0, changed: 0, unchanged: 6, pruned: 0 });
    expect(second.mirror.website_id).toBe(doc.mirror.website_id);
    expect(await dumpDatabase(target.db)).toEqual(before);
  });

  it('prints the import report and progress for people, never the key', async () => {
    const target = await createTarget();
    const run = await mirror(target, ['--from', source.url, '--key', KEY, '--page-size', '5', ...FAST]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Imported ${source.url.replace(/[.]/g, '\\.')}: 19 records in \\d+\\.\\d s\\n`));
    expect(run.stdout).toMatch(/ {2}offers +6 +0 +0\n/);
    expect(run.stdout).toMatch(/Website [0-9a-f-]{36} answers the same key \(key [0-9a-f-]{36}\)/);
    expect(run.stderr).toContain(`reading ${source.url}: organization "Nieruchomości Wawel", 4 branches, 4 agents, 3 investments`);
    expect(run.stderr).toContain('read offers page 2 of 2 (6 of 6 offers)');
    expect(run.stdout + run.stderr).not.toContain(KEY);
  });

  it('counts one of a kind in the singular ("1 branch", "1 of 1 offer")', async () => {
    const single = await startSource({ seed: false });
    try {
      const org = '5e1f0000-0000-4000-8000-000000000001';
      const branch = '5e1f0000-0000-4000-8000-000000000002';
      const key = `ecs_single${'s'.repeat(33)}`;
      await importObject(single.db.db, {
        organizations: [{ organization_id: org, name: 'Jedno Biuro' }],
        websites: [{ website_id: '5e1f0000-0000-4000-8000-000000000003', organization_id: org, name: 'one.example', api_keys: [{ key, is_active: true }] }],
        branches: [{ branch_id: branch, webpage_id: branch, organization_id: org, name: 'Biuro' }],
        agents: [{ agent_id: '5e1f0000-0000-4000-8000-000000000004', organization_id: org, branch_id: branch, last_name: 'Nowak' }],
        investments: [{ investment_id: '5e1f0000-0000-4000-8000-000000000005', organization_id: org, name: 'Osiedle' }],
        offers: [offer('5e1f0000-0000-4000-8000-000000000006', org, 1)],
      });
      const run = await mirror(await createTarget(), ['--from', single.url, '--key', key, ...FAST]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(`reading ${single.url}: organization "Jedno Biuro", 1 branch, 1 agent, 1 investment\n`);
      expect(run.stderr).toContain('read offers page 1 of 1 (1 of 1 offer)\n');
      expect(run.stdout).toMatch(/: 6 records in \d+\.\d s\n/);
    } finally {
      await single.destroy();
    }
  });

  it('fills the website named by --website-id, and the key keeps its website and state after', async () => {
    const target = await createTarget();
    const websiteId = '0e5a0000-0000-4000-8000-0000000000aa';
    const first = await mirror(target, ['--from', source.url, '--key', KEY, '--website-id', websiteId.toUpperCase(), '--json', ...FAST]);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).mirror.website_id).toBe(websiteId);
    const website = await sql<{ name: string; organization_id: string }>`select name, organization_id::text from websites`.execute(target.db);
    expect(website.rows).toEqual([{ name: 'Nieruchomości Wawel (mirror of 127.0.0.1:' + new URL(source.url).port + ')', organization_id: ORG_A }]);

    // The operator renames the website, limits it to a scope and labels the key; a later mirror
    // (without --website-id) finds the website by the key and keeps all of it.
    const scope = JSON.stringify({ offer_types: ['APARTMENT_SALES'] });
    await sql`update websites set name = 'wawel.example.com', scope = ${scope}::jsonb`.execute(target.db);
    await sql`update api_keys set label = 'www', expires_at = '2999-01-01T00:00:00.5Z'`.execute(target.db);
    const again = await mirror(target, ['--from', source.url, '--key', KEY, '--json', ...FAST]);
    expect(again.code, again.stderr).toBe(0);
    const doc = JSON.parse(again.stdout);
    expect(doc.mirror.website_id).toBe(websiteId);
    expect(doc.websites).toEqual({ created: 0, changed: 0, unchanged: 1 });
    expect(doc.api_keys).toEqual({ created: 0, changed: 0, unchanged: 1 });
    const kept = await sql<{ scope: unknown }>`select scope from websites`.execute(target.db);
    expect(kept.rows).toEqual([{ scope: { offer_types: ['APARTMENT_SALES'] } }]);
  });

  it('--prune makes offers the source no longer lists inactive; without it they stay', async () => {
    const own = await startSource();
    const target = await createTarget();
    expect((await mirror(target, ['--from', own.url, '--key', KEY, '--json', ...FAST])).code).toBe(0);
    await sql`update offers set is_active = false where offer_id = ${OFFER.gdansk}`.execute(own.db.db);
    const row = await sql<{ json: string }>`select offer_data_json as json from offers where offer_id = ${OFFER.warszawa}`.execute(own.db.db);
    const changed = JSON.stringify({ ...JSON.parse(row.rows[0]!.json), price: 1 });
    await sql`update offers set offer_data = ${changed}::jsonb, offer_data_json = ${changed} where offer_id = ${OFFER.warszawa}`.execute(own.db.db);

    const app = await targetApp(target);
    const gdansk = () => app.inject({ method: 'GET', url: `/api/v1/offers/${OFFER.gdansk}`, headers: { authorization: KEY } });

    const plain = await mirror(target, ['--from', own.url, '--key', KEY, '--json', ...FAST]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(JSON.parse(plain.stdout).offers).toEqual({ created: 0, changed: 1, unchanged: 4, pruned: 0 });
    expect((await gdansk()).statusCode).toBe(200);

    const pruned = await mirror(target, ['--from', own.url, '--key', KEY, '--prune', '--json', ...FAST]);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(JSON.parse(pruned.stdout).offers).toEqual({ created: 0, changed: 0, unchanged: 5, pruned: 1 });
    expect((await gdansk()).statusCode).toBe(404);
    await expectSameAnswers(target, KEY, own.app);
    await own.destroy();
  });

  it('refuses wrong usage before reading anything', async () => {
    const target = await createTarget();
    const before = await dumpDatabase(target.db);
    expect((await mirror(target, ['--from', source.url])).code).toBe(2);
    expect((await mirror(target, ['--from', source.url, '--key', KEY, '--website-id', 'nope'])).code).toBe(2);
    expect((await mirror(target, ['--from', source.url, '--key', KEY, '--page-size', '101'])).code).toBe(2);
    const ftp = await mirror(target, ['--from', 'ftp://example.com', '--key', KEY, '--json']);
    expect(ftp.code).toBe(1);
    expect(JSON.parse(ftp.stdout)).toEqual({ error: '--from: expected an http or https URL, got ftp:' });
    const secret = await mirror(target, ['--from', 'http://user:pw@127.0.0.1:1', '--key', KEY]);
    expect(secret.code).toBe(1);
    expect(secret.stderr).toBe('error: --from: the URL must not hold a user name or password (the key is given with --key)\n');
    expect(await dumpDatabase(target.db)).toEqual(before);
  });
});

describe('mirror of a full catalogue', () => {
  it('moves the demo agency (several pages of 100) between two databases', async () => {
    const demoSource = await startSource({ seed: false });
    const demo = await loadDemo(demoSource.db.db);
    const target = await createTarget();
    const run = await mirror(target, ['--from', demoSource.url, '--key', demo.key, '--json', ...FAST]);
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout);
    const { ids } = await expectSameAnswers(target, demo.key, demoSource.app);
    expect(ids.offers.length).toBeGreaterThan(200); // the active ones of the 300
    expect(doc.offers.created).toBe(ids.offers.length);
    expect(doc.mirror.pages).toBe(Math.ceil(ids.offers.length / 100));
    await demoSource.destroy();
  });
});

describe('mirror through the control socket of a running embedded service', () => {
  it('runs in the service, with the same output and exit status', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-mirror-socket-'));
    const target = await createTarget();
    let refreshed = 0;
    const quiet = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;
    const socket = await serveControlSocket({ dataDir: tmp, database: target, afterCommand: async () => void (refreshed += 1), log: quiet });
    try {
      const stdout = new Capture();
      const stderr = new Capture();
      const command = (argv: string[]) => runInService(socket!.path, { argv, cwd: process.cwd(), stderrTTY: false }, { stdout, stderr });
      expect(await command(['mirror', '--from', source.url, '--key', KEY, '--json', ...FAST]), stderr.text).toBe(0);
      expect(JSON.parse(stdout.text).offers.created).toBe(6);
      expect(refreshed).toBe(1);
      await expectSameAnswers(target, KEY);

      stdout.text = '';
      expect(await command(['mirror', '--from', source.url, '--key', KEYS.unknown, '--json', ...FAST])).toBe(1);
      expect(JSON.parse(stdout.text).error).toBe(`the source refused the key: 401 Invalid API key (GET ${source.url}/api/v1/organization)`);
    } finally {
      await socket!.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
