/**
 * The benchmark's catalogue, made with the demo data set's builders (src/demo), so there is one
 * generator of realistic data: N organizations, each the demo agency under a seed of its own (its
 * own ids; branches, agents and investments in Warszawa, Kraków, Gdańsk and Wrocław), each with a
 * website carrying a known API key, and offers of benchmark size: the demo's offers with longer
 * descriptions (HTML of 1-2 KB, every offer_data field, 5-15 photos, about 6.5 KB each),
 * interleaved across the organizations as a real feed would mix them.
 *
 * The same options always give the same bytes. Records are written as they are made (NDJSON, or
 * one JSON bundle), so memory stays small whatever the size; the returned manifest holds only what
 * the benchmark needs to address the data (keys and ids).
 *
 *   npx tsx bench/catalog.ts --offers 100000 --out catalog.ndjson
 *   npx tsx scripts/gen-offers.ts --offers 100000 --out offers.ndjson   (one agency, no key: import measurements)
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { htmlToCleanText } from '../src/features/offers/clean-text.js';
import { demoEntities, demoOffers, type DemoEntities } from '../src/demo/bundle.js';
import { CITIES } from '../src/demo/places.js';

export interface CatalogOptions {
  /** Total number of offers, spread evenly over the organizations. */
  readonly offers: number;
  readonly outFile: string;
  readonly organizations?: number;
  /** Seed of the data; organization 0 is the demo agency of this seed. */
  readonly seed?: string;
  readonly format?: 'ndjson' | 'json';
  /** Give each website a known API key (the benchmark calls the service with them). */
  readonly apiKeys?: boolean;
  /** General paragraphs added to each offer's description (the size of the offers). */
  readonly paragraphs?: number;
  /** Include description_clean_text, as a feed exported from a service would. */
  readonly cleanText?: boolean;
}

export interface OrganizationManifest {
  readonly organization_id: string;
  readonly website_id: string;
  /** The website's API key in plain text (a throwaway benchmark database only); '' without keys. */
  readonly key: string;
  readonly name: string;
  /** The city most of the organization's offers are in. */
  readonly homeCity: string;
  readonly branchIds: readonly string[];
  readonly investmentIds: readonly string[];
  /** Ids of the organization's active offers, in generation order. */
  readonly activeOfferIds: readonly string[];
}

export interface CatalogManifest {
  readonly organizations: readonly OrganizationManifest[];
  readonly offers: number;
  readonly activeOffers: number;
  readonly records: number;
  readonly bytes: number;
  /** Average size of one offer record, in bytes. */
  readonly averageOfferBytes: number;
  readonly cities: readonly string[];
}

export const BENCH_SEED = 'estate-content-bench-v1';
/** The demo's agency has most of its offers in Warszawa (and its largest investment). */
const HOME_CITY = 'Warszawa';

/** Organization i's seed: the catalogue's own for the first, so one organization is the demo agency of that seed. */
const organizationSeed = (seed: string, index: number) => (index === 0 ? seed : `${seed}:organization-${index}`);

/** A key in the service's format ("ecs_" + 43 base64url characters), derived from the seed. */
function deterministicKey(seed: string, organizationIndex: number): string {
  const digest = createHash('sha256').update(`estate-bench-key:${seed}:${organizationIndex}`).digest();
  return 'ecs_' + digest.toString('base64url');
}

type Json = Record<string, unknown>;

/** Writes records as NDJSON lines or as the arrays of one JSON bundle, through a buffered stream. */
class BundleWriter {
  private readonly stream: fs.WriteStream;
  private buffer: string[] = [];
  private bufferedBytes = 0;
  /** The JSON bundle key of the array being written (JSON format). */
  private openKey: string | undefined;
  private firstInArray = true;
  bytes = 0;
  records = 0;

  constructor(
    private readonly file: string,
    private readonly format: 'ndjson' | 'json',
  ) {
    this.stream = fs.createWriteStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
    if (format === 'json') this.push('{');
  }

  /** Writes one record of a kind ("offer") under its bundle key ("offers"); returns its size in bytes. */
  async write(type: string, key: string, record: Json): Promise<number> {
    let text: string;
    if (this.format === 'ndjson') {
      text = `${JSON.stringify({ type, ...record })}\n`;
    } else {
      let prefix = '';
      if (this.openKey !== key) {
        prefix = `${this.openKey === undefined ? '' : '\n],'}\n"${key}": [\n`;
        this.openKey = key;
        this.firstInArray = true;
      }
      text = `${prefix}${this.firstInArray ? '' : ',\n'}${JSON.stringify(record)}`;
      this.firstInArray = false;
    }
    this.records += 1;
    const length = this.push(text);
    if (this.bufferedBytes >= 1 << 20) await this.flush();
    return length;
  }

