/**
 * An in-process cache of whole successful responses, keyed by everything that defines one
 * (organization and website scope, content version, operation, parameters, body, include, format). Entries hold the
 * body bytes, a strong ETag and, lazily, compressed variants, so a repeated request costs a map
 * lookup. Bounded by total bytes (LRU); dropped whole when the content version changes.
 */
import { hash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';

export type Encoding = 'br' | 'gzip';

export interface CachedResponse {
  readonly body: Buffer;
  readonly contentType: string;
  /** The answer's Content-Language, when it has one (translations, extension E12): sent again on a hit. */
  readonly contentLanguage?: string | undefined;
  /** Strong ETag of the uncompressed body (quoted). */
  readonly etag: string;
  /** Compressed variants, made on first demand (shared by the requests that wait for them). */
  readonly variants: Partial<Record<Encoding, Promise<Buffer>>>;
  /** The variants made so far, for who cannot wait (a cached answer sent before Fastify: src/http/caching/early-hit.ts). */
  readonly made: Partial<Record<Encoding, Buffer>>;
  /** The ETags of every coding of this body (see variantEtag), made on first demand. */
  validators?: readonly string[];
}

/** A strong ETag for a body: the same bytes always give the same tag, on every instance. */
export function strongEtag(body: Buffer | string): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

/**
 * The ETag of a compressed variant. A content coding makes another representation, and a strong
 * validator must tell representations apart (RFC 9110 8.8.1), so the coding is part of the tag.
 */
export function variantEtag(etag: string, encoding: Encoding | undefined): string {
  return encoding === undefined ? etag : `${etag.slice(0, -1)}-${encoding}"`;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Compresses in the thread pool, so a large body does not stall other requests. */
export function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  if (encoding === 'br') {
    return brotli(body, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
  }
  return gzipAsync(body, { level: 6 });
}

/** Compressed variant of an entry, made once on first demand and kept with it. */
export function compressed(entry: CachedResponse, encoding: Encoding): Promise<Buffer> {
  const existing = entry.variants[encoding];
  if (existing !== undefined) return existing;
  const variant = compress(entry.body, encoding);
  entry.variants[encoding] = variant;
  variant.then(
    (bytes) => {
      if (entry.variants[encoding] === variant) entry.made[encoding] = bytes;
    },
    // A failure is not kept: the next request tries again.
    () => {
      if (entry.variants[encoding] === variant) delete entry.variants[encoding];
    },
  );
  return variant;
}

/** An entry that is not stored (cache off): same shape, so one code path sends both. */
export function responseEntry(body: Buffer, contentType: string, etag: string, contentLanguage?: string): CachedResponse {
  return contentLanguage === undefined ? { body, contentType, etag, variants: {}, made: {} } : { body, contentType, contentLanguage, etag, variants: {}, made: {} };
}

export class ResponseCache {
  private readonly lru: LRUCache<string, CachedResponse> | undefined;

  constructor(options: { enabled: boolean; maxBytes: number }) {
    this.lru =
      options.enabled && options.maxBytes > 0
        ? new LRUCache<string, CachedResponse>({
            maxSize: options.maxBytes,
            // Compressed variants are small next to the body; count the body twice to leave room.
            sizeCalculation: (entry, key) => Math.max(1, entry.body.length * 2 + key.length + 256),
          })
        : undefined;
  }

  get enabled(): boolean {
    return this.lru !== undefined;
  }

  get(key: string): CachedResponse | undefined {
    return this.lru?.get(key);
  }

  set(key: string, body: Buffer, contentType: string, contentLanguage?: string): CachedResponse {
    const entry = responseEntry(body, contentType, strongEtag(body), contentLanguage);
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
