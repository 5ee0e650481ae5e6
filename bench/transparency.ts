/**
 * The price-transparency dataset in the benchmark (extension E10): turns one organization's dataset
 * on with the operator's command (`transparency enable`, the built CLI), and times cold builds of
 * today's CSV the way the service builds it on a cache miss (the statement, the rows, the ETag's
 * hash, the gzip the first gzip-accepting client causes), apart from the HTTP load, whose
 * `prices-csv` scenario measures the file served from memory.
 */
import path from 'node:path';
import { openDatabase } from '../src/db/connect.js';
import type { ReadDb } from '../src/db/readonly.js';
import { buildCsv, endOfWarsawDay, normalizeDeveloper, warsawDay } from '../src/features/transparency/model.js';
import { readDatasetOffers, readDatasetState } from '../src/features/transparency/read.js';
import { builtFile } from '../src/features/transparency/file-cache.js';
import { runMeasured } from './processes.js';

/** `node dist/cli/index.js transparency enable --organization ID --public-url URL --json`. */
export async function enableTransparency(root: string, databaseUrl: string, organizationId: string): Promise<void> {
  const cli = path.join(root, 'dist', 'cli', 'index.js');
  const run = await runMeasured(
    'transparency enable',
    process.execPath,
    [cli, 'transparency', 'enable', '--organization', organizationId, '--public-url', 'http://127.0.0.1', '--json'],
    { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' }, timeoutMs: 120_000 },
  );
  if (run.code !== 0) throw new Error(`transparency enable failed (exit ${run.code}): ${run.stderr.trim() || run.stdout.trim()}`);
}

export interface ColdBuild {
  readonly rows: number;
  readonly bytes: number;
  readonly gzippedBytes: number;
  /** Milliseconds: the statement (with turning rows into offers), writing the CSV, hashing, gzipping. */
  readonly statementMs: number;
  readonly writeMs: number;
  readonly hashMs: number;
  readonly gzipMs: number;
  readonly totalMs: number;
}

/** Builds today's CSV of the organization `times` times from nothing, timing each step. */
export async function timeColdBuilds(databaseUrl: string, organizationId: string, times: number): Promise<ColdBuild[]> {
  const handle = await openDatabase({ databaseUrl, poolMax: 2 });
  try {
    const db: ReadDb = handle.db;
    const state = await readDatasetState(db, organizationId);
    if (!state) throw new Error(`the dataset of ${organizationId} is not on`);
    const builds: ColdBuild[] = [];
    for (let i = 0; i < times; i++) {
      const t0 = performance.now();
      const offers = await readDatasetOffers(db, organizationId, endOfWarsawDay(warsawDay(new Date())));
      const t1 = performance.now();
      const text = buildCsv(state.developer ?? normalizeDeveloper({}), offers);
      const t2 = performance.now();
      const file = builtFile(text);
      const t3 = performance.now();
      const gzipped = file.gzipped();
      const t4 = performance.now();
      builds.push({
        rows: offers.length,
        bytes: file.body.length,
        gzippedBytes: gzipped.body.length,
        statementMs: t1 - t0,
        writeMs: t2 - t1,
        hashMs: t3 - t2,
        gzipMs: t4 - t3,
        totalMs: t4 - t0,
      });
    }
    return builds;
  } finally {
    await handle.close();
  }
}
