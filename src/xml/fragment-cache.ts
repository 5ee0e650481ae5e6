/**
 * A bounded, least-recently-used cache of rendered XML fragments (lru-cache, bounded by
 * characters). Each entry is keyed by an id and remembers the source text it was rendered from; a
 * lookup hits only when the caller's source text is the same, so a changed record, a rebuilt
 * database or a reused id can never return stale XML. Comparing the source costs a memory compare,
 * far less than escaping it again. The bound is on characters held (source plus fragment), so a
 * few huge records cannot blow it up.
 */
import { LRUCache } from 'lru-cache';

interface Entry {
  readonly source: string;
  readonly fragment: string;
}

export class FragmentCache {
  private readonly lru: LRUCache<string, Entry>;

  constructor(maxChars: number) {
    this.lru = new LRUCache<string, Entry>({
      maxSize: Math.max(1, maxChars),
      sizeCalculation: (entry) => Math.max(1, entry.source.length + entry.fragment.length),
    });
  }

  get(key: string, source: string): string | undefined {
    const entry = this.lru.get(key);
    return entry !== undefined && entry.source === source ? entry.fragment : undefined;
  }

  set(key: string, source: string, fragment: string): void {
    // lru-cache leaves an entry larger than the whole bound out (and drops the key's old one).
    this.lru.set(key, { source, fragment });
  }

  clear(): void {
    this.lru.clear();
  }

  /** Characters held, sources and fragments together. */
  get size(): number {
    return this.lru.calculatedSize;
  }
}
