/**
 * A bounded, least-recently-used cache of rendered XML fragments. Each entry is keyed by an id and
 * remembers the source text it was rendered from; a lookup hits only when the caller's source text
 * is the same, so a changed record, a rebuilt database or a reused id can never return stale XML.
 * Comparing the source costs a memory compare, far less than escaping it again.
 * The bound is on characters held (source plus fragment), so a few huge records cannot blow it up.
 */
interface Entry {
  readonly source: string;
  readonly fragment: string;
}

const charsOf = (entry: Entry) => entry.source.length + entry.fragment.length;

export class FragmentCache {
  // A Map iterates in insertion order: re-inserting on a hit keeps the least recent entry first.
  private readonly entries = new Map<string, Entry>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  get(key: string, source: string): string | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.source !== source) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.fragment;
  }

  set(key: string, source: string, fragment: string): void {
    this.delete(key);
    const entry: Entry = { source, fragment };
    if (charsOf(entry) > this.maxChars) return;
    this.entries.set(key, entry);
    this.chars += charsOf(entry);
    for (const oldest of this.entries.keys()) {
      if (this.chars <= this.maxChars) break;
      this.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
    this.chars = 0;
  }

  /** Characters held, sources and fragments together. */
  get size(): number {
    return this.chars;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.chars -= charsOf(entry);
  }
}
