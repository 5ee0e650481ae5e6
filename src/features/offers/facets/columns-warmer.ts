/**
 * Keeps the organizations' offer columns and cards (columns-cache.ts) loaded ahead of the requests:
 * every organization with active offers when the instance starts serving (largest first, while
 * they fit), and the organizations held again after each import, at the new content version, so
 * that no request pays the load (with the cards, it reads the offers' bodies). One organization at
 * a time, in the background; a request that arrives meanwhile shares the load under way.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { ReadDb } from '../../../db/readonly.js';
import { readContentVersion } from '../../content-version/index.js';
import type { OfferColumnsCache } from './columns-cache.js';
import { activeOrganizations, offerColumnsLoader } from './columns-read.js';

export class OfferColumnsWarmer {
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  private started = false;

  constructor(
    private readonly db: ReadDb,
    private readonly cache: OfferColumnsCache,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Loads every organization that fits, in the background. */
  start(): void {
    this.started = true;
    this.queue(async () => {
      const version = await readContentVersion(this.db);
      if (version === undefined) return;
      const organizations = await activeOrganizations(this.db);
      await this.load(organizations, version, 'offer columns loaded');
    });
  }

  /** After an import: the organizations held, at the new version (a no-op before start()). */
  contentChanged(version: string): void {
    if (!this.started) return;
    this.queue(() => this.load(this.cache.heldOrganizations().map((id) => ({ id, rows: 0 })), version, 'offer columns reloaded'));
  }

  /** Waits for the load under way; nothing more is started. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async load(organizations: readonly { id: string; rows: number }[], version: string, message: string): Promise<void> {
    const started = performance.now();
    const loaded = await this.cache.warm(organizations, version, offerColumnsLoader(this.db), () => this.stopped);
    if (loaded > 0) {
      this.log.info({ organizations: loaded, version, bytes: this.cache.heldBytes, ms: Math.round(performance.now() - started) }, message);
    }
  }

  private queue(work: () => Promise<void>): void {
    if (this.stopped) return;
    this.running = this.running
      .then(() => (this.stopped ? undefined : work()))
      .catch((error: unknown) => this.log.warn({ err: error }, 'offer columns not loaded ahead (requests load them)'));
  }
}
