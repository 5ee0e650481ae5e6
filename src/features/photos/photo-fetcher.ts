/**
 * The photo fetcher: a loop in every running instance (src/jobs/claim-worker.ts) that first
 * queues the sources of the offers imports noted (write.ts, expandNotedPhotoOffers: a chunk of
 * notes per transaction, each note taken by one instance), then claims due photo sources
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
import { expandNotedPhotoOffers } from './write.js';
import { inspectSource } from './image-processing.js';
import type { ImageStore } from './image-store.js';
import type { RenderGate } from './render-gate.js';
import { ClaimWorker } from '../../jobs/claim-worker.js';

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

/** Noted offers expanded into photo sources per transaction (about 10 sources each in the benchmark's catalogue). */
export const EXPANSION_CHUNK = 500;

/** A claim is this instance's for the fetch's time limit plus this margin (inspection, writing the file). */
export const FETCH_LEASE_MARGIN_MS = 20_000;

export class PhotoFetcher {
  private readonly worker: ClaimWorker<ClaimedSource>;
  /** Sources this instance has fetched (ready or not) since it started. */
  finished = 0;
  /** Noted offers whose sources this instance has queued since it started. */
  expanded = 0;

  constructor(private readonly options: PhotoFetcherOptions) {
    const { db, log, limits } = options;
    this.worker = new ClaimWorker<ClaimedSource>({
      concurrency: options.concurrency,
      pollMs: options.pollMs,
      // A chunk of notes first, then the due sources: fetching starts after the first chunk, and
      // the pass after this one (at once, when the chunk was full) takes the next.
      claim: async (limit) => {
        if ((await this.expandChunk()) === EXPANSION_CHUNK) this.worker.wake();
        return claimDueSources(db, limit, limits.timeoutMs + FETCH_LEASE_MARGIN_MS);
      },
      idOf: (claim) => claim.source_id,
      run: async (claim, stop) => {
        // Not `onFetched?.(await …)`: without a listener that would skip the fetch itself.
        const outcome = await this.process(claim, stop);
        options.onFetched?.(outcome);
      },
      onClaimFailed: (error) => log.warn({ err: error }, 'photos: could not look for due sources; trying again later'),
      onRunFailed: (error, claim) => log.warn({ err: error, source: claim.url }, 'photos: could not record a fetch; it is fetched again when its lease ends'),
      onEnded: () => {
        this.finished += 1;
      },
    });
  }

  start(): void {
    this.worker.start();
  }

  /** Queues the sources of every noted offer, a chunk per transaction, until none is left or one fails. */
  async expandNoted(): Promise<void> {
    while ((await this.expandChunk()) === EXPANSION_CHUNK);
  }

  /**
   * Queues the sources of a chunk of noted offers (one transaction); returns how many notes it
   * took. A failure is logged and left for the next pass (the notes stay): 0.
   */
  private async expandChunk(): Promise<number> {
    const { db, log } = this.options;
    try {
      const done = await expandNotedPhotoOffers(db, EXPANSION_CHUNK);
      this.expanded += done.offers;
      return done.notes;
    } catch (error) {
      log.warn({ err: error }, 'photos: could not queue the sources of the offers an import noted; trying again later');
      return 0;
    }
  }

  /** Looks for due sources now (after an import committed). */
  wake(): void {
    this.worker.wake();
  }

  /** Fetches under way. */
  get fetching(): number {
    return this.worker.running;
  }

  stop(): Promise<void> {
    return this.worker.stop();
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
    if (this.worker.stopped) return release();
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
