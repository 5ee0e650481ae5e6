/**
 * IMAGE_MEMORY_CACHE_MB: the answers of recently served variant URLs, by URL, least recently
 * served dropped first. A listing page asks for the same few dozen variants again and again; a URL
 * kept here is answered without a signature check (only URLs that verified are kept), a file or a
 * promise. Nothing is ever stale: a URL names its bytes, which never change.
 */
import { LRUCache } from 'lru-cache';

/** A variant's answer. */
export interface VariantFile {
  readonly bytes: Buffer;
  readonly contentType: string;
  /** Strong: the URL names the source's bytes, the width and the format. */
  readonly etag: string;
}

/** The path parameters of a variant URL, as the route reads them. */
export interface VariantUrlParts {
  readonly offer_id: string;
  readonly photo: string;
  readonly hash: string;
  readonly signature: string;
  readonly file: string;
}

/** An entry's own cost beyond its bytes and key: the object, its headers' strings, the cache's node. */
const ENTRY_OVERHEAD = 256;

export class VariantMemory {
  private readonly kept: LRUCache<string, VariantFile>;

  /** `maxBytes` > 0; an answer larger than that is not kept. */
  constructor(readonly maxBytes: number) {
    // URLs of one file (offers sharing a photo) are counted each time: the budget bounds memory from above.
    this.kept = new LRUCache<string, VariantFile>({
      maxSize: maxBytes,
      sizeCalculation: (variant, key) => variant.bytes.length + 2 * key.length + ENTRY_OVERHEAD,
    });
  }

  get(params: VariantUrlParts): VariantFile | undefined {
    return this.kept.get(keyOf(params));
  }

  /** Keeps the answer of a URL that verified. */
  set(params: VariantUrlParts, variant: VariantFile): void {
    this.kept.set(keyOf(params), variant);
  }

  /** What the kept answers are counted at (at most maxBytes). */
  get bytes(): number {
    return this.kept.calculatedSize;
  }

  get size(): number {
    return this.kept.size;
  }
}

function keyOf(params: VariantUrlParts): string {
  return `${params.offer_id}/${params.photo}/${params.hash}/${params.signature}/${params.file}`;
}
