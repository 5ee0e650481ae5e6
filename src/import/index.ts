/**
 * The import pipeline: content bundles (JSON or NDJSON) into the database, all or nothing.
 *
 *   const source = await openBundleFile('bundle.ndjson');
 *   const report = await importBundle(db, source, { prune: true });
 */
export { importBundle, IMPORT_LOCK_KEY, REPORT_KINDS } from './importer.js';
export type { ImportOptions, ImportProgress, ImportReport, KindCounts, ReportKind } from './importer.js';
export { openBundleFile, memorySource, detectFormat } from './source.js';
export type { BundleFormat, RecordSource, SourceItem } from './source.js';
export { ImportBusyError, ImportError, ImportInputError, ImportRejectedError } from './errors.js';
export { formatProblem } from './problems.js';
export type { Problem } from './problems.js';
export { RECORD_KINDS, BUNDLE_KEY } from './schemas.js';
export type { RecordKind } from './schemas.js';
