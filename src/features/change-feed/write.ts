/**
 * The change feed's writes (extension E5), inside the import's transaction: after the content is
 * written and before the commit, each website of each organization the import touched compares
 * what its keys see now (the visible set) with its rows in website_changes, in set-based SQL (one
 * statement per website, whatever the number of entities, reading the visible set once):
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
import { encodeCursor, type ChangeCounts, type ChangeKind, type WebsiteChangeSummary } from './model.js';
import type { Database, WebsiteScope } from '../../db/database.js';
import { investmentScopeCondition, offerScopeCondition } from '../access/index.js';
import { tryImportLock } from '../content-version/index.js';

export type { WebsiteChangeSummary } from './model.js';

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
 * (the same rule as the API's, src/features/access/scope-sql.ts).
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
  op: keyof ChangeCounts;
  n: number;
}

/**
 * Compares the website's visible set with its feed and writes the differences, in ONE statement:
 * the visible set (a scan of the organization's offers) is read once, full-joined with the
 * website's feed rows, and every change is one row of the same upsert:
 *
 *   - new, changed or reappeared entities: `upsert`, numbered first, in (rank, id) order;
 *   - entities the feed has as `upsert` that are no longer visible: `delete`, numbered after them,
 *     in their old feed order.
 *
 * A delete always meets its own row (ON CONFLICT), so it updates it as an upsert updates a
 * changed one. The version each change carries is decided in `changed`, from the row it replaces:
 * offers carry the offer's version (for a delete, the offer's current one, if it still exists),
 * other kinds count their changes (1 when new).
 */
async function writeChanges(db: Kysely<Database>, website: FeedWebsite): Promise<KindCount[]> {
  const w = website.websiteId;
  const result = await sql<KindCount>`
    with visible as (${visibleSql(website)}),
    feed as (
      select c.kind, c.entity_id, c.op, c.version, c.updated_at, c.seq from website_changes c where c.website_id = ${w}::uuid
    ),
    changed as (
      select coalesce(v.kind, f.kind) as kind, coalesce(v.entity_id, f.entity_id) as entity_id,
        case when v.entity_id is null then 'delete' else 'upsert' end as op,
        case
          when v.entity_id is null and f.kind = 'offer' then coalesce((select o.version from offers o where o.offer_id = f.entity_id), f.version)
          when v.entity_id is null then f.version + 1
          when v.kind = 'offer' then v.version
          else coalesce(f.version + 1, 1) end as version,
        case when v.entity_id is null then now() else v.updated_at end as updated_at
      from visible v
      full join feed f on f.kind = v.kind and f.entity_id = v.entity_id
      where (v.entity_id is null and f.op = 'upsert')
        or (v.entity_id is not null and (f.entity_id is null or f.op = 'delete'
          or (case when v.version is null then f.updated_at is distinct from v.updated_at else f.version <> v.version end)))
      order by v.entity_id is null, v.rank, v.entity_id, f.seq
    ),
    written as (
      insert into website_changes as c (website_id, kind, entity_id, op, version, updated_at, seq, changed_at, entry_json)
      select ${w}::uuid, ch.kind, ch.entity_id, ch.op, ch.version, ch.updated_at, nextval('website_change_seq'), now(),
        ecs_change_entry(ch.kind, ch.entity_id, ch.op, ch.version, ch.updated_at)
      from changed ch
      on conflict (website_id, kind, entity_id) do update set
        op = excluded.op,
        version = excluded.version,
        updated_at = excluded.updated_at,
        seq = excluded.seq,
        changed_at = excluded.changed_at,
        entry_json = excluded.entry_json
      returning c.kind, c.op
    )
    select kind, op, count(*)::int as n from written group by kind, op`.execute(db);
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
    for (const row of await writeChanges(trx, website)) {
      if (row.n === 0) continue;
      const entry = (counts[row.kind] ??= { upsert: 0, delete: 0 });
      entry[row.op] += row.n;
      changed = true;
    }
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
