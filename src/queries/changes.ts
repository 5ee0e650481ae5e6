/**
 * One page of a website's change feed (extension E5), read in ONE statement so that the page, the
 * feed's head and its floor come from the same snapshot: a page never holds half of an import, and
 * the expiry check (since below the floor) judges exactly the tombstones the page could have held.
 *
 * Without `since`: the entities the website sees now (upserts only, tombstones skipped), in seq
 * order. With `since`: every change after it, deletes included.
 */
import { sql } from 'kysely';
import { prepared } from '../db/prepared.js';
import type { ChangeKind, ChangeOp } from '../domain/change-feed.js';
import type { ReadDb } from './readonly.js';

export interface ChangeRow {
  kind: ChangeKind;
  entity_id: string;
  op: ChangeOp;
  version: number;
  updated_at: string;
  /** bigint as decimal text. */
  seq: string;
}

export interface ChangesPage {
  /** Up to `limit` changes in seq order. */
  rows: ChangeRow[];
  /** More changes follow the page. */
  hasMore: boolean;
  /** The seq of the website's latest change (0 without any). */
  head: string;
  /** The highest seq of a purged tombstone (0 when none was purged). */
  floor: string;
}

interface Line {
  part: 'change' | 'head' | 'floor';
  kind: ChangeKind | null;
  entity_id: string | null;
  op: ChangeOp | null;
  version: number | null;
  updated_at: string | null;
  seq: string;
}

/** No tombstone at all (a read without `since`: the state now, upserts only). */
const NO_TOMBSTONES = '9223372036854775807';

/**
 * Reads up to `limit` changes of a website after `since` (a seq; undefined: the initial state),
 * with the tombstones (deletes) after `tombstonesAfter` only (default: every one after `since`; a
 * first sync skips those from before it began). One more row than asked for is read to tell
 * whether more follow.
 */
export async function readChanges(
  db: ReadDb,
  websiteId: string,
  since: string | undefined,
  limit: number,
  tombstonesAfter: string | undefined = since === undefined ? NO_TOMBSTONES : since,
): Promise<ChangesPage> {
  const result = await sql<Line>`${prepared('read_changes')}
    (select 'change' as part, c.kind, c.entity_id, c.op, c.version, c.updated_at, c.seq::text as seq
      from website_changes c
      where c.website_id = ${websiteId}::uuid and c.seq > ${since ?? '0'}::bigint and (c.op = 'upsert' or c.seq > ${tombstonesAfter}::bigint)
      order by c.seq
      limit ${limit + 1}::int)
    union all
    select 'head', null, null, null, null, null, coalesce(max(seq), 0)::text from website_changes where website_id = ${websiteId}::uuid
    union all
    select 'floor', null, null, null, null, null, coalesce(max(floor_seq), 0)::text from website_feeds where website_id = ${websiteId}::uuid`.execute(db);
  let head = '0';
  let floor = '0';
  const rows: ChangeRow[] = [];
  for (const line of result.rows) {
    if (line.part === 'head') head = line.seq;
    else if (line.part === 'floor') floor = line.seq;
    else rows.push({ kind: line.kind!, entity_id: line.entity_id!, op: line.op!, version: line.version!, updated_at: line.updated_at!, seq: line.seq });
  }
  rows.sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1));
  const hasMore = rows.length > limit;
  return { rows: hasMore ? rows.slice(0, limit) : rows, hasMore, head, floor };
}
