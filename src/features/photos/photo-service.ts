/**
 * The photos of a running instance, built once by createServices: the URL signer (its secret from
 * IMAGE_SIGNING_SECRET or the database), the image store in IMAGE_CACHE_DIR, the render gate
 * (IMAGE_RENDER_CONCURRENCY image operations at once), and the background fetcher (which also draws the
 * demo's photos). It answers the two questions of the HTTP side: the photos of
 * an offer, and the bytes of a variant URL.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { ReadDb } from '../../db/readonly.js';
import { loadSharp } from './sharp-loader.js';
import {
  contentHashOf,
  CONTENT_TYPES,
  parseVariantAddress,
  photoUrlsOf,
  photoView,
  refusedOrigin,
  sourceIdOf,
  SOURCE_LIMITS,
  variantHeight,
  variantPath,
  type PhotoView,
  type SourceLimits,
  type VariantAddress,
} from './model.js';
import { countPendingSources, findReadySourceByHash, readSigningSecret, readSourceStates } from './read.js';
import { enqueuePhotoSources } from './write.js';
import { requeueSource } from './fetcher-sql.js';
import { fetchSourceOrDemo } from './source-fetch.js';
import { demoPhotoOfUrl } from './demo-photos.js';
import { renderVariant } from './image-processing.js';
import { ImageStore } from './image-store.js';
import { RenderGate } from './render-gate.js';
import { PhotoFetcher, type FetcherLog, type FetchOutcome } from './photo-fetcher.js';
import { UrlSigner } from './url-signing.js';
import { VariantMemory, type VariantFile, type VariantUrlParts } from './variant-memory.js';

export interface PhotoServiceOptions {
  db: Kysely<Database>;
  readDb: ReadDb;
  log: FetcherLog;
  allowed: readonly string[];
  cacheDir: string;
  /** IMAGE_SIGNING_SECRET; undefined: the database's. */
  secret: string | undefined;
  renderConcurrency: number;
  fetchConcurrency: number;
  pollMs: number;
  /** The source limits (tests shorten the time limit). */
  limits?: SourceLimits;
  /** Memory for the answers of recently served variant URLs (IMAGE_MEMORY_CACHE_MB); 0: every answer is checked and read from its file. */
  memoryCacheBytes?: number;
  /** Told what the photos do (the service's metrics). */
  observer?: PhotoObserver;
}

/** Where a variant's bytes came from: memory, its file, or neither (rendered now, or its source is gone). */
export type VariantLookup = 'memory' | 'file' | 'miss';

/** What the photos report as they work (the service's Prometheus metrics). */
export interface PhotoObserver {
  fetched(outcome: FetchOutcome): void;
  variantLookup(result: VariantLookup): void;
  rendered(seconds: number): void;
}

/** A variant URL whose signature verified, and what it names (only verified() makes one). */
export interface VerifiedUrl {
  readonly url: VariantUrlParts;
  readonly address: VariantAddress;
  readonly etag: string;
}

/** A reason recorded because IMAGE_SOURCES did not allow the source (refusedOrigin), not because it failed. */
function refusedByConfiguration(reason: string | null): boolean {
  return reason !== null && !reason.startsWith('redirected') && reason.includes('IMAGE_SOURCES');
}

export class PhotoService {
  readonly store: ImageStore;
  readonly gate: RenderGate;
  readonly fetcher: PhotoFetcher;
  readonly limits: SourceLimits;
  private signer: UrlSigner | undefined;
  private signerLoading: Promise<UrlSigner> | undefined;
  /** Variants being rendered in this process, by file: a second request waits for the first render. */
  private readonly rendering = new Map<string, Promise<Buffer | undefined>>();
  /** Variants this process has rendered (tests count the work a request caused). */
  rendered = 0;
  /** Recently served variant URLs' answers (IMAGE_MEMORY_CACHE_MB); undefined when 0. */
  readonly memory: VariantMemory | undefined;

