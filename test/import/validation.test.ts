import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ImportRejectedError } from '../../src/import/index.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { dumpDatabase, importObject, importText, offer, problemsOf, resetDatabase, smallBundle, toNdjson, type Bundle } from './helpers.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.destroy());
beforeEach(() => resetDatabase(t.db));

/** Record numbers of a smallBundle in a JSON bundle: org 1, website 2, branch 3, agent 4, investment 5, offers 6.. */
const OFFER_RECORD = 6;

describe('field types (JSON bundle paths)', () => {
  it('reports a wrong type with record number, path and the value (JSON, shortened)', async () => {
    const { bundle } = smallBundle();
    (bundle.offers![1]!.offer_data as Record<string, unknown>).price = '850 000 zł';
    (bundle.offers![1]!.offer_data as Record<string, unknown>).title = { pl: 'x'.repeat(200) };
    (bundle.offers![1]!.offer_data as Record<string, unknown>).rooms = null;
    (bundle.offers![1]!.offer_data as Record<string, unknown>).has_balcony = 'tak';
    bundle.offers![1]!.external_id = null;
    expect(await problemsOf(importObject(t.db, bundle))).toEqual([
      `record ${OFFER_RECORD + 1} offers[1].external_id: expected string, got null`,
      `record ${OFFER_RECORD + 1} offers[1].offer_data.price: expected number, got string "850 000 zł"`,
      `record ${OFFER_RECORD + 1} offers[1].offer_data.has_balcony: expected boolean, got string "tak"`,
      `record ${OFFER_RECORD + 1} offers[1].offer_data.title: expected string, got object {"pl":"${'x'.repeat(50)}...`,
    ]);
  });

  it('suggests the field meant by an unknown one, as the API does', async () => {
    const { bundle } = smallBundle();
    const data = bundle.offers![0]!.offer_data as Record<string, unknown>;
    data.adress_city = 'Kraków';
    data.city = 'Kraków';
    data.zzzzzz = 1;
    bundle.agents![0]!.frist_name = 'Anna';
    expect(await problemsOf(importObject(t.db, bundle))).toEqual([
      "record 4 agents[0].frist_name: unknown field; did you mean 'first_name'?",
      `record ${OFFER_RECORD} offers[0].offer_data.adress_city: unknown field; did you mean 'address_city'?`,
      `record ${OFFER_RECORD} offers[0].offer_data.city: unknown field; did you mean 'address_city'?`,
      `record ${OFFER_RECORD} offers[0].offer_data.zzzzzz: unknown field`,
    ]);
  });

  it('never shows the value given as a plain API key', async () => {
    const { bundle } = smallBundle();
    bundle.websites![0]!.api_keys = [{ key: { secret: 'ecs_do-not-print-me-0123456789abcdef' }, is_active: true }];
    const problems = await problemsOf(importObject(t.db, bundle));
    expect(problems).toEqual(['record 2 websites[0].api_keys[0].key: expected string, got object']);
  });

  it('lists every problem of every record, not only the first', async () => {
    const { bundle } = smallBundle();
    const data = bundle.offers![0]!.offer_data as Record<string, unknown>;
    data.rooms = 2.5;
    data.has_balcony = 'yes';
    data.photos_urls = ['https://example.com/1.jpg', 7];
    data.date_posted = 'yesterday';
    data.floor_plan_urls = 'plan.png';
    data.colour = 'red';
    bundle.offers![2]!.external_id = '';
    bundle.agents![0]!.email = 42;
    bundle.branches![0]!.open_time = { monday: [{ from_time: '25:00', to_time: '17:00' }], someday: [] };
    expect((await problemsOf(importObject(t.db, bundle))).sort()).toEqual(
      [
        'record 3 branches[0].open_time.monday[0].from_time: expected HH:MM, 24-hour, got "25:00"',
        'record 3 branches[0].open_time.someday: unknown field',
        'record 4 agents[0].email: expected string, got number 42',
        `record ${OFFER_RECORD} offers[0].offer_data.rooms: expected integer, got number 2.5`,
        `record ${OFFER_RECORD} offers[0].offer_data.has_balcony: expected boolean, got string "yes"`,
        `record ${OFFER_RECORD} offers[0].offer_data.photos_urls[1]: expected string, got number 7`,
        `record ${OFFER_RECORD} offers[0].offer_data.date_posted: expected an RFC 3339 date-time (e.g. 2025-01-31T09:15:00Z), got "yesterday"`,
        `record ${OFFER_RECORD} offers[0].offer_data.floor_plan_urls: expected array, got string "plan.png"`,
        `record ${OFFER_RECORD} offers[0].offer_data.colour: unknown field`,
        `record ${OFFER_RECORD + 2} offers[2].external_id: must not be empty`,
      ].sort(),
    );
  });

  it('rejects unknown and missing fields, bad ids and impossible dates', async () => {
    const { bundle } = smallBundle();
    bundle.organizations![0]!.nickname = 'x';
    delete bundle.investments![0]!.name;
    bundle.websites![0]!.website_id = 'not-a-uuid';
    bundle.offers![0]!.created_at = '2025-02-30T10:00:00Z';
    (bundle.offers![1]!.offer_data as Record<string, unknown>).rooms = 3_000_000_000;
    expect((await problemsOf(importObject(t.db, bundle))).sort()).toEqual(
      [
        'record 1 organizations[0].nickname: unknown field',
        'record 2 websites[0].website_id: expected a UUID, got "not-a-uuid"',
        'record 5 investments[0].name: required field missing',
        `record ${OFFER_RECORD} offers[0].created_at: expected an RFC 3339 date-time (e.g. 2025-01-31T09:15:00Z), got "2025-02-30T10:00:00Z"`,
        `record ${OFFER_RECORD + 1} offers[1].offer_data.rooms: must be between -2147483648 and 2147483647, got 3000000000`,
      ].sort(),
    );
  });

  it('requires offer_data.id and offer_data.external_id to match the offer when given', async () => {
    const { bundle } = smallBundle();
    const data = bundle.offers![0]!.offer_data as Record<string, unknown>;
    data.id = randomUUID();
    data.external_id = 'OTHER';
    const problems = await problemsOf(importObject(t.db, bundle));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^record 6 offers\[0\]\.offer_data\.id: must equal offer_id/);
    expect(problems[1]).toMatch(/^record 6 offers\[0\]\.offer_data\.external_id: must equal external_id/);
  });

  it('rejects text PostgreSQL cannot store instead of failing on it', async () => {
    const { bundle } = smallBundle();
    (bundle.offers![0]!.offer_data as Record<string, unknown>).title = 'bad\u0000title';
    (bundle.offers![1]!.offer_data as Record<string, unknown>).description = 'broken \ud800 surrogate';
    expect(await problemsOf(importObject(t.db, bundle))).toEqual([
      'record 6 offers[0].offer_data.title: contains the character U+0000, which cannot be stored',
      'record 7 offers[1].offer_data.description: contains invalid Unicode (an unpaired surrogate)',
    ]);
  });

  it('checks API keys of a website', async () => {
    const { bundle } = smallBundle();
    bundle.websites![0]!.api_keys = [
      { is_active: true },
      { key: 'short', is_active: true },
      { key_sha256: 'ABCDEF', is_active: true },
      { key: 'ecs_' + 'a'.repeat(43), key_sha256: 'a'.repeat(64), is_active: true },
      { key_sha256: 'b'.repeat(64), is_active: 'yes' },
      { key_sha256: 'c'.repeat(64), is_active: true, expires_at: 'never' },
    ];
    expect((await problemsOf(importObject(t.db, bundle))).sort()).toEqual(
      [
        'record 2 websites[0].api_keys[0]: key or key_sha256 is required',
        'record 2 websites[0].api_keys[1].key: must be at least 32 characters',
        'record 2 websites[0].api_keys[2].key_sha256: expected 64 lower-case hexadecimal characters, got "ABCDEF"',
        'record 2 websites[0].api_keys[3]: give key or key_sha256, not both',
        'record 2 websites[0].api_keys[4].is_active: expected boolean, got string "yes"',
        'record 2 websites[0].api_keys[5].expires_at: expected an RFC 3339 date-time (e.g. 2025-01-31T09:15:00Z), got "never"',
      ].sort(),
    );
  });

  it('counts every problem but keeps the list bounded', async () => {
    const org = randomUUID();
    const offers = Array.from({ length: 120 }, (_, n) => ({ ...offer(randomUUID(), org, n), offer_data: { price: 'x' } }));
    try {
      await importObject(t.db, { organizations: [{ organization_id: org, name: 'A' }], offers });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ImportRejectedError);
      expect((error as ImportRejectedError).problemCount).toBe(120);
      expect((error as ImportRejectedError).message).toBe('import rejected: 120 problems found; the database was not changed');
    }
  });
});