  private push(text: string): number {
    const length = Buffer.byteLength(text);
    this.buffer.push(text);
    this.bufferedBytes += length;
    this.bytes += length;
    return length;
  }

  private async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const chunk = this.buffer.join('');
    this.buffer = [];
    this.bufferedBytes = 0;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    if (this.format === 'json') this.push(this.openKey === undefined ? '}\n' : '\n]\n}\n');
    await this.flush();
    await new Promise<void>((resolve, reject) => this.stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
    // On disk before anything is timed: otherwise the kernel writes the catalog's hundreds of MB back
    // while the import runs, and the import's figure carries the generator's disk writes.
    const file = await fs.promises.open(this.file, 'r+');
    try {
      await file.sync();
    } finally {
      await file.close();
    }
  }
}

const ENTITY_KINDS = [
  ['organization', 'organizations'],
  ['website', 'websites'],
  ['branch', 'branches'],
  ['agent', 'agents'],
  ['investment', 'investments'],
] as const;

function entityRecords(entities: DemoEntities, kind: (typeof ENTITY_KINDS)[number][0]): Json[] {
  switch (kind) {
    case 'organization':
      return [entities.organization];
    case 'website':
      return [entities.website];
    case 'branch':
      return entities.branches;
    case 'agent':
      return entities.agents;
    case 'investment':
      return entities.investments;
  }
}

export async function generateCatalog(options: CatalogOptions): Promise<CatalogManifest> {
  const seed = options.seed ?? BENCH_SEED;
  const organizationCount = options.organizations ?? 10;
  const withKeys = options.apiKeys ?? true;
  const writer = new BundleWriter(options.outFile, options.format ?? 'ndjson');
  try {
    const agencies = Array.from({ length: organizationCount }, (_, index) => {
      const entities = demoEntities(organizationSeed(seed, index));
      const key = withKeys ? deterministicKey(seed, index) : '';
      if (withKeys) entities.website.api_keys = [{ key, is_active: true, label: 'benchmark' }];
      return { entities, key, activeOfferIds: [] as string[] };
    });
    // Every entity first (grouped by kind, as a JSON bundle needs), then the offers.
    for (const [type, key] of ENTITY_KINDS) {
      for (const { entities } of agencies) for (const record of entityRecords(entities, type)) await writer.write(type, key, record);
    }

    // Offers interleaved across organizations, as a real feed would mix them.
    const streams = agencies.map(({ entities }, index) => {
      const count = Math.floor(options.offers / organizationCount) + (index < options.offers % organizationCount ? 1 : 0);
      return demoOffers(entities, count, { extraParagraphs: options.paragraphs ?? 5 });
    });
    let offerBytes = 0;
    let activeOffers = 0;
    for (let n = 0; n < options.offers; n++) {
      const index = n % organizationCount;
      const offer = streams[index]!.next().value as Json;
      const data = offer.offer_data as Json;
      if (options.cleanText ?? true) data.description_clean_text = htmlToCleanText(String(data.description));
      offerBytes += await writer.write('offer', 'offers', offer);
      if (offer.is_active !== false) {
        activeOffers += 1;
        agencies[index]!.activeOfferIds.push(offer.offer_id as string);
      }
    }
    await writer.close();
    return {
      organizations: agencies.map(({ entities, key, activeOfferIds }) => ({
        organization_id: entities.organizationId,
        website_id: entities.websiteId,
        key,
        name: String(entities.organization.name),
        homeCity: HOME_CITY,
        branchIds: entities.branches.map((b) => String(b.branch_id)),
        investmentIds: entities.investments.map((i) => String(i.investment_id)),
        activeOfferIds,
      })),
      offers: options.offers,
      activeOffers,
      records: writer.records,
      bytes: writer.bytes,
      averageOfferBytes: options.offers > 0 ? Math.round(offerBytes / options.offers) : 0,
      cities: CITIES.map((c) => c.name),
    };
  } catch (error) {
    await writer.close().catch(() => {});
    throw error;
  }
}

// `npx tsx bench/catalog.ts --offers N --out FILE` writes a catalog on its own.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const value = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const offers = Number(value('--offers') ?? 100_000);
  const outFile = value('--out') ?? 'catalog.ndjson';
  const started = Date.now();
  generateCatalog({ offers, outFile })
    .then((manifest) => {
      const { organizations, ...summary } = manifest;
      process.stdout.write(
        JSON.stringify({ ...summary, organizations: organizations.length, file: outFile, seconds: (Date.now() - started) / 1000 }) + '\n',
      );
    })
    .catch((error: unknown) => {
      process.stderr.write(`catalog generation failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
}