  constructor(private readonly options: PhotoServiceOptions) {
    this.limits = options.limits ?? SOURCE_LIMITS;
    this.store = new ImageStore(options.cacheDir);
    this.gate = new RenderGate(options.renderConcurrency);
    const memory = options.memoryCacheBytes ?? 0;
    this.memory = memory > 0 ? new VariantMemory(memory) : undefined;
    // Also without IMAGE_SOURCES: it then fetches nothing, but draws the demo's photos and
    // records every other source unavailable (with the reason) instead of leaving it pending.
    this.fetcher = new PhotoFetcher({
      db: options.db,
      log: options.log,
      allowed: options.allowed,
      limits: this.limits,
      store: this.store,
      gate: this.gate,
      concurrency: options.fetchConcurrency,
      pollMs: options.pollMs,
      ...(options.observer ? { onFetched: (outcome: FetchOutcome) => options.observer!.fetched(outcome) } : {}),
    });
  }

  /** Sources waiting to be fetched (the queue's depth, for the metrics). */
  pendingSources(): Promise<number> {
    return countPendingSources(this.options.readDb);
  }

  /**
   * Reads the signing secret (the database's unless IMAGE_SIGNING_SECRET is set). An instance that
   * starts while the database cannot be reached still starts (its API answers 503 meanwhile): the
   * secret is then asked for again by the first request that needs it.
   */
  async start(): Promise<void> {
    await this.loadSigner().catch((error: unknown) =>
      this.options.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'photos: signing secret not read yet; asked again when a photo is requested'),
    );
  }

  /** The URL signer, read once (and again after a failed read). */
  async loadSigner(): Promise<UrlSigner> {
    if (this.signer) return this.signer;
    this.signerLoading ??= (async () => new UrlSigner(this.options.secret ?? (await readSigningSecret(this.options.readDb))))();
    try {
      this.signer = await this.signerLoading;
      return this.signer;
    } finally {
      this.signerLoading = undefined;
    }
  }

  startFetching(): void {
    this.fetcher.start();
  }

  /** Offers may have been noted or sources queued (an import committed): look at once. */
  wake(): void {
    this.fetcher.wake();
  }

  async stop(): Promise<void> {
    await this.fetcher.stop();
  }

  private get urlSigner(): UrlSigner {
    if (!this.signer) throw new Error('photos: loadSigner() has not succeeded yet');
    return this.signer;
  }

  /** The absolute variant URL of an address, under `base` (PUBLIC_URL or the request's origin). */
  variantUrl(base: string, address: VariantAddress): string {
    return base + variantPath(address, this.urlSigner.sign(address));
  }

  /** The photos of an offer, in the order of photos_urls, then floor_plan_urls. */
  async photosOf(offerId: string, offerData: Record<string, unknown>, base: string): Promise<PhotoView[]> {
    await this.loadSigner();
    const photos = photoUrlsOf(offerData);
    const states = await readSourceStates(this.options.readDb, photos.map((p) => sourceIdOf(p.url)));
    // A source never queued (an offer an import noted whose sources no fetcher has queued yet, or
    // one written some other way than the import): queue it now. Answered pending either way, as
    // it would be once queued.
    const usable = (url: string) => demoPhotoOfUrl(url) !== undefined || refusedOrigin(url, this.options.allowed) === undefined;
    // Also a source refused by an earlier IMAGE_SOURCES that allows it now: queued again (pending
    // again), rather than left unavailable until the next import.
    const unknown = photos.filter((p) => {
      if (!usable(p.url)) return false;
      const state = states.get(sourceIdOf(p.url));
      return state === undefined || (state.status === 'unavailable' && refusedByConfiguration(state.reason));
    });
    // Queued now: answered pending.
    for (const p of unknown) states.delete(sourceIdOf(p.url));
    if (unknown.length > 0) {
      void enqueuePhotoSources(this.options.db, unknown.map((p) => p.url))
        .then(() => this.wake())
        .catch((error: unknown) => this.options.log.warn({ err: error }, 'photos: could not queue sources'));
    }
    const builtIn = (url: string) => demoPhotoOfUrl(url) !== undefined;
    return photos.map((p) => photoView(offerId, p, states.get(sourceIdOf(p.url)), this.options.allowed, (a) => this.variantUrl(base, a), builtIn));
  }

  /**
   * The answer kept in memory for exactly this URL, or undefined. Only URLs that verified are
   * kept, so a hit needs no signature check, no file and no database: the URL names its bytes.
   */
  remembered(params: VariantUrlParts): VariantFile | undefined {
    const kept = this.memory?.get(params);
    if (kept) this.options.observer?.variantLookup('memory');
    return kept;
  }

  /** A URL the service issued, with what it names, or undefined (nothing else is done for a URL that is not). */
  async verified(params: VariantUrlParts): Promise<VerifiedUrl | undefined> {
    const signer = this.signer ?? (await this.loadSigner());
    const address = parseVariantAddress(params);
    if (!address || !signer.verify(address, params.signature)) return undefined;
    return { url: params, address, etag: this.etagOf(address) };
  }

  /**
   * The variant a verified URL names, rendered once and kept; undefined when its source is gone.
   * Kept in memory under its URL once served.
   */
  async variant(verified: VerifiedUrl): Promise<VariantFile | undefined> {
    const { address } = verified;
    const file = this.store.variantPath(address.hash, address.width, address.format);
    let found: VariantLookup = 'file';
    let bytes = await this.store.read(file);
    if (!bytes) {
      found = 'miss';
      bytes = await this.renderOnce(file, address);
    }
    this.options.observer?.variantLookup(found);
    if (!bytes) return undefined;
    const variant: VariantFile = { bytes, contentType: CONTENT_TYPES[address.format], etag: verified.etag };
    this.memory?.set(verified.url, variant);
    return variant;
  }

  etagOf(address: VariantAddress): string {
    return `"${address.hash.slice(0, 32)}-${address.width}.${address.format}"`;
  }

  private renderOnce(file: string, address: VariantAddress): Promise<Buffer | undefined> {
    let pending = this.rendering.get(file);
    if (!pending) {
      pending = this.render(file, address).finally(() => this.rendering.delete(file));
      this.rendering.set(file, pending);
    }
    return pending;
  }

  private async render(file: string, address: VariantAddress): Promise<Buffer | undefined> {
    const source = this.store.sourcePath(address.hash);
    if (!(await this.store.has(source)) && !(await this.fetchAgain(address.hash))) return undefined;
    const bytes = await this.gate.run(async () => {
      const sharp = await loadSharp();
      const meta = await sharp(source, { limitInputPixels: this.limits.maxPixels }).metadata();
      const displayed = meta.autoOrient ?? { width: meta.width, height: meta.height };
      // Never upscaled: a signed URL names a width the source has, unless its file was replaced.
      if (!displayed.width || !displayed.height || address.width > displayed.width) return undefined;
      const started = performance.now();
      const rendered = await renderVariant(source, address.width, variantHeight(displayed, address.width), address.format, this.limits.maxPixels);
      this.options.observer?.rendered((performance.now() - started) / 1000);
      return rendered;
    });
    if (!bytes) return undefined;
    this.rendered += 1;
    await this.store.write(file, bytes);
    return bytes;
  }

  /**
   * On demand: the source file is not in this instance's IMAGE_CACHE_DIR (not shared, or
   * emptied): fetch it again from its URL. Bytes that changed meanwhile are not this URL's: the
   * source is queued to be fetched anew (new URLs), and this URL answers 404.
   */
  private async fetchAgain(hash: string): Promise<boolean> {
    const known = await findReadySourceByHash(this.options.readDb, hash);
    if (!known) return false;
    const fetched = await fetchSourceOrDemo(known.url, this.options.allowed, this.limits);
    if (!fetched.ok) return false;
    if (contentHashOf(fetched.bytes) !== hash) {
      await requeueSource(this.options.db, known.source_id);
      this.wake();
      return false;
    }
    await this.store.write(this.store.sourcePath(hash), fetched.bytes);
    return true;
  }
}
