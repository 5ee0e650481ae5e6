/**
 * The demo data set, loaded through the real import path (the bundle is built in memory and fed
 * to importBundle like a file), then a fresh API key for the demo website. Loading it again
 * changes nothing but adds another key.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { createKey } from '../features/access/index.js';
import { importBundle, memorySource, type ImportReport } from '../import/index.js';
import { buildDemoBundle, DEMO_OFFER_COUNT, DEMO_SEED } from './bundle.js';

export { buildDemoBundle, DEMO_SEED, DEMO_OFFER_COUNT } from './bundle.js';

export interface DemoKey {
  key_id: string;
  /** Shown once; only its hash is stored. */
  key: string;
  website_id: string;
}

export async function loadDemo(db: Kysely<Database>, options: { onImported?: (report: ImportReport) => void } = {}): Promise<DemoKey> {
  const bundle = buildDemoBundle(DEMO_SEED, DEMO_OFFER_COUNT);
  const report = await importBundle(db, memorySource({ ...bundle }, 'demo data set'));
  options.onImported?.(report);
  const websiteId = bundle.websites[0]!.website_id as string;
  const created = await createKey(db, { websiteId, label: 'demo' });
  return { key_id: created.key_id, key: created.key, website_id: websiteId };
}
