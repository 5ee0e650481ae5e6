/** The content version: the number every import that changes anything bumps (src/writes). */
import type { ReadDb } from './readonly.js';

/** content_state.content_version as text; undefined before the first migration wrote it. */
export async function readContentVersion(db: ReadDb): Promise<string | undefined> {
  const row = await db.selectFrom('content_state').select('content_version').where('id', '=', 1).executeTakeFirst();
  return row ? String(row.content_version) : undefined;
}
