/**
 * feed purge: drops change-feed deletes older than FEED_RETENTION_DAYS now (every import also does
 * it at its end), for a service whose content is rarely imported.
 */
import { purgeTombstonesNow } from './write.js';
import { CliUserError, withDatabase, type CliIo } from '../../cli/context.js';
import { json } from '../../cli/output.js';
import { plural } from '../../text/plural.js';

export async function feedPurgeCommand(io: CliIo, options: { json?: boolean }): Promise<void> {
  await withDatabase(io, async (handle, config) => {
    const purged = await purgeTombstonesNow(handle.db, config.feedRetentionDays);
    if (purged === undefined) throw new CliUserError('an import is running; purge the change feed when it has finished');
    io.stdout.write(
      options.json
        ? json({ purged, retention_days: config.feedRetentionDays })
        : `Purged ${plural(purged, 'change-feed delete')} older than ${plural(config.feedRetentionDays, 'day')}.\n`,
    );
  });
}
