/**
 * content_state.content_version: the number every import that changes anything bumps, inside its
 * transaction. Running instances compare it to drop their response caches (src/cache).
 */
import { sql, type Kysely } from 'kysely';
import { CHANGES_CHANNEL } from '../db/change-notifications.js';
import type { Database } from '../db/database.js';

/**
 * Call inside the transaction that changed content: every running instance is notified when it
 * commits (src/db/change-notifications.ts; PGlite has no other listener and ignores it).
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