describe('NDJSON records', () => {
  it('numbers records by line and paths from the record', async () => {
    const { bundle } = smallBundle();
    (bundle.offers![0]!.offer_data as Record<string, unknown>).price = '1';
    const lines = toNdjson(bundle).split('\n');
    lines.splice(2, 0, ''); // a blank line still counts as a line
    lines.splice(4, 0, '{"type":"bogus","x":1}', 'not json', '[1,2]', '{"name":"no type"}');
    const problems = await problemsOf(importText(t.db, 'lines.ndjson', lines.join('\n')));
    expect(problems).toEqual([
      'record 5 type: expected one of organization, website, branch, agent, investment, offer, got "bogus"',
      expect.stringMatching(/^record 6: invalid JSON: /),
      'record 7: expected an object, got array',
      'record 8 type: required field missing (one of organization, website, branch, agent, investment, offer)',
      'record 11 offer_data.price: expected number, got string "1"',
    ]);
  });
});

describe('JSON bundle structure', () => {
  it('reports unknown top-level fields, non-array values and syntax errors', async () => {
    const org = randomUUID();
    const text = JSON.stringify({ organizations: [{ organization_id: org, name: 'A' }], agencies: [], offers: 5 });
    expect(await problemsOf(importText(t.db, 'top.json', text))).toEqual([
      'file agencies: unknown top-level field (expected organizations, websites, branches, agents, investments, offers)',
      'file offers: expected an array of records',
    ]);
    const broken = `{"organizations": [{"organization_id": "${org}", "name": "A"}, {"name": }]}`;
    const problems = await problemsOf(importText(t.db, 'broken.json', broken));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^file: invalid JSON after record 1: /);
    expect(await problemsOf(importText(t.db, 'array.json', '[{"type":"organization"}]'))).toEqual([
      'file: a bundle must be a JSON object with the arrays organizations, websites, branches, agents, investments, offers (or NDJSON, one record a line)',
    ]);
  });

  it('refuses a "__proto__" field instead of letting it change the record', async () => {
    const org = randomUUID();
    const text = `{"organizations":[{"organization_id":"${org}","name":"A","__proto__":{"nip":5}}]}`;
    expect(await problemsOf(importText(t.db, 'proto.json', text))).toEqual(['record 1 organizations[0]: the field name "__proto__" is not allowed']);
  });
});

