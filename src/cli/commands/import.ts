/**
 * import FILE [--prune] [--format auto|json|ndjson]: loads a content bundle, all or nothing.
 */
import path from 'node:path';
import { importBundle, openBundleFile, type BundleFormat } from '../../import/index.js';
import { withDatabase, type CliIo } from '../context.js';
import { importReportJson, importReportText, json, reportRejectedImport } from '../output.js';
import { createProgress } from '../progress.js';

export interface ImportCommandOptions {
  prune?: boolean;
  format?: BundleFormat | 'auto';
  json?: boolean;
}

export async function importCommand(io: CliIo, file: string, options: ImportCommandOptions): Promise<void> {
  // Relative to the caller's working directory (a running service imports for a command line elsewhere).
  const source = await openBundleFile(io.cwd ? path.resolve(io.cwd, file) : file, options.format ?? 'auto');
  await withDatabase(io, async (handle, config) => {
    const progress = createProgress(io.stderr, { quiet: Boolean(options.json) });
    const started = Date.now();
    try {
      const report = await importBundle(handle.db, source, {
        prune: Boolean(options.prune),
        feedRetentionDays: config.feedRetentionDays,
        onProgress: (p) => progress.update(p),
      });
      progress.stop();
      io.stdout.write(
        options.json ? json(importReportJson(report)) : importReportText(file, report, (Date.now() - started) / 1000, Boolean(options.prune)),
      );
    } catch (error) {
      progress.stop();
      reportRejectedImport(io, error, Boolean(options.json));
      throw error;
    }
  });
}
