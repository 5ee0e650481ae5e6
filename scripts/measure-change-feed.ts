/**
 * Measures the import's change-feed step (src/features/change-feed/write.ts) alone, on PostgreSQL: a
 * throwaway database on the server of TEST_DATABASE_URL (default the local one), one organization
 * with one website and N small offers written directly, then the step timed when every offer is
 * new, when nothing changed, after 1,000 changes and after 1,000 deactivations.
 *
 *   npx tsx scripts/measure-change-feed.ts 100000
 */
import { sql } from 'kysely';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrator.js';
import { recordWebsiteChanges } from '../src/features/change-feed/write.js';
import { createThrowawayPostgres } from '../test/helpers/db.js';

const n = Number(process.argv[2] ?? 10000);
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const scratch = await createThrowawayPostgres();
const handle = await openDatabase({ databaseUrl: scratch.url, poolMax: 2, statementTimeoutMs: 600_000 });
const org = '11111111-1111-4111-8111-111111111111';
try {
  await migrateToLatest(handle.db);
  await sql`insert into organizations (organization_id, name) values (${org}, 'Measure')`.execute(handle.db);
  await sql`insert into websites (website_id, organization_id, name) values (gen_random_uuid(), ${org}, 'measure.example')`.execute(handle.db);
  await sql`insert into offers (offer_id, organization_id, external_id, created_at, updated_at, offer_data, offer_data_json)
    select gen_random_uuid(), ${org}, 'M-' || i, now(), now(), '{}', '{}' from generate_series(1, ${n}::int) i`.execute(handle.db);
  await sql`analyze`.execute(handle.db);
  const time = async (label: string) => {
    const started = Date.now();
    const summaries = await handle.db.transaction().execute((trx) => recordWebsiteChanges(trx, [org]));
    console.log(`${label}: ${((Date.now() - started) / 1000).toFixed(2)} s ${JSON.stringify(summaries[0]?.counts ?? {})}`);
  };
  await time(`${n} offers, every one new`);
  await time('nothing changed');
  await sql`update offers set version = version + 1 where offer_id in (select offer_id from offers order by offer_id limit 1000)`.execute(handle.db);
  await time('1,000 offers changed');
  await sql`update offers set is_active = false where offer_id in (select offer_id from offers order by offer_id desc limit 1000)`.execute(handle.db);
  await time('1,000 offers deactivated');
} finally {
  await handle.close();
  await scratch.drop();
}
