/**
 * The offers whose photo sources are still to be queued (extension E11, issue 24): an import no
 * longer inserts the sources of the offers whose photo and floor plan URL lists it writes anew
 * (200,000 rows, hashes and array parameters for a new catalogue of 20,000 offers, in the
 * import's transaction); it notes each such offer here, in its transaction (so only a committed
 * import's notes exist, and they survive a restart). The photo fetcher of a running instance
 * expands the notes into photo_sources (from the offer's data as stored then) before it claims
 * due sources, a chunk of notes per transaction, and deletes them (src/features/photos/fetcher-sql.ts).
 *
 * Not keyed by offer: an import inserts its notes without ever meeting another one (no unique
 * check to wait on, no row to lock), so a note it adds while a fetcher is expanding an earlier
 * note of the same offer is a new row, expanded afterwards with the data the import committed.
 * An offer noted twice is expanded twice, which writes nothing the second time.
 *
 * Written to run again over its own result (IF NOT EXISTS).
 *
 * Frozen: later changes go into new migration files.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS photo_offers_unqueued (
    note_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    offer_id uuid NOT NULL,
    noted_at timestamptz NOT NULL DEFAULT now()
  )`,
];

const DOWN: readonly string[] = [`DROP TABLE photo_offers_unqueued`];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
