/**
 * Writes a big content bundle for import measurements: the demo agency (organization, website,
 * branches, agents, investments) followed by N realistic offers of about 6.5 KB each, as NDJSON
 * (default) or as a JSON bundle. The benchmark's catalogue generator does the work (one
 * organization, no API key); offers are made one at a time, so any N fits in memory.
 *
 *   npx tsx scripts/gen-offers.ts --offers 100000 --out /tmp/offers-100k.ndjson
 *   npx tsx scripts/gen-offers.ts --offers 1000 --format json --out /tmp/offers.json --seed other
 */
import { Command, Option } from 'commander';
import { BENCH_SEED, generateCatalog } from '../bench/catalog.js';

const program = new Command('gen-offers')
  .description('write a content bundle with N generated offers (for import measurements)')
  .requiredOption('--offers <n>', 'number of offers', (v) => Number.parseInt(v, 10))
  .requiredOption('--out <file>', 'output file')
  .addOption(new Option('--format <format>', 'bundle format').choices(['ndjson', 'json']).default('ndjson'))
  .option('--seed <seed>', 'seed of the data (same seed, same file)', BENCH_SEED)
  .option('--paragraphs <n>', 'extra description paragraphs per offer', (v) => Number.parseInt(v, 10), 5)
  .option('--no-clean-text', 'leave description_clean_text out (the import derives it from the HTML)');
program.parse();
const o = program.opts<{ offers: number; out: string; format: 'ndjson' | 'json'; seed: string; paragraphs: number; cleanText: boolean }>();

try {
  if (!Number.isInteger(o.offers) || o.offers < 0) throw new Error('--offers must be a whole number');
  const started = Date.now();
  const { bytes } = await generateCatalog({
    offers: o.offers,
    outFile: o.out,
    organizations: 1,
    apiKeys: false,
    seed: o.seed,
    format: o.format,
    paragraphs: o.paragraphs,
    cleanText: o.cleanText,
  });
  process.stderr.write(
    `wrote ${o.offers} offers to ${o.out}: ${(bytes / 1e6).toFixed(1)} MB (${o.offers ? Math.round(bytes / o.offers) : 0} bytes per offer) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
} catch (error) {
  process.stderr.write(`gen-offers: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
