/**
 * demo: loads the demo data set through the import path and prints a new key for it.
 */
import { loadDemo } from '../../demo/index.js';
import { plural } from '../../text/plural.js';
import { withDatabase, type CliIo } from '../context.js';
import { json } from '../output.js';

export async function demoCommand(io: CliIo, options: { json?: boolean }): Promise<void> {
  await withDatabase(io, async (handle, config) => {
    let offers = 0;
    const demo = await loadDemo(handle.db, { onImported: (report) => (offers = report.counts.offers.created + report.counts.offers.changed + report.counts.offers.unchanged) });
    if (options.json) {
      io.stdout.write(json({ key_id: demo.key_id, key: demo.key, website_id: demo.website_id }));
      return;
    }
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    io.stdout.write(
      `Loaded the demo data set (${plural(offers, 'offer')}) into ${config.databaseUrl ? 'the PostgreSQL database of DATABASE_URL' : config.dataDir}.\n` +
        `Demo website ${demo.website_id}; a new API key (shown only now):\n\n  ${demo.key}\n\n` +
        `With the service running:\n\n  curl -s -H 'Authorization: ${demo.key}' http://${host}:${config.port}/api/v1/organization\n\n`,
    );
  });
}
