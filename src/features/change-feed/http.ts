/**
 * GET /api/v1/changes (extension E5): the change feed of the caller's website, as Contentful's
 * Sync API does it. Without `since`: everything the key sees now, as upserts; then, with
 * `since=next_cursor`, every change after it (upserts and deletes), forever. A cursor that is not
 * one of ours is a 422 at ["query", "since"]; one older than the purged tombstones a 410.
 */
import Type from 'typebox';
import { CHANGES_DEFAULT_LIMIT, CURSOR_MAX_LENGTH, decodePosition, encodeCursor, encodeSyncCursor, type SyncPosition } from './model.js';
import { readChangesPage } from './read.js';
import { JSON_TYPE } from '../../http/content-types.js';
import { keyedOperation, sendDetail, type PartReader } from '../../http/operation.js';
import type { InputChecker } from '../../http/validation/input-checker.js';
import { ChangesQuery } from './schemas.js';
import { errorResponses } from '../../http/schemas/error-responses.js';
import { issues } from '../../http/validation/issues.js';

interface ChangesInput {
  /** The position the cursor names (a seq, or a first sync's position); undefined without `since`. */
  since: string | SyncPosition | undefined;
  limit: number;
}

export const EXPIRED_CURSOR = 'Cursor expired';

const SinceQuery = Type.Object({ since: ChangesQuery.properties.since });
const LimitQuery = Type.Object({ limit: ChangesQuery.properties.limit });

/** Field by field, in the order FastAPI reports them: `since` (its schema, then the cursor), `limit`. */
function readChangesQuery(check: InputChecker): ChangesInput | undefined {
  const sinceQuery = check.query<{ since?: string }>(SinceQuery);
  let since: string | SyncPosition | undefined;
  let valid = sinceQuery !== undefined;
  if (sinceQuery?.since !== undefined) {
    since = decodePosition(sinceQuery.since);
    if (since === undefined) {
      const reason =
        sinceQuery.since.length > CURSOR_MAX_LENGTH ? `a cursor has at most ${CURSOR_MAX_LENGTH} characters` : 'not a cursor of this feed';
      check.report(issues.valueError(['query', 'since'], sinceQuery.since, `${reason}; use next_cursor from an earlier answer`));
      valid = false;
    }
  }
  const limitQuery = check.query<{ limit?: number }>(LimitQuery);
  if (!valid || limitQuery === undefined) return undefined;
  return { since, limit: limitQuery.limit ?? CHANGES_DEFAULT_LIMIT };
}

const changesQuery: PartReader<ChangesInput> = { schema: ChangesQuery, read: readChangesQuery };

export const listChangesOperation = keyedOperation({
  operationId: 'list_changes',
  summary: 'Change feed',
  description:
    'What changed for your website, in order: `upsert` (fetch the entity by id) and `delete` (drop it). ' +
    'Without `since`: everything you see now as upserts, page by page (`has_more`); then keep `next_cursor` and ask ' +
    '`?since=<next_cursor>` whenever you want what changed since (an empty page still gives a `next_cursor`). ' +
    'Deletes are kept at least 30 days (FEED_RETENTION_DAYS); a cursor older than that answers 410 `Cursor expired`: start ' +
    'again without `since`. Never served from the response cache: a page shows an import from the moment it commits.',
  tags: ['changes'],
  query: changesQuery,
  responses: {
    200: { description: 'A page of changes', content: { 'application/json': { schema: Type.Ref('ChangeFeed') } } },
    410: {
      description: 'The cursor is older than the deletes still kept: start again without `since`.',
      content: { 'application/json': { schema: Type.Ref('ErrorResponse'), example: { detail: EXPIRED_CURSOR } } },
    },
    ...errorResponses(),
  },
  async handle({ query }, { db, caller, reply }) {
    const { since, limit } = query;
    const sync = typeof since === 'object' ? since : undefined;
    const plain = typeof since === 'string' ? since : undefined;
    // A first sync pages on with positions that remember where it began (see SyncPosition): it
    // began at the head, or at the floor when the newest changes were purged tombstones.
    const page = await readChangesPage(db, caller.websiteId, {
      since: sync ? sync.seq : plain,
      tombstonesAfter: sync?.head,
      limit,
      cursors: sync ? { form: 'sync', head: sync.head } : since === undefined ? { form: 'sync-start' } : { form: 'plain' },
    });
    // Expired: a tombstone after the position may have been purged (for a first sync, one after it began).
    const position = sync ? sync.head : plain;
    if (position !== undefined && BigInt(position) < BigInt(page.floor)) return sendDetail(reply, 410, EXPIRED_CURSOR);
    const max = (...seqs: string[]) => seqs.map(BigInt).reduce((a, b) => (a > b ? a : b));
    // Nothing more now: continue from the head (or from where the client is, if that is ahead, or
    // from the floor), so that an empty page still gives a cursor and known deletes are not resent.
    const next = page.hasMore
      ? page.cursorHead === undefined ? encodeCursor(page.lastSeq!) : encodeSyncCursor(page.lastSeq!, page.cursorHead)
      : encodeCursor(max(page.head, page.floor, sync?.seq ?? plain ?? '0'));
    // The page's changes come written as JSON (src/features/change-feed/read.ts); the rest is the same
    // object JSON.stringify would write, key for key.
    reply.type(JSON_TYPE);
    return `{"changes":[${page.changesJson}],"next_cursor":${JSON.stringify(next)},"has_more":${page.hasMore}}`;
  },
});