describe('references and ownership', () => {
  it('reports dangling links of every kind', async () => {
    const { bundle } = smallBundle();
    const missing = '00000000-0000-4000-8000-000000000001';
    bundle.websites![0]!.organization_id = missing;
    bundle.branches![0]!.organization_id = missing;
    bundle.agents![0]!.branch_id = missing;
    bundle.investments![0]!.organization_id = missing;
    bundle.offers![0]!.agent_id = missing;
    bundle.offers![1]!.branch_id = missing;
    bundle.offers![2]!.investment_id = missing;
    bundle.offers!.push(offer(randomUUID(), missing, 9));
    const unknown = (kind: string) => `unknown ${kind} ${missing} (not in the file nor in the database)`;
    expect((await problemsOf(importObject(t.db, bundle))).sort()).toEqual(
      [
        `record 2 websites[0].organization_id: ${unknown('organization')}`,
        `record 3 branches[0].organization_id: ${unknown('organization')}`,
        `record 4 agents[0].branch_id: ${unknown('branch')}`,
        `record 5 investments[0].organization_id: ${unknown('organization')}`,
        `record 6 offers[0].agent_id: ${unknown('agent')}`,
        `record 7 offers[1].branch_id: ${unknown('branch')}`,
        `record 8 offers[2].investment_id: ${unknown('investment')}`,
        `record 9 offers[3].organization_id: ${unknown('organization')}`,
      ].sort(),
    );
  });

  it('accepts links to entities stored by an earlier import', async () => {
    const { bundle, ids } = smallBundle();
    await importObject(t.db, bundle);
    const report = await importObject(t.db, { offers: [offer(randomUUID(), ids.org, 5, { agent_id: ids.agent, investment_id: ids.investment })] });
    expect(report.counts.offers.created).toBe(1);
  });

  it('accepts an offer that comes before the entities it links to (second pass)', async () => {
    const { bundle } = smallBundle();
    const reordered: Bundle = { offers: bundle.offers, agents: bundle.agents, investments: bundle.investments, branches: bundle.branches, websites: bundle.websites, organizations: bundle.organizations };
    const reversed = toNdjson(bundle).split('\n').reverse().join('\n');
    // One offer per batch: the offers are checked before the entities are read.
    const report = await importText(t.db, 'reordered.ndjson', reversed, { batchSize: 1 });
    expect(report.counts.offers).toEqual({ created: 3, changed: 0, unchanged: 0 });
    expect(report.counts.agents.created).toBe(1);
    const stored = await t.db.selectFrom('offers').select(['offer_id', 'agent_id']).execute();
    expect(stored).toHaveLength(3);
    await resetDatabase(t.db);
    expect((await importObject(t.db, reordered, { batchSize: 1 })).counts.offers.created).toBe(3);
    // With --prune, offers of the second pass count as part of the bundle.
    expect((await importText(t.db, 'again.ndjson', reversed, { batchSize: 1, prune: true })).pruned).toBe(0);
  });

  it('reports a dangling link found in the second pass with its record number', async () => {
    const { bundle } = smallBundle();
    const missing = randomUUID();
    bundle.offers![1]!.investment_id = missing;
    const reordered: Bundle = { offers: bundle.offers, agents: bundle.agents, investments: bundle.investments, branches: bundle.branches, organizations: bundle.organizations };
    expect(await problemsOf(importObject(t.db, reordered, { batchSize: 1 }))).toEqual([
      `record 2 offers[1].investment_id: unknown investment ${missing} (not in the file nor in the database)`,
    ]);
  });

  it('reports duplicate ids within the file', async () => {
    const { bundle } = smallBundle();
    bundle.agents!.push({ ...bundle.agents![0]!, first_name: 'Other' });
    bundle.offers!.push({ ...bundle.offers![0]! });
    const id = bundle.offers![0]!.offer_id as string;
    const agent = bundle.agents![0]!.agent_id as string;
    expect(await problemsOf(importObject(t.db, bundle))).toEqual([
      `record 5 agents[1].agent_id: duplicate agent id ${agent} (also record 4)`,
      `record 10 offers[3].offer_id: duplicate offer id ${id} (it appears earlier in the file)`,
    ]);
  });

  it('refuses ids stored under another organization and links across organizations', async () => {
    const a = smallBundle();
    await importObject(t.db, a.bundle);
    const b = smallBundle();
    b.bundle.agents!.push({ agent_id: a.ids.agent, organization_id: b.ids.org, first_name: 'Moved' });
    b.bundle.offers!.push(offer(a.ids.offers[0]!, b.ids.org, 7)); // A's offer claimed by B
    b.bundle.offers!.push(offer(randomUUID(), b.ids.org, 8, { investment_id: a.ids.investment })); // link into A (stored)
    b.bundle.offers![0]!.branch_id = a.ids.branch;
    const before = await dumpDatabase(t.db);
    expect((await problemsOf(importObject(t.db, b.bundle))).sort()).toEqual(
      [
        `record 5 agents[1].agent_id: agent ${a.ids.agent} already exists under another organization`,
        `record 7 offers[0].branch_id: branch ${a.ids.branch} belongs to another organization`,
        `record 10 offers[3].offer_id: offer ${a.ids.offers[0]} belongs to another organization`,
        `record 11 offers[4].investment_id: investment ${a.ids.investment} belongs to another organization`,
      ].sort(),
    );
    expect(await dumpDatabase(t.db)).toEqual(before);
  });

  it('refuses a link to another organization\'s entity in the same file', async () => {
    const a = smallBundle();
    const b = smallBundle();
    b.bundle.offers![0]!.agent_id = a.ids.agent;
    b.bundle.agents![0]!.branch_id = a.ids.branch;
    const both: Bundle = {
      organizations: [...a.bundle.organizations!, ...b.bundle.organizations!],
      branches: [...a.bundle.branches!, ...b.bundle.branches!],
      agents: [...a.bundle.agents!, ...b.bundle.agents!],
      investments: b.bundle.investments,
      offers: b.bundle.offers,
    };
    expect(await problemsOf(importObject(t.db, both))).toEqual([
      `record 6 agents[1].branch_id: branch ${a.ids.branch} belongs to another organization`,
      `record 8 offers[0].agent_id: agent ${a.ids.agent} belongs to another organization`,
    ]);
  });

  it('keeps API keys with their website', async () => {
    const a = smallBundle();
    a.bundle.websites![0]!.api_keys = [{ key_id: randomUUID(), key_sha256: 'd'.repeat(64), is_active: true }];
    await importObject(t.db, a.bundle);
    const b = smallBundle({ org: a.ids.org });
    b.bundle.websites![0]!.api_keys = [
      { key_id: (a.bundle.websites![0]!.api_keys as Array<{ key_id: string }>)[0]!.key_id, key_sha256: 'e'.repeat(64), is_active: true },
      { key_sha256: 'd'.repeat(64), is_active: true },
    ];
    const keyId = (a.bundle.websites![0]!.api_keys as Array<{ key_id: string }>)[0]!.key_id;
    expect(await problemsOf(importObject(t.db, { websites: b.bundle.websites }))).toEqual([
      `record 1 websites[0].api_keys[0].key_id: key ${keyId} belongs to another website`,
      `record 1 websites[0].api_keys[1]: this key is already registered as key ${keyId}`,
    ]);
  });

  it('checks the links of an invalid record too', async () => {
    const { bundle } = smallBundle();
    const missing = randomUUID();
    bundle.offers![0]!.agent_id = missing;
    (bundle.offers![0]!.offer_data as Record<string, unknown>).price = 'x';
    expect(await problemsOf(importObject(t.db, bundle))).toEqual([
      'record 6 offers[0].offer_data.price: expected number, got string "x"',
      `record 6 offers[0].agent_id: unknown agent ${missing} (not in the file nor in the database)`,
    ]);
  });
});
