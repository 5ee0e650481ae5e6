/**
 * The import pipeline: content bundles (JSON or NDJSON) into the database, all or nothing.
 *
 *   const source = await openBundleFile('bundle.ndjson');
 *   const report = await importBundle(db, source, { prune: true });
 */
export { importBundle } from './importer.js';
export type { ImportOptions, ImportProgress } from './importer.js';
export { REPORT_KINDS } from './report.js';
export type { ImportReport, KindCounts, ReportKind } from './report.js';
export { IMPORT_LOCK_KEY } from '../features/content-version/index.js';
export type { ScopeChange } from '../features/access/index.js';
export { openBundleFile, memorySource, detectFormat } from './source.js';
export type { BundleFormat, RecordSource, SourceItem } from './record-source.js';
export { ImportBusyError, ImportError, ImportInputError, ImportRejectedError } from './import-errors.js';
export { formatProblem } from './problems.js';
export type { Problem } from './problems.js';
export { RECORD_KINDS, BUNDLE_KEY } from './schemas.js';
export type { RecordKind } from './schemas.js';
