/** The content version: the number every import that changes anything bumps (write.ts). */
import { sql } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { ReadDb } from '../../db/readonly.js';

/**
 * content_state.content_version as text; undefined before the first migration wrote it. A named
 * statement: every facets call counted from columns reads it (src/features/offers/facets/facets-read.ts).
 */
export async function readContentVersion(db: ReadDb): Promise<string | undefined> {
  const result = await sql<{ v: string }>`${prepared('content_version')} select content_version::text as v from content_state where id = 1`.execute(db);
  return result.rows[0]?.v;
}
