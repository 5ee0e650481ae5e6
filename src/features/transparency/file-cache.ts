/**
 * The built files of the dataset, kept in memory: a file is built once per organization, day,
 * content version and public URL, so the harvester's daily fetches (and anyone else's) cost a
 * lookup. Built in createServices, bounded by bytes.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';

export interface BuiltFile {
  readonly body: Buffer;
  /** A strong ETag: the quoted SHA-256 of the bytes (the same bytes, the same tag). */
  readonly etag: string;
  /**
   * The bytes gzipped, made once when first asked for: a day's CSV repeats the developer's columns
   * on every row and shrinks about fiftyfold, which is what lets it be served fast.
   */
  gzipped(): { body: Buffer; etag: string };
}

export function builtFile(text: string): BuiltFile {
  const body = Buffer.from(text, 'utf8');
  const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
  let gzipped: { body: Buffer; etag: string } | undefined;
  return {
    body,
    etag,
    // Its own strong ETag: another representation, other bytes.
    gzipped: () => (gzipped ??= { body: gzipSync(body), etag: `${etag.slice(0, -1)}-gzip"` }),
  };
}

export class TransparencyFileCache {
  private readonly files: LRUCache<string, BuiltFile>;

  constructor(maxBytes = 64 * 1024 * 1024) {
    this.files = new LRUCache<string, BuiltFile>({ maxSize: maxBytes, sizeCalculation: (file) => Math.max(1, file.body.length) });
  }

  /** The file under `key`, built by `build` when it is not held. */
  async get(key: string, build: () => Promise<string>): Promise<BuiltFile> {
    const held = this.files.get(key);
    if (held) return held;
    const file = builtFile(await build());
    this.files.set(key, file);
    return file;
  }
}
