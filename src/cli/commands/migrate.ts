/**
 * migrate: brings the schema up to date (every command does this first; this one does only that).
 */
import { withDatabase, type CliIo } from '../context.js';
import { json } from '../output.js';

export async function migrateCommand(io: CliIo, options: { json?: boolean }): Promise<void> {
  await withDatabase(io, async (handle) => {
    io.stdout.write(options.json ? json({ status: 'up to date', database: handle.kind }) : `The database schema is up to date (${handle.kind}).\n`);
  });
}
