import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCursor, decodePosition, encodeCursor, encodeSyncCursor } from '../../../src/features/change-feed/model.js';
import { toApiTimestamp } from '../../../src/contract/timestamps.js';
import { purgeTombstones, recordWebsiteChanges } from '../../../src/features/change-feed/write.js';
import { bumpContentVersion } from '../../../src/features/content-version/write.js';
import { buildTestApp, get, post, type TestApp } from '../../helpers/app.js';
import { AGENT, BRANCH, INVESTMENT, KEYS, OFFER, ORG_A, ORG_B, WEBSITE_A1 } from '../../helpers/fixtures.js';
import { setWebsiteScope } from '../../../src/import/publish.js';

interface Change {
  cursor: string;
  kind: string;
  id: string;
  op: 'upsert' | 'delete';
  version: number;
  updated_at: string;
}
interface Feed {
  changes: Change[];
  next_cursor: string;
  has_more: boolean;
}

describe('GET /api/v1/changes', () => {
  let t: TestApp;
  /** The fixture is inserted without the import: record its feed as an import would. */
  const record = () => t.db.db.transaction().execute((trx) => recordWebsiteChanges(trx, [ORG_A, ORG_B]));
  const feed = async (query = '', key: string = KEYS.activeA1): Promise<Feed> => {
    const res = await get(t, `/api/v1/changes${query}`, { key });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Feed;
  };
  /** Every page from `since` (or from the start) on. */
  const replay = async (since?: string, limit = 1000, key: string = KEYS.activeA1) => {
    const changes: Change[] = [];
    let cursor = since;
    for (let pages = 0; pages < 1000; pages += 1) {
      const page = await feed(`?limit=${limit}${cursor === undefined ? '' : `&since=${cursor}`}`, key);
      changes.push(...page.changes);
      cursor = page.next_cursor;
      if (!page.has_more) return { changes, cursor };
    }
    throw new Error('the feed did not end');
  };

  beforeAll(async () => {
    t = await buildTestApp();
    const summaries = await record();
    expect(summaries.map((s) => s.websiteId).sort()).toHaveLength(3);
  });
  afterAll(() => t.destroy());

  it('starts with everything the key sees, as upserts, in cursor order', async () => {
    const body = await feed();
    expect(Object.keys(body)).toEqual(['changes', 'next_cursor', 'has_more']);
    expect(body.has_more).toBe(false);
    for (const change of body.changes) {
      expect(Object.keys(change)).toEqual(['cursor', 'kind', 'id', 'op', 'version', 'updated_at']);
      expect(change.op).toBe('upsert');
      expect(change.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?Z$/);
    }
    const seqOf = (cursor: string) => { const p = decodePosition(cursor)!; return BigInt(typeof p === 'string' ? p : p.seq); };
    const seqs = body.changes.map((c) => seqOf(c.cursor));
    for (let i = 1; i < seqs.length; i += 1) expect(seqs[i]! > seqs[i - 1]!).toBe(true);
    // The organization first, offers last.
    expect(body.changes[0]).toMatchObject({ kind: 'organization', id: ORG_A, version: 1 });
    expect(body.changes.at(-1)!.kind).toBe('offer');

    const ids = (kind: string) => body.changes.filter((c) => c.kind === kind).map((c) => c.id).sort();
    const listed = async (url: string, field: string) =>
      ((await get(t, url)).json() as Record<string, string>[]).map((r) => r[field]).sort();
    expect(ids('branch')).toEqual(await listed('/api/v1/branches', 'branch_id'));
    expect(ids('agent')).toEqual(await listed('/api/v1/agents', 'agent_id'));
    expect(ids('investment')).toEqual(await listed('/api/v1/investments', 'investment_id'));
    const offers = (await post(t, '/api/v1/offers', { pagination: { size: 100 } })).json() as { items: { offer_id: string; version: number }[] };
    expect(body.changes.filter((c) => c.kind === 'offer').map((c) => [c.id, c.version]).sort()).toEqual(
      offers.items.map((o) => [o.offer_id, o.version]).sort(),
    );
    expect(ids('offer')).not.toContain(OFFER.inactive);
    // The head: asking from there gives nothing new, and the same cursor back.
    expect(decodePosition(body.next_cursor)).toBe(seqs.at(-1)!.toString());
    expect(await feed(`?since=${body.next_cursor}`)).toEqual({ changes: [], next_cursor: body.next_cursor, has_more: false });
  });

  it('pages with limit and has_more, giving the same feed', async () => {
    const whole = await feed('?limit=1000');
    const paged = await replay(undefined, 3);
    expect(paged.changes).toEqual(whole.changes);
    expect(paged.cursor).toBe(whole.next_cursor);
    const first = await feed('?limit=2');
    expect(first.changes).toHaveLength(2);
    expect(first.has_more).toBe(true);
    expect(first.next_cursor).toBe(first.changes[1]!.cursor);
    expect((await feed('?limit=1')).changes).toHaveLength(1);
    // The default page is 100 changes; the fixture has fewer.
    expect((await feed()).changes).toEqual(whole.changes);
  });

  it('never shows another organization\'s entities (tenancy)', async () => {
    const a = await replay(undefined, 1000, KEYS.activeA1);
    const b = await replay(undefined, 1000, KEYS.activeB);
    const aIds = new Set(a.changes.map((c) => c.id));
    expect(b.changes.length).toBeGreaterThan(0);
    for (const change of b.changes) expect(aIds.has(change.id)).toBe(false);
    expect(b.changes.map((c) => c.id)).toEqual(expect.arrayContaining([ORG_B, BRANCH.other, AGENT.other, INVESTMENT.other, OFFER.otherOrg]));
    expect(b.changes.map((c) => c.id)).not.toContain(OFFER.otherOrgInactive);
    // B's cursor on A's feed shows A's changes only (cursors are positions, not permissions).
    const fromB = await feed(`?since=${encodeCursor(0)}`, KEYS.activeA1);
    for (const change of fromB.changes) expect(aIds.has(change.id)).toBe(true);
    // Another website of the same organization has its own feed with the same content.
    const a2 = await replay(undefined, 1000, KEYS.activeA2);
    expect(a2.changes.map((c) => [c.kind, c.id, c.version]).sort()).toEqual(a.changes.map((c) => [c.kind, c.id, c.version]).sort());
  });

  it('sends a change and a delete after the cursor, at once (no response cache)', async () => {
    const start = (await feed()).next_cursor;
    await feed(`?since=${start}`); // would be cached if the route were
    await sql`update offers set is_active = false, version = version + 1, updated_at = now() where offer_id = ${OFFER.gdansk}`.execute(t.db.db);
    await sql`update agents set job_title = 'Manager', updated_at = now() where agent_id = ${AGENT.nowak}`.execute(t.db.db);
    const [summary] = (await record()).filter((s) => s.websiteId === WEBSITE_A1);
    expect(summary!.counts).toEqual({ agent: { upsert: 1, delete: 0 }, offer: { upsert: 0, delete: 1 } });

    const after = await feed(`?since=${start}`);
    expect(after.changes.map((c) => [c.kind, c.id, c.op, c.version])).toEqual([
      ['agent', AGENT.nowak, 'upsert', 2],
      ['offer', OFFER.gdansk, 'delete', 2],
    ]);
    expect(after.next_cursor).toBe(summary!.cursor);
    // A fresh start no longer shows the deleted offer (tombstones are skipped) but shows the agent.
    const fresh = await feed('?limit=1000');
    expect(fresh.changes.map((c) => c.id)).not.toContain(OFFER.gdansk);
    expect(fresh.next_cursor).toBe(summary!.cursor);
    // Nothing changed: nothing recorded, no summary.
    expect(await record()).toEqual([]);
  });

  it('answers 410 for a cursor older than the purged tombstones, and goes on from newer ones', async () => {
    const before = (await feed()).next_cursor;
    await sql`update offers set is_active = false, version = version + 1, updated_at = now() where offer_id = ${OFFER.nulls}`.execute(t.db.db);
    await record();
    const head = (await feed()).next_cursor;
    expect(await t.db.db.transaction().execute((trx) => purgeTombstones(trx, 30))).toBe(0);
    await sql`update website_changes set changed_at = now() - interval '31 days' where op = 'delete'`.execute(t.db.db);
    expect(await t.db.db.transaction().execute((trx) => purgeTombstones(trx, 30))).toBeGreaterThan(0);

    const expired = await get(t, `/api/v1/changes?since=${before}`);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toEqual({ detail: 'Cursor expired' });
    expect((await get(t, `/api/v1/changes?since=${encodeCursor(0)}`)).statusCode).toBe(410);
    expect(await feed(`?since=${head}`)).toEqual({ changes: [], next_cursor: head, has_more: false });
    // Starting again works, without the purged offers.
    const fresh = await feed('?limit=1000');
    expect(fresh.changes.map((c) => c.id)).not.toContain(OFFER.nulls);
    // Another organization's website lost nothing: its old cursors still work.
    expect((await get(t, `/api/v1/changes?since=${encodeCursor(0)}`, { key: KEYS.activeB })).statusCode).toBe(200);
  });

  it('lets a first sync page past old upserts after deletes were purged (no 410 halfway)', async () => {
    // Upserts older than the floor stay in the feed (nothing changed them); a first sync pages
    // through them with positions that remember where it began, so it never expires halfway.
    const fresh = await feed('?limit=1000');
    const floor = (await sql<{ f: string }>`select coalesce(max(floor_seq), 0)::text as f from website_feeds where website_id = ${WEBSITE_A1}::uuid`.execute(t.db.db)).rows[0]!.f;
    expect(fresh.changes.some((c) => { const p = decodePosition(c.cursor)!; return BigInt(typeof p === 'string' ? p : p.seq) < BigInt(floor); })).toBe(true);
    const paged: string[] = [];
    let page = await feed('?limit=1');
    paged.push(...page.changes.map((c) => c.id));
    while (page.has_more) {
      page = await feed(`?limit=1&since=${page.next_cursor}`);
      paged.push(...page.changes.map((c) => c.id));
    }
    expect(paged).toEqual(fresh.changes.map((c) => c.id));
    // Done: the cursor to keep is a plain one at the head, and it does not expire.
    expect(decodePosition(page.next_cursor)).toBe(decodeCursor(fresh.next_cursor));
    expect((await get(t, `/api/v1/changes?since=${page.next_cursor}`)).statusCode).toBe(200);
  });

  it('answers 422 for a bad limit or a malformed cursor, pydantic style', async () => {
    const problem = async (query: string) => {
      const res = await get(t, `/api/v1/changes?${query}`);
      expect(res.statusCode, query).toBe(422);
      return (res.json() as { detail: Record<string, unknown>[] }).detail;
    };
    expect(await problem('limit=0')).toEqual([
      { type: 'greater_than_equal', loc: ['query', 'limit'], msg: 'Input should be greater than or equal to 1', input: '0', ctx: { ge: 1 } },
    ]);
    expect((await problem('limit=1001'))[0]).toMatchObject({ type: 'less_than_equal', loc: ['query', 'limit'], ctx: { le: 1000 } });
    expect((await problem('limit=ten'))[0]).toMatchObject({ type: 'int_parsing', loc: ['query', 'limit'] });
    const valid = encodeCursor(5);
    for (const since of ['garbage', 'YzE6', 'YzI6NQ', `${valid}=`, Buffer.from('c1:05').toString('base64url'), Buffer.from('c1:-1').toString('base64url'),
      Buffer.from('c1:99999999999999999999').toString('base64url'), 'x'.repeat(65), '%E2%9C%93', '']) {
      const [issue] = await problem(`since=${since}`);
      expect(issue, since).toMatchObject({ type: 'value_error', loc: ['query', 'since'] });
    }
    // Both at once: both reported.
    expect((await problem('since=nope&limit=0')).map((i) => i.loc)).toEqual([['query', 'since'], ['query', 'limit']]);
  });

  it('follows a scope change: what leaves the scope is deleted, what enters it comes back', async () => {
    const listed = async () => {
      const res = await post(t, '/api/v1/offers', { pagination: { size: 100 } }, { key: KEYS.activeA1 });
      return (res.json() as { items: Array<{ offer_id: string }> }).items.map((o) => o.offer_id).sort();
    };
    /** The offers a client holds after applying the changes from `since` on to `held`. */
    const apply = async (held: Set<string>, since: string) => {
      const { changes, cursor } = await replay(since);
      for (const c of changes.filter((c) => c.kind === 'offer')) c.op === 'delete' ? held.delete(c.id) : held.add(c.id);
      return cursor;
    };
    // The tests above changed rows by hand: record them, and let the lists see them (no cached answers).
    await record();
    await bumpContentVersion(t.db.db);
    await t.app.contentVersion.refresh();
    const start = await replay();
    const held = new Set(start.changes.filter((c) => c.kind === 'offer').map((c) => c.id));
    expect([...held].sort()).toEqual(await listed());

    await setWebsiteScope(t.db.db, WEBSITE_A1, { investment_ids: [INVESTMENT.zielone] });
    const scoped = await apply(held, start.cursor);
    expect([...held].sort()).toEqual(await listed());
    expect(held.size).toBeGreaterThan(0);
    expect(held.size).toBeLessThan(start.changes.filter((c) => c.kind === 'offer').length);

    await setWebsiteScope(t.db.db, WEBSITE_A1, null);
    await apply(held, scoped);
    expect([...held].sort()).toEqual(await listed());
  });

  it('writes each page byte for byte as JSON.stringify of the changes would (cursors, timestamps)', async () => {
    // The database writes the page's JSON (src/features/change-feed/read.ts): compare it with the API's own
    // functions, on timestamps with and without microseconds and on 19-digit seqs (longest cursors).
    await sql`update offers set is_active = false, version = version + 1, updated_at = now() where offer_id = ${OFFER.warszawa}`.execute(t.db.db);
    await record();
    // The rows keep their JSON (entry_json), so a new updated_at is written the way writers write it.
    await sql`update website_changes c set updated_at = t.at::timestamptz,
        entry_json = ecs_change_entry(c.kind, c.entity_id, c.op, c.version, t.at::timestamptz)
      from (select seq, (array['2025-01-31 09:15:00+00', '2025-01-31 09:15:00.12+00', '2025-01-31 09:15:00.000001+00',
          '2025-12-31 23:59:59.999999+00', '0999-01-02 03:04:05.5+00'])[row_number() over (order by seq)] as at
        from website_changes where website_id = ${WEBSITE_A1}::uuid) t
      where c.website_id = ${WEBSITE_A1}::uuid and c.seq = t.seq and t.at is not null`.execute(t.db.db);
    await sql`update website_changes set seq = seq + 9223372036854000000 where website_id = ${WEBSITE_A1}::uuid`.execute(t.db.db);
    const { rows } = await sql<{ seq: string; kind: string; entity_id: string; op: string; version: number; updated_at: string }>`
      select seq::text as seq, kind, entity_id, op, version, updated_at from website_changes
      where website_id = ${WEBSITE_A1}::uuid order by seq`.execute(t.db.db);
    const floor = (await sql<{ f: string }>`select coalesce(max(floor_seq), 0)::text as f from website_feeds where website_id = ${WEBSITE_A1}::uuid`.execute(t.db.db)).rows[0]!.f;
    const head = rows.at(-1)!.seq;
    expect(rows.some((r) => r.op === 'delete')).toBe(true);
    const json = (changes: typeof rows, cursorOf: (seq: string) => string, next: string, more: boolean) =>
      JSON.stringify({
        changes: changes.map((r) => ({ cursor: cursorOf(r.seq), kind: r.kind, id: r.entity_id, op: r.op, version: r.version, updated_at: toApiTimestamp(r.updated_at) })),
        next_cursor: next,
        has_more: more,
      });
    const body = async (url: string) => {
      const res = await get(t, url);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      return res.body;
    };

    // Plain cursors, deletes included: the whole feed, then two changes and has_more.
    const since = encodeCursor(rows[0]!.seq);
    expect(await body(`/api/v1/changes?since=${since}&limit=1000`)).toBe(json(rows.slice(1), encodeCursor, encodeCursor(head), false));
    expect(await body(`/api/v1/changes?since=${since}&limit=2`)).toBe(json(rows.slice(1, 3), encodeCursor, encodeCursor(rows[2]!.seq), true));
    // A first sync: upserts only, positions that carry where it began; then its next page.
    const upserts = rows.filter((r) => r.op === 'upsert');
    const began = BigInt(head) > BigInt(floor) ? head : floor;
    const syncCursor = (seq: string) => encodeSyncCursor(seq, began);
    expect(await body('/api/v1/changes?limit=1000')).toBe(json(upserts, syncCursor, encodeCursor(began), false));
    expect(await body('/api/v1/changes?limit=3')).toBe(json(upserts.slice(0, 3), syncCursor, syncCursor(upserts[2]!.seq), true));
    expect(await body(`/api/v1/changes?limit=3&since=${syncCursor(upserts[2]!.seq)}`)).toBe(
      json(upserts.slice(3, 6), syncCursor, syncCursor(upserts[5]!.seq), true),
    );
    // Nothing after the head: an empty page.
    expect(await body(`/api/v1/changes?since=${encodeCursor(head)}`)).toBe(json([], encodeCursor, encodeCursor(head), false));
    expect(toApiTimestamp(rows[0]!.updated_at)).toBe('2025-01-31T09:15:00Z');
  });

  it('needs a key like every /api/v1 operation', async () => {
    expect((await get(t, '/api/v1/changes', { key: null })).statusCode).toBe(401);
    expect((await get(t, '/api/v1/changes', { key: KEYS.inactiveA1 })).statusCode).toBe(401);
  });

  it('is documented in /openapi.json with its schemas and an example', async () => {
    const doc = (await get(t, '/openapi.json', { key: null })).json() as {
      paths: Record<string, Record<string, { parameters: { name: string }[]; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { examples?: unknown[] }> };
    };
    const operation = doc.paths['/api/v1/changes']!.get!;
    expect(operation.parameters.map((p) => p.name).sort()).toEqual(['limit', 'since']);
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '401', '410', '422']);
    expect(doc.components.schemas.ChangeFeed!.examples).toHaveLength(1);
    expect(doc.components.schemas.Change).toBeDefined();
  });
});

describe('cursors', () => {
  it('round-trip and refuse anything else', () => {
    for (const seq of ['0', '1', '42', '9223372036854775807']) expect(decodeCursor(encodeCursor(seq))).toBe(seq);
    expect(decodeCursor(encodeCursor('9223372036854775808'))).toBeUndefined();
    expect(decodeCursor('')).toBeUndefined();
    expect(decodePosition(encodeSyncCursor('7', '42'))).toEqual({ seq: '7', head: '42' });
    expect(decodePosition(encodeCursor('7'))).toBe('7');
    for (const bad of ['', 'czE6Nzo0Mg=', Buffer.from('s1:7').toString('base64url'), Buffer.from('s1:07:42').toString('base64url')]) {
      expect(decodePosition(bad), bad).toBeUndefined();
    }
  });
});
