/**
 * An in-process cache of whole successful responses, keyed by everything that defines one
 * (organization, content version, operation, parameters, body, include, format). Entries hold the
 * body bytes, a strong ETag and, lazily, compressed variants, so a repeated request costs a map
 * lookup. Bounded by total bytes (LRU); dropped whole when the content version changes.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';

export interface CachedResponse {
  readonly body: Buffer;
  readonly contentType: string;
  readonly etag: string;
  gzip?: Buffer;
  br?: Buffer;
}

/** A strong ETag for a body: the same bytes always give the same tag, on every instance. */
export function strongEtag(body: Buffer | string): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

export type Encoding = 'br' | 'gzip';

/** Compressed variant of an entry, made once on first demand and kept with it. */
export function compressed(entry: CachedResponse, encoding: Encoding): Buffer {
  if (encoding === 'br') {
    entry.br ??= brotliCompressSync(entry.body, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: entry.body.length },
    });
    return entry.br;
  }
  entry.gzip ??= gzipSync(entry.body, { level: 6 });
  return entry.gzip;
}

export class ResponseCache {
  private readonly lru: LRUCache<string, CachedResponse> | undefined;

  constructor(options: { enabled: boolean; maxBytes: number }) {
    this.lru = options.enabled
      ? new LRUCache<string, CachedResponse>({
          maxSize: options.maxBytes,
          // Compressed variants are small next to the body; count the body twice to leave room.
          sizeCalculation: (entry) => Math.max(1, entry.body.length * 2 + 256),
        })
      : undefined;
  }

  get enabled(): boolean {
    return this.lru !== undefined;
  }

  get(key: string): CachedResponse | undefined {
    return this.lru?.get(key);
  }

  set(key: string, body: Buffer, contentType: string): CachedResponse {
    const entry: CachedResponse = { body, contentType, etag: strongEtag(body) };
    this.lru?.set(key, entry);
    return entry;
  }

  clear(): void {
    this.lru?.clear();
  }

  get size(): number {
    return this.lru?.size ?? 0;
  }
}
