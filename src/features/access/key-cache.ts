/**
 * A short-lived, bounded, in-process cache of API key lookups (hash -> key record, or "unknown").
 * The time to live is at most 5 seconds (config.keyCacheTtlMs), so a key deactivated in the
 * database is refused by every running instance within 5 seconds (CONTRACT 2). Concurrent lookups
 * of the same key share one query.
 */
import type { ApiKeyRecord } from './read.js';

interface Entry {
  record: ApiKeyRecord | undefined;
  expiresAt: number;
}

export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<ApiKeyRecord | undefined>>();

  constructor(
    private readonly load: (keySha256: string) => Promise<ApiKeyRecord | undefined>,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The remembered lookup while it is fresh, synchronously (the hot path of every request), as
   * `{ record }`; undefined when the key must be read (then call lookup()).
   */
  peek(keySha256: string): { record: ApiKeyRecord | undefined } | undefined {
    if (this.ttlMs <= 0) return undefined;
    const hit = this.entries.get(keySha256);
    return hit && hit.expiresAt > this.now() ? hit : undefined;
  }

  async lookup(keySha256: string): Promise<ApiKeyRecord | undefined> {
    const fresh = this.peek(keySha256);
    if (fresh) return fresh.record;
    const pending = this.inflight.get(keySha256);
    if (pending) return pending;
    const loading = this.load(keySha256)
      .then((record) => {
        this.remember(keySha256, record);
        return record;
      })
      .finally(() => this.inflight.delete(keySha256));
    this.inflight.set(keySha256, loading);
    return loading;
  }

  private remember(keySha256: string, record: ApiKeyRecord | undefined): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(keySha256);
    // Map keeps insertion order: the first entries are the oldest. Random unknown keys can
    // fill the cache but never grow it past maxEntries.
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    this.entries.set(keySha256, { record, expiresAt: this.now() + this.ttlMs });
  }

  /** Forgets every remembered key (keys changed in the database). */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
