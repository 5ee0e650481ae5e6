/**
 * examples/bundle.json as the process tests change it: its website and first offer, and a copy of
 * the bundle with that offer's price set, written to a folder of the test's own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from './processes.js';

export const EXAMPLE_WEBSITE = '0b6f8a2e-51c4-4f7e-8a3d-9c2e1f4b7d02';
export const EXAMPLE_OFFER = '0ffe0000-0000-4000-8000-000000000001';

/** Writes examples/bundle.json with EXAMPLE_OFFER's price set to `price` into `dir`; returns the file's path. */
export function exampleBundleWithPrice(dir: string, price: number): string {
  const bundle = JSON.parse(fs.readFileSync(path.join(projectRoot, 'examples/bundle.json'), 'utf8')) as {
    offers: Array<{ offer_id: string; offer_data: Record<string, unknown> }>;
  };
  bundle.offers.find((o) => o.offer_id === EXAMPLE_OFFER)!.offer_data.price = price;
  const file = path.join(dir, `bundle-${price}.json`);
  fs.writeFileSync(file, JSON.stringify(bundle));
  return file;
}
