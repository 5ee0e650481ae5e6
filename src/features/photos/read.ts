/**
 * The photo reads of the HTTP side (on the read-only handle): the sources of an offer's photos,
 * a ready source by its content hash, the fetch queue's depth, and the signing secret the database made.
 */
import type { ReadDb } from '../../db/readonly.js';
import type { SourceState } from './model.js';

/** The stored state of the sources with these ids (absent ones are not yet known). */
export async function readSourceStates(db: ReadDb, sourceIds: readonly string[]): Promise<Map<string, SourceState>> {
  if (sourceIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('photo_sources')
    .select(['source_id', 'status', 'reason', 'content_hash', 'width', 'height', 'placeholder'])
    .where('source_id', 'in', [...new Set(sourceIds)])
    .execute();
  return new Map(
    rows.map((r) => [
      r.source_id,
      { status: r.status, reason: r.reason, contentHash: r.content_hash, width: r.width, height: r.height, placeholder: r.placeholder },
    ]),
  );
}

/** A ready source whose bytes have this content hash (to fetch it again when its file is missing here). */
export async function findReadySourceByHash(db: ReadDb, hash: string): Promise<{ source_id: string; url: string } | undefined> {
  return db
    .selectFrom('photo_sources')
    .select(['source_id', 'url'])
    .where('content_hash', '=', hash)
    .where('status', '=', 'ready')
    .limit(1)
    .executeTakeFirst();
}

/** Sources waiting to be fetched (pending, due or not): the fetch queue's depth, through photo_sources_due_idx. */
export async function countPendingSources(db: ReadDb): Promise<number> {
  const row = await db
    .selectFrom('photo_sources')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The secret migration 2026_11_27_0030 made. */
export async function readSigningSecret(db: ReadDb): Promise<string> {
  const row = await db.selectFrom('photo_settings').select('signing_secret').executeTakeFirstOrThrow();
  return row.signing_secret;
}
