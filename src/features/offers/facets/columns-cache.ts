/**
 * The organizations' offer columns (src/features/offers/facets/columns.ts) that facet requests are counted
 * from, one snapshot per organization, each labelled with the content version it was read at.
 * This is not a response cache: a request asks for the version the database holds now and gets a
 * snapshot of exactly that version, loading it when the held one is older, so no answer is ever
 * stale (imports bump the version in the transaction that changes offers). Concurrent requests
 * share one load. Bounded by bytes (LRU over organizations); an organization too large for the
 * bound is answered by SQL instead (load returns undefined). A snapshot whose cards (extension
 * E13) would not fit beside the snapshots held is kept without them: its sparse answers take the
 * body path.
 *
 * A running instance loads the organizations at start and again after each import (warm()), in
 * the background, so that no request pays a load it can avoid.
 */
import { LRUCache } from 'lru-cache';
import { columnBytes, snapshotBytes, type OfferColumns } from './columns.js';

/**
 * Reads an organization's columns at the current version; undefined when it has more than `maxRows`
 * active offers. `previous` is the snapshot held before, if any (a loader may reuse its unchanged parts).
 */
export type ColumnLoader = (organizationId: string, maxRows: number, previous?: OfferColumns) => Promise<OfferColumns | undefined>;

export class OfferColumnsCache {
  private readonly lru: LRUCache<string, OfferColumns>;
  private readonly loading = new Map<string, Promise<OfferColumns | undefined>>();
  /** Organizations found too large, with the version they were counted at. */
  private readonly tooLarge = new Map<string, string>();

  constructor(private readonly maxBytes: number) {
    this.lru = new LRUCache<string, OfferColumns>({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (columns) => Math.max(1, snapshotBytes(columns)),
    });
  }

  /** The largest organization (in active offers) a snapshot may hold. */
  get maxRows(): number {
    return Math.max(0, Math.floor((this.maxBytes - columnBytes(0)) / (columnBytes(1) - columnBytes(0))));
  }

  /** Bytes the held snapshots take. */
  get heldBytes(): number {
    return this.lru.calculatedSize;
  }

  /** The organizations held now (most recently used first). */
  heldOrganizations(): string[] {
    return [...this.lru.keys()];
  }

  /**
   * The organization's columns at `version` (the database's current one) or a newer one; undefined
   * when the organization is too large to hold. `load` reads them.
   */
  async get(organizationId: string, version: string, load: ColumnLoader): Promise<OfferColumns | undefined> {
    const held = this.lru.get(organizationId);
    if (held !== undefined && !isOlder(held.version, version)) return held;
    const large = this.tooLarge.get(organizationId);
    if (large !== undefined && !isOlder(large, version)) return undefined;
    let pending = this.loading.get(organizationId);
    if (pending === undefined) {
      pending = load(organizationId, this.maxRows, held).then((loaded) => {
        // Cards that would not fit beside the other organizations' snapshots: the columns alone
        // (cards never evict another organization's columns; the columns always fit, by maxRows).
        const others = this.lru.calculatedSize - (this.lru.peek(organizationId) !== undefined ? snapshotBytes(this.lru.peek(organizationId)!) : 0);
        const columns = loaded?.cards !== undefined && others + snapshotBytes(loaded) > this.maxBytes ? { ...loaded, cards: undefined } : loaded;
        if (columns === undefined) this.tooLarge.set(organizationId, version);
        else {
          this.tooLarge.delete(organizationId);
          this.lru.set(organizationId, columns);
        }
        return columns;
      });
      this.loading.set(organizationId, pending);
      void pending.finally(() => this.loading.delete(organizationId)).catch(() => undefined);
    }
    const columns = await pending;
    // A load that started before this version was current (rare: an import committed meanwhile) is
    // not good enough: read again.
    if (columns !== undefined && isOlder(columns.version, version)) return this.get(organizationId, version, load);
    return columns;
  }

  /**
   * Loads these organizations at `version`, one after another (each one load, as a request would
   * start it), while the next one is likely to fit beside those held; stops early when `stopped`
   * says so. Returns how many were loaded.
   */
  async warm(organizations: readonly { id: string; rows: number }[], version: string, load: ColumnLoader, stopped: () => boolean): Promise<number> {
    let loaded = 0;
    let bytesPerRow = columnBytes(1) - columnBytes(0);
    for (const { id, rows } of organizations) {
      if (stopped()) break;
      const held = this.lru.peek(id);
      const expected = held !== undefined ? snapshotBytes(held) : columnBytes(0) + rows * bytesPerRow;
      // Loading one that does not fit would only evict another.
      if (held === undefined && this.lru.calculatedSize + expected > this.maxBytes) break;
      const columns = await this.get(id, version, load);
      if (columns !== undefined) {
        loaded++;
        if (columns.rows > 0) bytesPerRow = Math.max(bytesPerRow, snapshotBytes(columns) / columns.rows);
      }
    }
    return loaded;
  }
}

/** Content versions are decimal bigint text. */
function isOlder(a: string, b: string): boolean {
  return BigInt(a) < BigInt(b);
}
