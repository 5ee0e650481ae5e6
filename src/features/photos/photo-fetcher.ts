/**
 * The photo fetcher: a loop in every running instance that claims due photo sources
 * (fetcher-sql.ts), fetches each within the limits (source-fetch.ts), inspects it
 * (image-processing.ts), keeps its bytes in IMAGE_CACHE_DIR and records it `ready`, or records it
 * `unavailable` with the reason. It runs beside the requests and the imports, never in their way:
 * no transaction is held while a source is on the wire, at most `concurrency` fetches run, image
 * work goes through the render gate, and errors are logged, never thrown.
 *
 * stop() aborts what is under way and hands those sources back (due again at once); after a crash
 * their lease ends and another instance (or this one, restarted) fetches them.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { contentHashOf, type SourceLimits } from './model.js';
import { claimDueSources, markSourceReady, markSourceUnavailable, releaseSourceClaim, type ClaimedSource } from './fetcher-sql.js';
import { fetchSourceOrDemo } from './source-fetch.js';
import { inspectSource } from './image-processing.js';
import type { ImageStore } from './image-store.js';
import type { RenderGate } from './render-gate.js';

export interface FetcherLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/** How a fetch ended: kept, recorded unavailable, or handed back because the instance stopped. */
export type FetchOutcome = 'ready' | 'unavailable' | 'released';

export interface PhotoFetcherOptions {
  db: Kysely<Database>;
  log: FetcherLog;
  allowed: readonly string[];
  limits: SourceLimits;
  store: ImageStore;
  gate: RenderGate;
  concurrency: number;
  /** How often to look for due sources when nothing wakes the fetcher. */
  pollMs: number;
  /** Told how each fetch ended (metrics). */
  onFetched?: (outcome: FetchOutcome) => void;
}

/** A claim is this instance's for the fetch's time limit plus this margin (inspection, writing the file). */
export const FETCH_LEASE_MARGIN_MS = 20_000;

export class PhotoFetcher {
  private readonly inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private ticking: Promise<void> | undefined;
  private tickAgain = false;
  /** Sources this instance has fetched (ready or not) since it started. */
  finished = 0;

  constructor(private readonly options: PhotoFetcherOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Looks for due sources now (after an import committed). */
  wake(): void {
    if (!this.stopped) this.schedule(0);
  }

  /** Fetches under way. */
  get fetching(): number {
    return this.inFlight.size;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    for (const fetch of this.inFlight.values()) fetch.controller.abort();
    await Promise.allSettled([...this.inFlight.values()].map((fetch) => fetch.done));
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    let full = false;
    this.ticking = (async () => {
      const free = this.options.concurrency - this.inFlight.size;
      if (free <= 0) return;
      try {
        const claims = await claimDueSources(this.options.db, free, this.options.limits.timeoutMs + FETCH_LEASE_MARGIN_MS);
        full = claims.length === free;
        for (const claim of claims) this.launch(claim);
      } catch (error) {
        this.options.log.warn({ err: error }, 'photos: could not look for due sources; trying again later');
      }
    })();
    await this.ticking;
    this.ticking = undefined;
    if (this.stopped) return;
    const again = this.tickAgain || (full && this.inFlight.size < this.options.concurrency);
    this.tickAgain = false;
    this.schedule(again ? 0 : this.options.pollMs);
  }

  private launch(claim: ClaimedSource): void {
    const controller = new AbortController();
    const done = this.process(claim, controller.signal)
      .then((outcome) => this.options.onFetched?.(outcome))
      .catch((error: unknown) =>
        this.options.log.warn({ err: error, source: claim.url }, 'photos: could not record a fetch; it is fetched again when its lease ends'),
      )
      .finally(() => {
        this.inFlight.delete(claim.source_id);
        this.finished += 1;
        this.wake();
      });
    this.inFlight.set(claim.source_id, { controller, done });
  }

  private async process(claim: ClaimedSource, stop: AbortSignal): Promise<FetchOutcome> {
    const { db, log, allowed, limits, store, gate } = this.options;
    const release = async () => {
      await releaseSourceClaim(db, claim);
      return 'released' as const;
    };
    const unavailable = async (reason: string) => {
      log.warn({ source: claim.url, reason }, 'photo source unavailable');
      await markSourceUnavailable(db, claim, reason);
      return 'unavailable' as const;
    };
    if (this.stopped) return release();
    const fetched = await fetchSourceOrDemo(claim.url, allowed, limits, stop);
    if (stop.aborted) return release();
    if (!fetched.ok) return unavailable(fetched.reason);
    const inspection = await gate.run(() => inspectSource(fetched.bytes, limits.maxPixels));
    if (!inspection.ok) return unavailable(inspection.reason);
    const contentHash = contentHashOf(fetched.bytes);
    const file = store.sourcePath(contentHash);
    if (!(await store.has(file))) await store.write(file, fetched.bytes);
    if (stop.aborted) return release();
    await markSourceReady(db, claim, { contentHash, width: inspection.width, height: inspection.height, placeholder: inspection.placeholder });
    log.info({ source: claim.url, width: inspection.width, height: inspection.height }, 'photo source ready');
    return 'ready';
  }
}
