/**
 * content_state.content_version: the number every import that changes anything bumps, inside its
 * transaction; running instances compare it to drop their response caches (watcher.ts). And the
 * content writers' lock: imports and scope changes take turns, so that the change feed's order is
 * commit order.
 */
import { sql, type Kysely } from 'kysely';
import { CHANGES_CHANNEL } from './notifications.js';
import type { Database } from '../../db/database.js';

/**
 * Call inside the transaction that changed content: every running instance is notified when it
 * commits (src/features/content-version/notifications.ts; PGlite has no other listener and ignores it).
 */
export async function bumpContentVersion(db: Kysely<Database>): Promise<string> {
  const result = await sql<{ content_version: string }>`
    with bumped as (
      update content_state set content_version = content_version + 1, changed_at = now() where id = 1
      returning content_version
    )
    select content_version, pg_notify(${CHANGES_CHANNEL}, content_version::text) from bumped`.execute(db);
  return String(result.rows[0]?.content_version ?? '');
}

/** API keys changed (created, deactivated): instances forget the keys they remember. */
export async function notifyKeysChanged(db: Kysely<Database>): Promise<void> {
  await sql`select pg_notify(${CHANGES_CHANNEL}, '')`.execute(db);
}

export async function currentContentVersion(db: Kysely<Database>): Promise<string> {
  const row = await db.selectFrom('content_state').select('content_version').where('id', '=', 1).executeTakeFirst();
  return String(row?.content_version ?? '');
}

/** The key of the transaction-scoped advisory lock that lets one content writer (an import, a scope change) run at a time ("ECSI"). */
export const IMPORT_LOCK_KEY = 0x45435349;

/** Takes the content writers' lock for the transaction; false when another writer holds it. */
export async function tryImportLock(db: Kysely<Database>): Promise<boolean> {
  const lock = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${sql.lit(IMPORT_LOCK_KEY)}) as locked`.execute(db);
  return lock.rows[0]?.locked === true;
}
