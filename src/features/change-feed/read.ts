/**
 * One page of a website's change feed (extension E5), read in ONE statement so that the page, the
 * feed's head and its floor come from the same snapshot: a page never holds half of an import, and
 * the expiry check (since below the floor) judges exactly the tombstones the page could have held.
 *
 * Without `since`: the entities the website sees now (upserts only, tombstones skipped), in seq
 * order. With `since`: every change after it, deletes included.
 *
 * The statement also writes the page's changes as JSON, one text for the whole page: 1,000 rows of
 * 7 columns parsed by the driver, made into objects and serialized again cost the service's one
 * thread about 3 ms of CPU per page; the database joins the same text on its own processes
 * (docs/performance.md). Each row keeps its change's JSON but the cursor (entry_json, written with
 * the row by ecs_change_entry, src/db/routines/change-entry.ts), so a page adds only the cursors. Every
 * value is a uuid, a number, a word of the vocabulary, a base64url cursor or a timestamp: nothing
 * needs JSON escaping.
 */
import { sql } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { ReadDb } from '../../db/readonly.js';

/** The cursors a page's changes carry (src/features/change-feed/model.ts). */
export type PageCursors =
  /** `c1:<seq>`. */
  | { readonly form: 'plain' }
  /** A first sync's positions `s1:<seq>:<head>`, with the head it began at. */
  | { readonly form: 'sync'; readonly head: string }
  /** A first sync's first page: the sync begins at this read's head (or its floor, if higher). */
  | { readonly form: 'sync-start' };

export interface ChangesPageQuery {
  /** Changes after this seq; undefined: from the start (the state now). */
  readonly since: string | undefined;
  /** Tombstones (deletes) after this seq only; undefined: every one after `since`, none when `since` is undefined. */
  readonly tombstonesAfter?: string | undefined;
  readonly limit: number;
  readonly cursors: PageCursors;
}

export interface ChangesPage {
  /**
   * Up to `limit` changes in seq order, as the JSON objects of the API
   * (`{"cursor":...,"kind":...,"id":...,"op":...,"version":...,"updated_at":...}`) joined by commas:
   * the inside of the `changes` array. Empty when there is none.
   */
  changesJson: string;
  /** The seq of the page's last change; undefined for an empty page. */
  lastSeq: string | undefined;
  /** More changes follow the page. */
  hasMore: boolean;
  /** The seq of the website's latest change (0 without any). */
  head: string;
  /** The highest seq of a purged tombstone (0 when none was purged). */
  floor: string;
  /** The head the page's sync cursors carry; undefined for plain cursors. */
  cursorHead: string | undefined;
}

interface PageRow {
  head: string;
  floor: string;
  cursor_head: string | null;
  last_seq: string | null;
  has_more: boolean;
  changes_json: string | null;
}

/** No tombstone at all (a read without `since`: the state now, upserts only). */
const NO_TOMBSTONES = '9223372036854775807';

/**
 * Reads up to `limit` changes of a website after `since`, and one more to tell whether more follow
 * (numbered as read, in the index's order: no sort).
 *
 * The JSON written here must equal what the API's own functions give (test/features/change-feed/changes.test.ts
 * compares them): a cursor is encodeCursor / encodeSyncCursor's base64url text. The payloads are
 * `c1:`/`s1:`, digits and colons, at most 42 bytes, whose base64 never holds `+` or `/` (the only
 * letters base64url changes) nor a line break (encode breaks lines after 76 characters): dropping
 * the padding is all that is left. `updated_at` is toApiTimestamp's form (UTC, microseconds only
 * when there are some).
 */
export async function readChangesPage(db: ReadDb, websiteId: string, query: ChangesPageQuery): Promise<ChangesPage> {
  const { since, limit, cursors } = query;
  const tombstonesAfter = query.tombstonesAfter ?? (since === undefined ? NO_TOMBSTONES : since);
  const syncHead = cursors.form === 'sync' ? cursors.head : null;
  const result = await sql<PageRow>`${prepared('read_changes_page')}
    with feed as materialized (
      select f.head, f.floor,
        case when ${cursors.form === 'sync-start'}::boolean then greatest(f.head, f.floor) else ${syncHead}::bigint end as cursor_head
      from (select coalesce((select max(seq) from website_changes where website_id = ${websiteId}::uuid), 0) as head,
          coalesce((select max(floor_seq) from website_feeds where website_id = ${websiteId}::uuid), 0) as floor) f
    ),
    page as (
      select c.seq, c.entry_json, row_number() over (order by c.seq) as n
      from website_changes c
      where c.website_id = ${websiteId}::uuid and c.seq > ${since ?? '0'}::bigint and (c.op = 'upsert' or c.seq > ${tombstonesAfter}::bigint)
      order by c.seq
      limit ${limit + 1}::int
    )
    select f.head::text as head, f.floor::text as floor, f.cursor_head::text as cursor_head, a.last_seq, a.has_more, a.changes_json
    from feed f
    cross join lateral (
      select (max(g.seq) filter (where g.n <= ${limit}::int))::text as last_seq,
        coalesce(max(g.n), 0) > ${limit}::int as has_more,
        string_agg(
          '{"cursor":"' || rtrim(encode(convert_to(
              case when f.cursor_head is null then 'c1:' || g.seq else 's1:' || g.seq || ':' || f.cursor_head end, 'UTF8'), 'base64'), '=')
          || g.entry_json,
          ',' order by g.seq) filter (where g.n <= ${limit}::int) as changes_json
      from page g
    ) a`.execute(db);
  const row = result.rows[0]!;
  return {
    changesJson: row.changes_json ?? '',
    lastSeq: row.last_seq ?? undefined,
    hasMore: row.has_more,
    head: row.head,
    floor: row.floor,
    cursorHead: row.cursor_head ?? undefined,
  };
}
