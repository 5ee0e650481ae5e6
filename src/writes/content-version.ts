/**
 * content_state.content_version: the number every import that changes anything bumps, inside its
 * transaction. Running instances compare it to drop their response caches (src/cache).
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';

export async function bumpContentVersion(db: Kysely<Database>): Promise<string> {
  const result = await sql<{ content_version: string }>`
    update content_state set content_version = content_version + 1, changed_at = now() where id = 1
    returning content_version`.execute(db);
  return String(result.rows[0]?.content_version ?? '');
}

export async function currentContentVersion(db: Kysely<Database>): Promise<string> {
  const row = await db.selectFrom('content_state').select('content_version').where('id', '=', 1).executeTakeFirst();
  return String(row?.content_version ?? '');
}
