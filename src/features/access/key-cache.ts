/**
 * What the service knows of API keys (hash -> key record, or "unknown"), trusted for at most the
 * time to live (config.keyCacheTtlMs, at most 5 seconds), so a key deactivated in the database is
 * refused by every running instance within 5 seconds (CONTRACT 2).
 *
 * Two ways of knowing, one answer:
 * - The directory: every key of the database in memory, read in one statement. Then a key that no
 *   website holds is refused without any query, however many different guesses arrive: a flood of
 *   random keys costs a hash and a map lookup each, not a database round trip each (issue 23). It
 *   is read again when it is older than the time to live and a request needs it (half-way through
 *   in the background, so steady traffic never waits); an idle service reads nothing.
 * - Per-key lookups, each remembered for the time to live, when there is no directory: when the
 *   database holds more keys than DIRECTORY_MAX_KEYS (then reading them all every few seconds would
 *   cost more than it saves) or when no directory reader is given. Concurrent lookups of the same
 *   key share one query; unknown keys are remembered too, never more than maxEntries.
 */
import type { ApiKeyRecord } from './read.js';

interface Entry {
  record: ApiKeyRecord | undefined;
  expiresAt: number;
}

/** Above this many keys the directory is not kept (per-key lookups instead); a few MB at most. */
export const DIRECTORY_MAX_KEYS = 20_000;
/** After finding too many keys, how long before the directory is tried again. */
const TOO_MANY_RETRY_MS = 60_000;
/** Unknown keys remembered as presented, at most (then forgotten all at once), and their longest text. */
const MAX_UNKNOWN_TEXTS = 4_096;
const MAX_UNKNOWN_TEXT_LENGTH = 256;

/** Reads every key (at most `limit`; more rows than that means "too many"). */
export type KeyDirectoryReader = (limit: number) => Promise<Map<string, ApiKeyRecord>>;

export interface ApiKeyCacheOptions {
  /** One key by its hash (per-key lookups). */
  load: (keySha256: string) => Promise<ApiKeyRecord | undefined>;
  /** How long an answer is trusted; 0: never (every request reads). */
  ttlMs: number;
  /** Per-key answers kept at most (default 10,000). */
  maxEntries?: number;
  now?: () => number;
  /** Every key at once (the directory); without it, per-key lookups only. */
  readDirectory?: KeyDirectoryReader;
  /** Default DIRECTORY_MAX_KEYS. */
  directoryMaxKeys?: number;
}

export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<ApiKeyRecord | undefined>>();
  private directory: Map<string, ApiKeyRecord> | undefined;
  private directoryReadAt = 0;
  private directoryReading: Promise<void> | undefined;
  /** Until when the directory is not tried (the database held too many keys). */
  private directoryPausedUntil = 0;
  /** Bumped by clear(): a directory read that started before a clear() is not used. */
  private generation = 0;
  /**
   * Keys as presented (their text, not its hash) that the cache knows, freshly, no website holds,
   * each with until when: a repeated unknown key (a flood of one guess) is refused without hashing
   * it again, the largest cost of that 401 after its log line. Only keys no website holds are kept
   * (the text of a valid key never is), and only as long as the knowledge they come from: forgotten
   * with it (clear(), a new directory), never trusted past it.
   */
  private readonly unknownTexts = new Map<string, number>();

  private readonly load: (keySha256: string) => Promise<ApiKeyRecord | undefined>;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly readDirectory: KeyDirectoryReader | undefined;
  private readonly directoryMaxKeys: number;

  constructor(options: ApiKeyCacheOptions) {
    this.load = options.load;
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
    this.readDirectory = options.readDirectory;
    this.directoryMaxKeys = options.directoryMaxKeys ?? DIRECTORY_MAX_KEYS;
  }

  /**
   * The known answer while it is fresh, synchronously (the hot path of every request), as
   * `{ record }` (record undefined: no such key); undefined when it must be read (then call lookup()).
   */
  peek(keySha256: string): { record: ApiKeyRecord | undefined } | undefined {
    if (this.ttlMs <= 0) return undefined;
    if (this.directory) {
      const age = this.now() - this.directoryReadAt;
      if (age < this.ttlMs) {
        if (age >= this.ttlMs / 2) void this.refreshDirectory().catch(() => undefined); // read ahead
        return { record: this.directory.get(keySha256) };
      }
      return undefined;
    }
    const hit = this.entries.get(keySha256);
    return hit && hit.expiresAt > this.now() ? hit : undefined;
  }

  /** Whether the key, as presented, is one rememberUnknown() was told of and the cache still knows no website holds. */
  knownUnknown(key: string): boolean {
    const until = this.unknownTexts.get(key);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.unknownTexts.delete(key);
    return false;
  }

  /**
   * Remembers the text of a key whose hash peek() has just answered "no such key", for as long as
   * that answer may be given without looking: a per-key answer's time to live; the directory's
   * half-way point, after which requests go through peek() again, which reads the directory ahead.
   */
  rememberUnknown(key: string, keySha256: string): void {
    if (this.ttlMs <= 0 || key.length > MAX_UNKNOWN_TEXT_LENGTH) return;
    let until: number;
    if (this.directory) {
      if (this.directory.has(keySha256)) return;
      until = this.directoryReadAt + this.ttlMs / 2;
    } else {
      const entry = this.entries.get(keySha256);
      if (entry === undefined || entry.record !== undefined) return;
      until = entry.expiresAt;
    }
    if (until <= this.now()) return;
    if (this.unknownTexts.size >= MAX_UNKNOWN_TEXTS) this.unknownTexts.clear();
    this.unknownTexts.set(key, until);
  }

  async lookup(keySha256: string): Promise<ApiKeyRecord | undefined> {
    const fresh = this.peek(keySha256);
    if (fresh) return fresh.record;
    if (this.wantsDirectory()) {
      await this.refreshDirectory();
      const known = this.peek(keySha256);
      if (known) return known.record;
    }
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

  /** Forgets every remembered key (keys changed in the database). */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.unknownTexts.clear();
    this.directory = undefined;
    this.directoryPausedUntil = 0;
  }

  /** Keys remembered one by one (the directory aside). */
  get size(): number {
    return this.entries.size;
  }

  /** Keys in the directory; undefined without one. */
  get directorySize(): number | undefined {
    return this.directory?.size;
  }

  private wantsDirectory(): boolean {
    return this.ttlMs > 0 && this.readDirectory !== undefined && this.now() >= this.directoryPausedUntil;
  }

  /** Reads the directory again; concurrent callers share one read. */
  private refreshDirectory(): Promise<void> {
    if (!this.readDirectory) return Promise.resolve();
    if (this.directoryReading) return this.directoryReading;
    const generation = this.generation;
    const startedAt = this.now();
    this.directoryReading = this.readDirectory(this.directoryMaxKeys)
      .then((keys) => {
        if (generation !== this.generation) return; // cleared meanwhile: this read may be stale
        // What was known of unknown keys came from the directory (or the entries) being replaced.
        this.unknownTexts.clear();
        if (keys.size > this.directoryMaxKeys) {
          this.directory = undefined;
          this.directoryPausedUntil = startedAt + TOO_MANY_RETRY_MS;
          return;
        }
        this.directory = keys;
        // Trusted from when the read started: nothing older than the time to live is ever used.
        this.directoryReadAt = startedAt;
        this.entries.clear();
      })
      .finally(() => {
        this.directoryReading = undefined;
      });
    return this.directoryReading;
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
}
