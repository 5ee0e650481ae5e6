/**
 * Each row of the change feed keeps the JSON of its change, all but the cursor (which depends on
 * the read: `c1:` or a first sync's `s1:` with its head): `","kind":…,"updated_at":"…"}`. A page of
 * 1,000 changes then joins stored texts instead of formatting 1,000 timestamps and concatenating
 * six fields per row; that formatting was 1.5 of the 2.5 ms PostgreSQL spent on such a page.
 *
 * ecs_change_entry() writes the text, here for the rows that exist and in the import's writer
 * (src/features/change-feed/write.ts) for every row it inserts or updates, so there is one definition. Its
 * output must equal the API's own functions (test/features/change-feed/changes.test.ts): `updated_at` in UTC with
 * microseconds only when there are some; every other value needs no JSON escaping.
 *
 * Frozen: later changes go into new migration files.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `SET LOCAL statement_timeout = 0`,
  `CREATE FUNCTION ecs_change_entry(kind text, entity_id uuid, op text, version integer, updated_at timestamptz)
    RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
      SELECT '","kind":"' || kind || '","id":"' || entity_id || '","op":"' || op || '","version":' || version
        || ',"updated_at":"' || replace(to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), '.000000Z', 'Z') || '"}'
    $$`,
  `ALTER TABLE website_changes ADD COLUMN entry_json text`,
  `UPDATE website_changes SET entry_json = ecs_change_entry(kind, entity_id, op, version, updated_at)`,
  `ALTER TABLE website_changes ALTER COLUMN entry_json SET NOT NULL`,
];

const DOWN: readonly string[] = [`ALTER TABLE website_changes DROP COLUMN entry_json`, `DROP FUNCTION ecs_change_entry(text, uuid, text, integer, timestamptz)`];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
