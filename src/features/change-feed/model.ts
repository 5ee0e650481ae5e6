/**
 * The change feed's vocabulary (extension E5): kinds, operations and the opaque cursor.
 *
 * Every change a website's feed records carries a number from one global sequence (its `seq`);
 * a website's feed is its changes in `seq` order, one entry per entity (compacted: the entity's
 * latest change). A cursor names a position in that order: the `seq` of the last change the client
 * applied. It is the base64url text of a versioned payload (`c1:<seq>`), so that the format can
 * change later without breaking cursors clients hold; anything else is refused (422).
 */

export const CHANGE_KINDS = ['organization', 'branch', 'agent', 'investment', 'offer'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export const CHANGE_OPS = ['upsert', 'delete'] as const;
export type ChangeOp = (typeof CHANGE_OPS)[number];

/** limit: 1..1000, default 100. */
export const CHANGES_MAX_LIMIT = 1000;
export const CHANGES_DEFAULT_LIMIT = 100;

/** A cursor is short; a longer `since` is refused before it is decoded. */
export const CURSOR_MAX_LENGTH = 64;

const PAYLOAD = /^c1:(0|[1-9][0-9]{0,18})$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const MAX_SEQ = 9223372036854775807n;

/** The cursor of a position (a seq, as decimal text or bigint). */
export function encodeCursor(seq: string | bigint | number): string {
  return Buffer.from(`c1:${BigInt(seq).toString()}`, 'utf8').toString('base64url');
}

/**
 * The seq a cursor names (decimal text), or undefined when the text is not a cursor this service
 * gave out: only the canonical base64url form of a known payload version is accepted.
 */
export function decodeCursor(cursor: string): string | undefined {
  if (cursor.length === 0 || cursor.length > CURSOR_MAX_LENGTH || !BASE64URL.test(cursor)) return undefined;
  const payload = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = PAYLOAD.exec(payload);
  if (!match) return undefined;
  const seq = BigInt(match[1]!);
  if (seq > MAX_SEQ) return undefined;
  // One text per position: re-encoding must give the same cursor back.
  if (encodeCursor(seq) !== cursor) return undefined;
  return seq.toString();
}

/**
 * A position in the feed while a first sync (a read without `since`) pages through it: `seq` of the
 * last change sent, and `head`, the feed's head when the sync began. Such a client has never held
 * anything deleted before `head`, so its later pages skip those tombstones, and its position does
 * not expire while the tombstones after `head` are kept, however old the upserts it pages through.
 */
export interface SyncPosition {
  seq: string;
  head: string;
}

const SYNC_PAYLOAD = /^s1:(0|[1-9][0-9]{0,18}):(0|[1-9][0-9]{0,18})$/;

export function encodeSyncCursor(seq: string | bigint, head: string | bigint): string {
  return Buffer.from(`s1:${BigInt(seq).toString()}:${BigInt(head).toString()}`, 'utf8').toString('base64url');
}

/** A cursor's position: a seq (decimal text), a first sync's position, or undefined when it is not a cursor. */
export function decodePosition(cursor: string): string | SyncPosition | undefined {
  const seq = decodeCursor(cursor);
  if (seq !== undefined) return seq;
  if (cursor.length === 0 || cursor.length > CURSOR_MAX_LENGTH || !BASE64URL.test(cursor)) return undefined;
  const match = SYNC_PAYLOAD.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) return undefined;
  const position = { seq: BigInt(match[1]!), head: BigInt(match[2]!) };
  if (position.seq > MAX_SEQ || position.head > MAX_SEQ) return undefined;
  if (encodeSyncCursor(position.seq, position.head) !== cursor) return undefined;
  return { seq: position.seq.toString(), head: position.head.toString() };
}

/** Counts of one kind in an import's changes to a website's feed. */
export interface ChangeCounts {
  upsert: number;
  delete: number;
}

/** What an import changed in one website's feed (E6 webhooks send it). */
export interface WebsiteChangeSummary {
  websiteId: string;
  /** The E5 cursor after this import's changes: the website's feed head. */
  cursor: string;
  counts: Partial<Record<ChangeKind, ChangeCounts>>;
}
