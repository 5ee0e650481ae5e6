/**
 * The demo data set, loaded through the real import path (the bundle is built in memory and fed
 * to importBundle like a file), then a fresh API key for the demo website. Loading it again
 * changes nothing but adds another key.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { createKey } from '../features/access/index.js';
import { enableDataset } from '../features/transparency/index.js';
import { priceHistoryIsEmpty } from '../features/prices/index.js';
import { importBundle, memorySource, type ImportReport } from '../import/index.js';
import { buildDemoBundle, DEMO_OFFER_COUNT, DEMO_SEED } from './bundle.js';

export { buildDemoBundle, DEMO_SEED, DEMO_OFFER_COUNT } from './bundle.js';

/** The public URL of the demo's price-transparency dataset (`npm start`'s default address). */
export const DEMO_PUBLIC_URL = 'http://127.0.0.1:8000';

export interface DemoKey {
  key_id: string;
  /** Shown once; only its hash is stored. */
  key: string;
  website_id: string;
}

/** How many of the demo's investment flats had a higher price before (a price chart, "price reduced"). */
const REDUCED_OFFERS = 12;
/** How long ago the demo's prices started to hold, in days. */
const PRICES_SINCE_DAYS = 45;

/**
 * The demo as it was PRICES_SINCE_DAYS ago (extension E10): the same bundle, every price valid
 * from then, and the first REDUCED_OFFERS offers of the investments a few percent dearer. Imported
 * before the demo itself, it gives those offers a price history with a reduction, and the
 * organization a price-transparency dataset with past days.
 */
function earlierDemoBundle(bundle: ReturnType<typeof buildDemoBundle>): ReturnType<typeof buildDemoBundle> {
  const since = new Date(Date.now() - PRICES_SINCE_DAYS * 86_400_000).toISOString();
  let reduced = 0;
  const offers = bundle.offers.map((offer) => {
    const data = offer.offer_data as Record<string, unknown>;
    const dearer = offer.investment_id && data.market_type === 'PRIMARY' && typeof data.price === 'number' && reduced < REDUCED_OFFERS;
    if (!dearer) return { ...offer, prices_valid_from: since };
    reduced += 1;
    const factor = 1 + (3 + (reduced % 4)) / 100;
    return {
      ...offer,
      prices_valid_from: since,
      offer_data: { ...data, price: Math.round((data.price as number) * factor), price_per_meter: Math.round((data.price_per_meter as number) * factor * 100) / 100 },
    };
  });
  return { ...bundle, offers };
}

export async function loadDemo(db: Kysely<Database>, options: { onImported?: (report: ImportReport) => void } = {}): Promise<DemoKey> {
  const bundle = buildDemoBundle(DEMO_SEED, DEMO_OFFER_COUNT);
  // Loaded again, the earlier prices would be dated before the current ones: only on an empty history.
  if (await priceHistoryIsEmpty(db)) await importBundle(db, memorySource({ ...earlierDemoBundle(bundle) }, 'demo data set (earlier prices)'));
  const report = await importBundle(db, memorySource({ ...bundle }, 'demo data set'));
  // The organization's price-transparency dataset is on, at the address `npm start` listens on by default.
  await enableDataset(db, bundle.organizations[0]!.organization_id as string, DEMO_PUBLIC_URL);
  options.onImported?.(report);
  const websiteId = bundle.websites[0]!.website_id as string;
  const created = await createKey(db, { websiteId, label: 'demo' });
  return { key_id: created.key_id, key: created.key, website_id: websiteId };
}
