/**
 * A re-import never widens a microsite by saying nothing: through the command line (in-process,
 * on the app's database) and the API with the website's key. A scope set with `websites scope`
 * survives a re-import of a bundle whose website record has no `scope` (and keys survive a record
 * without `api_keys`); an explicit scope (or
 * null) in the bundle changes it, the import's report says so (table and --json), and the change
 * feed and the webhook outbox follow.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { buildTestApp, get, post, type TestApp } from '../helpers/app.js';
import { offer, tmpFile, type Bundle } from '../import/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ seed: false });
});
afterAll(() => t.destroy());

class Capture {
  text = '';
  write(chunk: string) {
    this.text += chunk;
    return true;
  }
}

async function cli(args: string[]) {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await runCli(args, { env: {}, stdout, stderr, database: t.db });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** An agency with two branches: offers 0 and 1 in the first, offer 2 in the second; one website with a key. */
function agency() {
  const ids = { org: randomUUID(), website: randomUUID(), branch1: randomUUID(), branch2: randomUUID(), offers: [randomUUID(), randomUUID(), randomUUID()] };
  const key = `ecs_${randomUUID().replace(/-/g, '')}${'k'.repeat(11)}`;
  const bundle: Bundle = {
    organizations: [{ organization_id: ids.org, name: 'Agency' }],
    websites: [{ website_id: ids.website, organization_id: ids.org, name: 'www.agency.example', api_keys: [{ key, is_active: true, label: 'www' }] }],
    branches: [ids.branch1, ids.branch2].map((branch_id, n) => ({ branch_id, webpage_id: randomUUID(), organization_id: ids.org, name: `Branch ${n + 1}` })),
    offers: ids.offers.map((id, n) => offer(id, ids.org, n, { branch_id: n < 2 ? ids.branch1 : ids.branch2 })),
  };
  return { ids, key, bundle };
}

const seen = async (key: string): Promise<string[]> => {
  const res = await post(t, '/api/v1/offers', { pagination: { page: 1, size: 100 } }, { key });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: Array<{ offer_id: string }> }).items.map((o) => o.offer_id).sort();
};

const feedSince = async (key: string, since: string) => {
  const res = await get(t, `/api/v1/changes?since=${since}&limit=1000`, { key });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { changes: Array<{ kind: string; id: string; op: string }>; next_cursor: string };
};

const headOf = async (key: string) => (await get(t, '/api/v1/changes?limit=1000', { key })).json().next_cursor as string;

