/**
 * The change feed's writes (extension E5), inside the import's transaction: after the content is
 * written and before the commit, each website of each organization the import touched compares
 * what its keys see now (the visible set) with its rows in website_changes, in set-based SQL (two
 * statements per website, whatever the number of entities):
 *
 *   - an entity that is new, changed (another offer version; for the other kinds, another
 *     updated_at) or visible again becomes an `upsert` with a new seq;
 *   - an entity the website has as `upsert` that is no longer visible (offer deactivated or
 *     pruned, out of the website's scope) becomes a `delete` with a new seq.
 *
 * So the feed is right by construction: it is written by the transaction that changes the content
 * (a reader never sees a change that did not commit, and never misses one that did), and whatever
 * made an entity appear, change or disappear is caught by the comparison. A website created by an
 * import gets its whole initial state the same way; websites that existed before the feed were
 * seeded by its migration. Every writer holds the import lock, so seq order is commit order.
 *
 * Versions: an offer's change carries the offer's version. Organizations, branches, agents and
 * investments have none of their own: their `version` counts the feed's changes of that entity
 * for the website (1, 2, ...), and updated_at tells what changed.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { encodeCursor, type ChangeCounts, type ChangeKind, type WebsiteChangeSummary } from '../domain/change-feed.js';
import type { Database, WebsiteScope } from '../db/database.js';
import { investmentScopeCondition, offerScopeCondition } from '../db/website-scope.js';
import { tryImportLock } from './import-session.js';

export type { WebsiteChangeSummary } from '../domain/change-feed.js';

/** FEED_RETENTION_DAYS default: tombstones are kept at least this long. */
export const DEFAULT_FEED_RETENTION_DAYS = 30;

/** The website whose visible set is computed. */
export interface FeedWebsite {
  readonly websiteId: string;
  readonly organizationId: string;
  /** The website's scope (E7); null: its whole organization. */
  readonly scope: WebsiteScope | null;
}

/*
 * The visible set of a website: rows (kind, entity_id, version, updated_at, rank) of everything
 * its keys see, as the API serves it. `version` is null for kinds without a version of their own;
 * `rank` orders a batch of changes so that an entity comes after those it links to.
 */

/**
 * The offers a website's keys see: the organization's active offers within the website's scope
 * (the same rule as the API's, src/db/website-scope.ts).
 */
function visibleOffersSql(website: FeedWebsite): RawBuilder<unknown> {
  const inScope = offerScopeCondition(website.scope, 'o');
  return sql`select 'offer'::text as kind, o.offer_id as entity_id, o.version as version, o.updated_at, 4 as rank
    from offers o
    where o.organization_id = ${website.organizationId}::uuid and o.is_active${inScope ? sql` and ${inScope}` : sql``}`;
}

/**
 * The investments a website's keys see: all of the organization's (active and inactive, as the
 * list serves them), or those its scope names when it names investments.
 */
function visibleInvestmentsSql(website: FeedWebsite): RawBuilder<unknown> {
  const inScope = investmentScopeCondition(website.scope, 'i.investment_id');
  return sql`select 'investment'::text, i.investment_id, null::integer, i.updated_at, 3
    from investments i
    where i.organization_id = ${website.organizationId}::uuid${inScope ? sql` and ${inScope}` : sql``}`;
}

/** Everything a website's keys see: the organization, its branches and agents, and the two above. */
function visibleSql(website: FeedWebsite): RawBuilder<unknown> {
  const org = website.organizationId;
  return sql`
    select 'organization'::text as kind, g.organization_id as entity_id, null::integer as version, g.updated_at, 0 as rank
      from organizations g where g.organization_id = ${org}::uuid
    union all
    select 'branch'::text, b.branch_id, null::integer, b.updated_at, 1 from branches b where b.organization_id = ${org}::uuid
    union all
    select 'agent'::text, a.agent_id, null::integer, a.updated_at, 2 from agents a where a.organization_id = ${org}::uuid
    union all
    ${visibleInvestmentsSql(website)}
    union all
    ${visibleOffersSql(website)}`;
}

interface KindCount {
  kind: ChangeKind;
  n: number;
}

/** New, changed and reappeared entities become upserts (one statement). */
async function writeUpserts(db: Kysely<Database>, website: FeedWebsite): Promise<KindCount[]> {
  const w = website.websiteId;
  const result = await sql<KindCount>`
    with visible as (${visibleSql(website)}),
    changed as (
      select v.kind, v.entity_id, v.version, v.updated_at
      from visible v
      left join website_changes c on c.website_id = ${w}::uuid and c.kind = v.kind and c.entity_id = v.entity_id
      where c.entity_id is null or c.op = 'delete'
        or (case when v.version is null then c.updated_at is distinct from v.updated_at else c.version <> v.version end)
      order by v.rank, v.entity_id
    ),
    written as (
      insert into website_changes as c (website_id, kind, entity_id, op, version, updated_at, seq, changed_at)
      select ${w}::uuid, ch.kind, ch.entity_id, 'upsert', coalesce(ch.version, 1), ch.updated_at, nextval('website_change_seq'), now()
      from changed ch
      on conflict (website_id, kind, entity_id) do update set
        op = 'upsert',
        version = case when c.kind = 'offer' then excluded.version else c.version + 1 end,
        updated_at = excluded.updated_at,
        seq = excluded.seq,
        changed_at = excluded.changed_at
      returning c.kind
    )
    select kind, count(*)::int as n from written group by kind`.execute(db);
  return result.rows;
}

