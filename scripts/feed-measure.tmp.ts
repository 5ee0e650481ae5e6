import { sql } from 'kysely';
import { openDatabase } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { importBundle, openBundleFile } from '../src/import/index.js';
import { recordWebsiteChanges } from '../src/writes/change-feed.js';
import { createThrowawayPostgres } from '../test/helpers/db.js';

const file = process.argv[2]!;
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const pgdb = await createThrowawayPostgres();
const handle = await openDatabase({ databaseUrl: pgdb.url, poolMax: 2, statementTimeoutMs: 600000 });
try {
  await migrateToLatest(handle.db);
  let t = Date.now();
  const report = await importBundle(handle.db, await openBundleFile(file));
  const importS = (Date.now() - t) / 1000;
  const offers = report.counts.offers.created;
  console.log(`import: ${offers} offers in ${importS.toFixed(1)} s = ${(offers / importS).toFixed(0)} offers/s; feed summary`, JSON.stringify(report.feed));
  const orgs = (await sql<{ id: string }>`select organization_id as id from organizations`.execute(handle.db)).rows.map((r) => r.id);
  await handle.db.transaction().execute(async (trx) => {
    await sql`delete from website_changes`.execute(trx);
    t = Date.now();
    await recordWebsiteChanges(trx, orgs);
    console.log(`feed step, every offer new: ${((Date.now() - t) / 1000).toFixed(2)} s`);
    t = Date.now();
    await recordWebsiteChanges(trx, orgs);
    console.log(`feed step, nothing changed: ${((Date.now() - t) / 1000).toFixed(2)} s`);
    await sql`update offers set version = version + 1 where offer_id in (select offer_id from offers order by offer_id limit 1000)`.execute(trx);
    t = Date.now();
    const s = await recordWebsiteChanges(trx, orgs);
    console.log(`feed step, 1000 offers changed: ${((Date.now() - t) / 1000).toFixed(2)} s`, JSON.stringify(s[0]?.counts));
    throw new Error('rollback');
  }).catch((e) => { if ((e as Error).message !== 'rollback') throw e; });
  t = Date.now();
  const again = await importBundle(handle.db, await openBundleFile(file));
  console.log(`re-import unchanged: ${((Date.now() - t) / 1000).toFixed(1)} s, feed`, JSON.stringify(again.feed));
} finally {
  await handle.close();
  await pgdb.drop();
}
