/**
 * The record of the SQL routines applied (src/db/routines/): per function, the sha256 of the
 * `CREATE OR REPLACE FUNCTION` text the migrator last applied. After the migrations the migrator
 * applies every routine whose text differs from its record, so the current definition of a
 * function lives in one file instead of in the migration that last changed it.
 *
 * Frozen: later changes go into new migration files.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `CREATE TABLE ecs_routines (
    name text PRIMARY KEY,
    sha256 text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`,
];

const DOWN: readonly string[] = [`DROP TABLE ecs_routines`];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
