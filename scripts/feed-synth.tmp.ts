import { sql } from 'kysely';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { recordWebsiteChanges } from '../src/writes/change-feed.js';
import { createThrowawayPostgres } from '../test/helpers/db.js';

const n = Number(process.argv[2] ?? 10000);
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const pgdb = await createThrowawayPostgres();
const handle = await openDatabase({ databaseUrl: pgdb.url, poolMax: 2, statementTimeoutMs: 600000 });
const org = '11111111-1111-4111-8111-111111111111';
try {
  await migrateToLatest(handle.db);
  await sql`insert into organizations (organization_id, name) values (${org}, 'x')`.execute(handle.db);
  await sql`insert into websites (website_id, organization_id, name) values (gen_random_uuid(), ${org}, 'w')`.execute(handle.db);
  await sql`insert into offers (offer_id, organization_id, external_id, created_at, updated_at, offer_data, offer_data_json)
    select gen_random_uuid(), ${org}, 'E' || i, now(), now(), '{}', '{}' from generate_series(1, ${n}::int) i`.execute(handle.db);
  await sql`analyze`.execute(handle.db);
  const time = async (label: string) => {
    const t = Date.now();
    const s = await handle.db.transaction().execute(async (trx) => {
      await sql`load 'auto_explain'`.execute(trx);
      await sql`set local auto_explain.log_min_duration = 300`.execute(trx);
      await sql`set local auto_explain.log_analyze = on`.execute(trx);
      return recordWebsiteChanges(trx, [org]);
    });
    console.log(`${label}: ${((Date.now() - t) / 1000).toFixed(2)} s`, JSON.stringify(s[0]?.counts ?? {}));
  };
  await time(`${n} offers, all new`);
  await sql`analyze`.execute(handle.db);
  await time('nothing changed');
  await sql`update offers set version = version + 1 where offer_id in (select offer_id from offers order by offer_id limit 1000)`.execute(handle.db);
  await time('1000 changed');
  await sql`update offers set is_active = false where offer_id in (select offer_id from offers order by offer_id desc limit 1000)`.execute(handle.db);
  await time('1000 deactivated');
} finally {
  await handle.close();
  await pgdb.drop();
}