/** Entities the website has as `upsert` that it no longer sees become deletes (one statement). */
async function writeDeletes(db: Kysely<Database>, website: FeedWebsite): Promise<KindCount[]> {
  const w = website.websiteId;
  const result = await sql<KindCount>`
    with visible as materialized (${visibleSql(website)}),
    gone as (
      select c.kind, c.entity_id
      from website_changes c
      left join visible v on v.kind = c.kind and v.entity_id = c.entity_id
      where c.website_id = ${w}::uuid and c.op = 'upsert' and v.entity_id is null
      order by c.seq
    ),
    numbered as (
      select g.kind, g.entity_id, nextval('website_change_seq') as seq from gone g
    ),
    written as (
      update website_changes c set
        op = 'delete',
        seq = n.seq,
        changed_at = now(),
        updated_at = now(),
        version = case
          when c.kind = 'offer' then coalesce((select o.version from offers o where o.offer_id = c.entity_id), c.version)
          else c.version + 1 end
      from numbered n
      where c.website_id = ${w}::uuid and c.kind = n.kind and c.entity_id = n.entity_id
      returning c.kind
    )
    select kind, count(*)::int as n from written group by kind`.execute(db);
  return result.rows;
}

/** The website's feed head: the seq of its latest change (0 when it has none). */
async function feedHead(db: Kysely<Database>, websiteId: string): Promise<string> {
  const result = await sql<{ head: string }>`
    select coalesce(max(seq), 0)::text as head from website_changes where website_id = ${websiteId}::uuid`.execute(db);
  return result.rows[0]?.head ?? '0';
}

/**
 * Brings the feeds of every website of these organizations up to date with what their keys see
 * now; call it in the transaction that changed the content, after the content is written. Returns
 * a summary for each website whose feed changed (E6 webhooks enqueue their deliveries from it).
 */
export async function recordWebsiteChanges(
  trx: Kysely<Database>,
  organizationIds: readonly string[],
): Promise<WebsiteChangeSummary[]> {
  if (organizationIds.length === 0) return [];
  const websites = await sql<FeedWebsite>`
    select website_id as "websiteId", organization_id as "organizationId", scope from websites
    where organization_id = any(${[...organizationIds]}::uuid[])
    order by website_id`.execute(trx);
  // Hash joins, never nested loops, for the comparisons: inside the import's transaction the
  // planner has no statistics for the rows just written (a first import writes 100,000 feed rows
  // that it estimates as one), and a nested loop over them is quadratic (measured: 30 s for 10,000
  // offers instead of 0.3 s). Their sorts and hashes of 100,000 rows fit in 64 MB of memory
  // instead of spilling to disk. SET LOCAL, restored below; the transaction's end does it anyway.
  const before = await sql<{ nestloop: string; work_mem: string }>`
    select current_setting('enable_nestloop') as nestloop, current_setting('work_mem') as work_mem`.execute(trx);
  await sql`select set_config('enable_nestloop', 'off', true), set_config('work_mem', '64MB', true)`.execute(trx);
  const summaries: WebsiteChangeSummary[] = [];
  for (const website of websites.rows) {
    const counts: Partial<Record<ChangeKind, ChangeCounts>> = {};
    let changed = false;
    const count = (rows: KindCount[], op: keyof ChangeCounts) => {
      for (const row of rows) {
        if (row.n === 0) continue;
        const entry = (counts[row.kind] ??= { upsert: 0, delete: 0 });
        entry[op] += row.n;
        changed = true;
      }
    };
    count(await writeUpserts(trx, website), 'upsert');
    count(await writeDeletes(trx, website), 'delete');
    if (changed) summaries.push({ websiteId: website.websiteId, cursor: encodeCursor(await feedHead(trx, website.websiteId)), counts });
  }
  const { nestloop, work_mem: workMem } = before.rows[0]!;
  await sql`select set_config('enable_nestloop', ${nestloop}, true), set_config('work_mem', ${workMem}, true)`.execute(trx);
  return summaries;
}

/**
 * Purges tombstones (deletes) written more than `retentionDays` days ago, from every website, and
 * raises each website's feed floor to the highest seq it purged: a cursor below the floor may have
 * missed one of them, so it has expired (410). Returns how many tombstones went. Call it holding
 * the import lock (the import's finish step does).
 */
export async function purgeTombstones(db: Kysely<Database>, retentionDays: number): Promise<number> {
  const result = await sql<{ purged: number }>`
    with purged as (
      delete from website_changes
      where op = 'delete' and changed_at < now() - make_interval(days => ${retentionDays}::int)
      returning website_id, seq
    ),
    floors as (
      insert into website_feeds (website_id, floor_seq)
      select website_id, max(seq) from purged group by website_id
      on conflict (website_id) do update set floor_seq = greatest(website_feeds.floor_seq, excluded.floor_seq)
      returning website_id
    )
    select (select count(*) from purged)::int as purged`.execute(db);
  return result.rows[0]?.purged ?? 0;
}

/**
 * `feed purge` outside an import: takes the import lock for its transaction (false when an import
 * holds it), then purges as the import's finish step does. Returns the number purged, or undefined
 * when busy.
 */
export async function purgeTombstonesNow(db: Kysely<Database>, retentionDays: number): Promise<number | undefined> {
  return db.transaction().execute(async (trx) => {
    if (!(await tryImportLock(trx))) return undefined;
    return purgeTombstones(trx, retentionDays);
  });
}
