/**
 * The price-transparency dataset (extension E10):
 *
 * - `organizations.developer`: the developer's legal data as the bundle gave it (name, legal form,
 *   KRS or CEIDG, NIP, REGON, contacts, seat and sales offices), never shown in the original
 *   interface's answers;
 * - `investments.location`: the investment's address, as the dataset names it;
 * - `transparency_datasets`: the organizations whose dataset an operator turned on, with the
 *   public URL the harvester is given. Turning it off deletes the row; the dataset's identity is
 *   derived from the organization's id, so turning it on again publishes the same dataset. No
 *   foreign key: the command checks the organization, and the public paths join it.
 *
 * Written to run again harmlessly (IF NOT EXISTS), as every latest migration must be
 * (test/db/routines.test.ts runs the latest one twice).
 *
 * Frozen: later changes go into new migration files.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `ALTER TABLE organizations ADD COLUMN IF NOT EXISTS developer jsonb`,
  `ALTER TABLE investments ADD COLUMN IF NOT EXISTS location jsonb`,
  `CREATE TABLE IF NOT EXISTS transparency_datasets (
    organization_id uuid PRIMARY KEY,
    public_url text NOT NULL,
    enabled_at timestamptz NOT NULL DEFAULT now()
  )`,
];

const DOWN: readonly string[] = [
  `DROP TABLE transparency_datasets`,
  `ALTER TABLE investments DROP COLUMN location`,
  `ALTER TABLE organizations DROP COLUMN developer`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
