/**
 * The setting of an import's transaction: one import at a time (the content writers' lock of
 * src/features/content-version/write.ts), no statement
 * timeout, fast TOAST compression, the --prune bookkeeping, and the statistics refresh after a
 * large import.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';

/** A big import is one long transaction; the server's per-statement limit is not for it. */
export async function liftStatementTimeout(db: Kysely<Database>): Promise<void> {
  await sql`set local statement_timeout = 0`.execute(db);
}

/**
 * offer_data is stored twice (jsonb and text) and TOAST-compressed; lz4 compresses (and later
 * decompresses) several times faster than the default pglz. Used where the server has it.
 */
export async function preferFastCompression(db: Kysely<Database>): Promise<void> {
  const result = await sql<{ lz4: boolean }>`
    select coalesce('lz4' = any(enumvals), false) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(db);
  if (result.rows[0]?.lz4) await sql`set local default_toast_compression = 'lz4'`.execute(db);
}

/** Remembers which offers the bundle holds, for --prune (a temporary table, gone at commit). */
export async function createSeenOffersTable(db: Kysely<Database>): Promise<void> {
  await sql`create temporary table import_seen_offers (offer_id uuid primary key) on commit drop`.execute(db);
}

export async function rememberSeenOffers(db: Kysely<Database>, offerIds: readonly string[]): Promise<void> {
  if (offerIds.length === 0) return;
  await sql`insert into import_seen_offers (offer_id) values ${sql.join(offerIds.map((id) => sql`(${id})`))}`.execute(db);
}

/** Active offers of the given organizations that the bundle did not hold become inactive. */
export async function pruneOffers(db: Kysely<Database>, organizationIds: readonly string[]): Promise<number> {
  if (organizationIds.length === 0) return 0;
  const result = await sql`
    update offers set is_active = false, version = version + 1, updated_at = now()
    where organization_id in (${sql.join(organizationIds)}) and is_active
      and not exists (select 1 from import_seen_offers s where s.offer_id = offers.offer_id)`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}

/**
 * Vacuums and analyzes the content tables, so that the very next list query uses the offer indexes
 * (index-only where it can) instead of waiting for autovacuum, which may take minutes or be off.
 * The change feed too: without statistics the planner takes a website's whole feed after the
 * cursor and sorts it for every page (20 ms for 10,000 changes) instead of reading the page from
 * its index in order (0.5 ms).
 * It also moves the search index's pending entries into the index proper, which after 100,000 new
 * offers takes longer than the API's statement timeout: the session lifts it for these statements.
 * VACUUM cannot run inside a transaction: call it after the commit.
 */
export async function refreshPlannerStatistics(db: Kysely<Database>): Promise<void> {
  await db.connection().execute(async (session) => {
    await sql`set statement_timeout = 0`.execute(session);
    try {
      await sql`vacuum (analyze) offers`.execute(session);
      await sql`analyze agents, branches, investments, website_changes`.execute(session);
    } finally {
      await sql`reset statement_timeout`.execute(session);
    }
  });
}
