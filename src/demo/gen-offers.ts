/**
 * Writes a big content bundle for import measurements: the demo agency (organization, website,
 * branches, agents, investments) followed by N realistic offers of about 6.5 KB each, as NDJSON
 * (default) or as a JSON bundle. Offers are generated one at a time, so any N fits in memory.
 *
 *   npx tsx src/demo/gen-offers.ts --offers 100000 --out /tmp/offers-100k.ndjson
 *   npx tsx src/demo/gen-offers.ts --offers 1000 --format json --out /tmp/offers.json --seed other
 */
import fs from 'node:fs';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { Command, Option } from 'commander';
import { htmlToCleanText } from '../domain/clean-text.js';
import { demoEntities, demoOffers } from './bundle.js';

export interface GenerateOptions {
  offers: number;
  out: string;
  format: 'ndjson' | 'json';
  seed: string;
  /** General paragraphs added to each description (size of the offers). */
  paragraphs: number;
  /** Include description_clean_text, as a feed exported from a service would (default). */
  cleanText: boolean;
}

export async function writeOffersBundle(options: GenerateOptions): Promise<{ bytes: number }> {
  const entities = demoEntities(options.seed);
  const out = fs.createWriteStream(options.out);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const ndjson = options.format === 'ndjson';
  const heads: Array<[string, string, ReadonlyArray<Record<string, unknown>>]> = [
    ['organization', 'organizations', [entities.organization]],
    ['website', 'websites', [entities.website]],
    ['branch', 'branches', entities.branches],
    ['agent', 'agents', entities.agents],
    ['investment', 'investments', entities.investments],
  ];
  if (!ndjson) await write('{\n');
  for (const [type, key, records] of heads) {
    if (ndjson) for (const r of records) await write(`${JSON.stringify({ type, ...r })}\n`);
    else await write(`"${key}": [\n${records.map((r) => JSON.stringify(r)).join(',\n')}\n],\n`);
  }
  if (!ndjson) await write('"offers": [\n');
  let first = true;
  for (const offer of demoOffers(entities, options.offers, { extraParagraphs: options.paragraphs })) {
    const data = offer.offer_data as Record<string, unknown>;
    if (options.cleanText) data.description_clean_text = htmlToCleanText(String(data.description));
    const text = ndjson ? `${JSON.stringify({ type: 'offer', ...offer })}\n` : `${first ? '' : ',\n'}${JSON.stringify(offer)}`;
    first = false;
    await write(text);
  }
  if (!ndjson) await write('\n]\n}\n');
  out.end();
  await once(out, 'finish');
  return { bytes: out.bytesWritten };
}

async function main(): Promise<void> {
  const program = new Command('gen-offers')
    .description('write a content bundle with N generated offers (for import measurements)')
    .requiredOption('--offers <n>', 'number of offers', (v) => Number.parseInt(v, 10))
    .requiredOption('--out <file>', 'output file')
    .addOption(new Option('--format <format>', 'bundle format').choices(['ndjson', 'json']).default('ndjson'))
    .option('--seed <seed>', 'seed of the data (same seed, same file)', 'estate-content-bench-v1')
    .option('--paragraphs <n>', 'extra description paragraphs per offer', (v) => Number.parseInt(v, 10), 5)
    .option('--no-clean-text', 'leave description_clean_text out (the import derives it from the HTML)');
  program.parse();
  const o = program.opts<{ offers: number; out: string; format: 'ndjson' | 'json'; seed: string; paragraphs: number; cleanText: boolean }>();
  if (!Number.isInteger(o.offers) || o.offers < 0) throw new Error('--offers must be a whole number');
  const started = Date.now();
  const { bytes } = await writeOffersBundle(o);
  process.stderr.write(
    `wrote ${o.offers} offers to ${o.out}: ${(bytes / 1e6).toFixed(1)} MB (${o.offers ? Math.round(bytes / o.offers) : 0} bytes per offer) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
}

// Run as a script (not when a benchmark imports writeOffersBundle).
if (process.argv[1] && import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1])).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`gen-offers: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
