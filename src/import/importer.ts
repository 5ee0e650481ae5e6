/**
 * The import of a content bundle: all or nothing, in one transaction, as a few steps.
 *
 *   1. begin: the import lock (one import at a time), session settings, --prune bookkeeping;
 *   2. read: every record once, validated; entities wait in the entity stage until their links are
 *      known (entity-stage.ts), offers go out in pipelined batches (offer-batches.ts); every link
 *      is judged by one link checker (link-checker.ts);
 *   3. reread: the offers that came before an entity they link to, read again;
 *   4. finish: prune; record what each website of the touched organizations now sees in its change
 *      feed and purge old tombstones (src/features/change-feed/write.ts); bump the content version and
 *      write a webhook message per endpoint of each website whose feed changed (the outbox);
 *   5. after the commit: refresh planner statistics after a large import.
 *
 * Every problem anywhere (schema, duplicate id, dangling link, another organization's entity) is
 * collected; once there is one, nothing more is written and the transaction is rolled back at the
 * end, so the database is left exactly as it was and the caller gets the complete list.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { DEFAULT_FEED_RETENTION_DAYS, purgeTombstones, recordWebsiteChanges } from '../features/change-feed/index.js';
import { bumpContentVersion, currentContentVersion } from '../features/content-version/index.js';
import { enqueueContentChanged } from '../features/webhooks/index.js';
import {
  createSeenOffersTable,
  liftStatementTimeout,
  preferFastCompression,
  pruneOffers,
  refreshPlannerStatistics,
} from './session-sql.js';
import { ImportContext } from './import-context.js';
import { EntityStage } from './entity-stage.js';
import { ImportBusyError, ImportRejectedError } from './import-errors.js';
import { LinkChecker, type EntityKind } from './link-checker.js';
import { OfferBatches } from './offer-batches.js';
import { within } from './problems.js';
import type { RecordSource } from './record-source.js';
import type { ImportReport } from './report.js';
import type { OfferInput, RecordInputs } from './schemas.js';
import { validateRecord } from './validate.js';
import { tryImportLock } from '../features/content-version/index.js';
import { assignSlugs, createImportSlugTables, madeSlugsAgree } from '../features/seo/index.js';

export interface ImportProgress {
  phase: 'reading' | 'rereading';
  records: number;
  bytesRead: number;
  totalBytes: number | undefined;
}

export interface ImportOptions {
  /** Active offers of the bundle's organizations that the bundle does not hold become inactive. */
  prune?: boolean;
  onProgress?: (progress: ImportProgress) => void;
  /** Rows per INSERT statement. */
  batchSize?: number;
  /** Change-feed tombstones older than this many days are purged at the end (FEED_RETENTION_DAYS). */
  feedRetentionDays?: number;
}

/**
 * Records come from buffers as resolved promises, which would keep the database's answers waiting
 * until a buffer is empty; every few records the loop lets them in, so the next statement goes out
 * at once. The database is the import's bottleneck, so each moment it waits for the next statement
 * counts: every 2 records (about 0.5 ms of work) imported 100,000 offers in 44–46 s, every 16 in
 * 47–49 s, every 1 or 4 in 45–47 s.
 */
const YIELD_EVERY = 2;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Below this many written rows, autovacuum's own pace is good enough. */
const ANALYZE_AFTER_ROWS = 1000;

const isRecordObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Steps 2 and 3: reads the bundle through the stages; returns how many records it read. */
async function readBundle(ctx: ImportContext, source: RecordSource, options: ImportOptions): Promise<number> {
  const links = new LinkChecker(ctx.db);
  const entities = new EntityStage(ctx, links);
  const offers = new OfferBatches(ctx, links, entities);
  const progress = (phase: ImportProgress['phase'], records: number) =>
    options.onProgress?.({ phase, records, bytesRead: source.bytesRead, totalBytes: source.totalBytes });

  // Pass 1: every record.
  let records = 0;
  for await (const item of source.records()) {
    if (item.recordNo !== undefined) {
      records += 1;
      if (records % 1000 === 0) progress('reading', records);
      if (records % YIELD_EVERY === 0) await yieldToEventLoop();
    }
    if ('problem' in item) {
      ctx.problem(item.recordNo, item.path, item.problem);
      continue;
    }
    const validation = validateRecord(item.kind, item.value);
    if (!validation.ok) {
      for (const p of validation.problems) ctx.problem(item.recordNo, within(item.path, p.path), p.message);
      // An invalid record still claims its id, and its well-formed links are still checked.
      if (!isRecordObject(item.value)) continue;
      if (item.kind === 'offer') await offers.addInvalid(item, item.value, false);
      else entities.addInvalid(item.kind, item, item.value);
      continue;
    }
    if (item.kind === 'offer') await offers.add(item, validation.record as OfferInput, false);
    else entities.add(item.kind, item, validation.record as RecordInputs[EntityKind]);
  }
  progress('reading', records);
  await offers.send(false);
  await offers.drain();
  await entities.flush(true);

  // Pass 2: the offers that waited for an entity further down the file.
  const deferred = offers.deferred;
  if (deferred.length === 0) return records;
  let next = 0;
  let seen = 0;
  for await (const item of source.records()) {
    if (next >= deferred.length) break;
    if (item.recordNo === undefined) continue;
    seen += 1;
    if (seen % 1000 === 0) progress('rereading', seen);
    if (seen % YIELD_EVERY === 0) await yieldToEventLoop();
    if (item.recordNo !== deferred[next]) continue;
    next += 1;
    if ('problem' in item || item.kind !== 'offer') {
      ctx.problem(item.recordNo, item.path, 'the file changed while it was being imported');
      continue;
    }
    const validation = validateRecord('offer', item.value);
    // An invalid offer's problems were reported in pass 1; only its links are checked again.
    if (validation.ok) await offers.add(item, validation.record, true);
    else if (isRecordObject(item.value)) await offers.addInvalid(item, item.value, true);
  }
  await offers.send(true);
  await offers.drain();
  return records;
}

/**
 * Imports a bundle. Resolves with the counts; rejects with ImportRejectedError (every problem,
 * nothing written), ImportBusyError (another import holds the lock) or a database fault.
 */
export async function importBundle(db: Kysely<Database>, source: RecordSource, options: ImportOptions = {}): Promise<ImportReport> {
  const batchSize = Math.max(1, options.batchSize ?? 500);
  const report = await db.transaction().execute(async (trx) => {
    // 1. begin
    if (!(await tryImportLock(trx))) throw new ImportBusyError();
    await liftStatementTimeout(trx);
    await preferFastCompression(trx);
    if (options.prune) await createSeenOffersTable(trx);
    await createImportSlugTables(trx);

    // 2, 3. read
    const ctx = new ImportContext(trx, batchSize, options.prune === true);
    ctx.madeSlugsHere = await madeSlugsAgree(trx);
    const records = await readBundle(ctx, source, options);
    // Slugs are settled once every record is written: a given slug is judged against all of them.
    // A slug that changed alone counts as a change of its offer or investment (feed, webhooks).
    if (ctx.writing) {
      const slugs = await assignSlugs(trx, [...ctx.organizationsNamed]);
      for (const p of slugs.problems) ctx.problem(p.recordNo, within(p.path, 'slug'), p.message);
      ctx.counts.add('offers', { created: 0, changed: slugs.changed.offer });
      ctx.counts.add('investments', { created: 0, changed: slugs.changed.investment });
    }
    if (ctx.problems.count > 0) throw new ImportRejectedError(ctx.problems.list(), ctx.problems.count);

    // 4. finish
    const pruned = options.prune ? await pruneOffers(trx, [...ctx.organizationsNamed]) : 0;
    const draft = ctx.counts.report(pruned, records, '');
    // Each website's feed is compared with what the website sees now (an import that wrote
    // nothing has nothing to record), then deletes past the retention are purged.
    const feed = draft.changed ? await recordWebsiteChanges(trx, [...ctx.organizationsNamed]) : [];
    await purgeTombstones(trx, options.feedRetentionDays ?? DEFAULT_FEED_RETENTION_DAYS);
    const contentVersion = draft.changed ? await bumpContentVersion(trx) : await currentContentVersion(trx);
    // Webhook messages are written in this transaction: sent only if the import commits.
    if (feed.length > 0) await enqueueContentChanged(trx, feed);
    return { ...draft, contentVersion, feed, scopeChanges: ctx.scopeChanges } satisfies ImportReport;
  });
  // 5. after the commit (VACUUM cannot run in a transaction)
  const written = Object.values(report.counts).reduce((sum, c) => sum + c.created + c.changed, report.pruned);
  if (written >= ANALYZE_AFTER_ROWS) await refreshPlannerStatistics(db);
  return report;
}