describe('a re-import and the scope set on the command line', () => {
  it('a bundle without scope leaves the scope as it is; the key keeps seeing only its branch', async () => {
    const { ids, key, bundle } = agency();
    const file = tmpFile(`agency-${ids.org}.json`, JSON.stringify(bundle));
    expect((await cli(['import', file])).code).toBe(0);
    expect(await seen(key)).toEqual([...ids.offers].sort());

    const scoped = await cli(['websites', 'scope', '--website', ids.website, '--branch', ids.branch1]);
    expect(scoped.code, scoped.stderr).toBe(0);
    const inBranch1 = ids.offers.slice(0, 2).sort();
    expect(await seen(key)).toEqual(inBranch1);

    // The nightly re-import of the same export, which knows nothing of the scope.
    const again = await cli(['import', file]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/ {2}websites +0 +0 +1\n/);
    expect(again.stdout).not.toContain('now sees');
    expect(again.stdout).toContain('Nothing changed');
    expect(await seen(key)).toEqual(inBranch1);

    const json = await cli(['import', file, '--json']);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout);
    expect(doc.websites).toEqual({ created: 0, changed: 0, unchanged: 1 });
    expect(doc.scope_changes).toEqual([]);
    expect(await seen(key)).toEqual(inBranch1);

    // A renamed website is still written, and still keeps its scope.
    const renamed = { ...bundle, websites: [{ ...bundle.websites![0]!, name: 'agency.example' }] };
    const rename = await cli(['import', tmpFile(`renamed-${ids.org}.json`, JSON.stringify(renamed)), '--json']);
    expect(JSON.parse(rename.stdout)).toMatchObject({ websites: { created: 0, changed: 1, unchanged: 0 }, scope_changes: [] });
    expect(await seen(key)).toEqual(inBranch1);
    const listed = JSON.parse((await cli(['websites', 'list', '--organization', ids.org, '--json'])).stdout);
    expect(listed).toEqual([expect.objectContaining({ name: 'agency.example', scope: { branch_ids: [ids.branch1] } })]);

    // A record without api_keys leaves the website's keys alone: the bundle's and one made here.
    const made = JSON.parse((await cli(['keys', 'create', '--website', ids.website, '--json'])).stdout) as { key: string };
    const noKeys = { ...bundle, websites: [{ website_id: ids.website, organization_id: ids.org, name: 'agency.example' }] };
    const keysKept = await cli(['import', tmpFile(`no-keys-${ids.org}.json`, JSON.stringify(noKeys)), '--json']);
    expect(JSON.parse(keysKept.stdout)).toMatchObject({ websites: { unchanged: 1 }, api_keys: { created: 0, changed: 0, unchanged: 0 }, scope_changes: [] });
    expect(await seen(key)).toEqual(inBranch1);
    expect(await seen(made.key)).toEqual(inBranch1);
  });

  it('an explicit scope or null in the bundle changes it: the report names the website, the feed and the webhooks follow', async () => {
    const { ids, key, bundle } = agency();
    const file = tmpFile(`agency-${ids.org}.json`, JSON.stringify(bundle));
    expect((await cli(['import', file])).code).toBe(0);
    expect((await cli(['websites', 'scope', '--website', ids.website, '--branch', ids.branch1])).code).toBe(0);
    const hook = await cli(['webhooks', 'add', '--website', ids.website, '--url', 'https://hooks.agency.example/rebuild', '--json']);
    expect(hook.code, hook.stderr).toBe(0);
    const endpoint = JSON.parse(hook.stdout).endpoint_id as string;
    const cursor = await headOf(key);

    // The bundle moves the website to the other branch.
    const toBranch2 = { ...bundle, websites: [{ ...bundle.websites![0]!, scope: { branch_ids: [ids.branch2] } }] };
    const moved = await cli(['import', tmpFile(`branch2-${ids.org}.json`, JSON.stringify(toBranch2))]);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toMatch(/ {2}websites +0 +1 +0\n/);
    expect(moved.stdout).toContain(`Website ${ids.website} now sees: branches ${ids.branch2} (it saw: branches ${ids.branch1}).\n`);
    expect(await seen(key)).toEqual([ids.offers[2]]);
    const feed = await feedSince(key, cursor);
    expect(feed.changes.filter((c) => c.kind === 'offer').map((c) => [c.id, c.op]).sort()).toEqual(
      [[ids.offers[0], 'delete'], [ids.offers[1], 'delete'], [ids.offers[2], 'upsert']].sort(),
    );
    const deliveries = JSON.parse((await cli(['webhooks', 'deliveries', '--endpoint', endpoint, '--json'])).stdout) as Array<{ event_type: string }>;
    expect(deliveries.map((d) => d.event_type)).toEqual(['content.changed']);

    // null clears it, and --json says so.
    const cleared = { ...bundle, websites: [{ ...bundle.websites![0]!, scope: null }] };
    const clear = await cli(['import', tmpFile(`cleared-${ids.org}.json`, JSON.stringify(cleared)), '--json']);
    expect(clear.code, clear.stderr).toBe(0);
    expect(JSON.parse(clear.stdout).scope_changes).toEqual([{ website_id: ids.website, previous_scope: { branch_ids: [ids.branch2] }, scope: null }]);
    expect(await seen(key)).toEqual([...ids.offers].sort());
    const back = await feedSince(key, feed.next_cursor);
    expect(back.changes.filter((c) => c.kind === 'offer').map((c) => [c.id, c.op]).sort()).toEqual(
      [[ids.offers[0], 'upsert'], [ids.offers[1], 'upsert']].sort(),
    );
  });
});
