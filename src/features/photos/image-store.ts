/**
 * IMAGE_CACHE_DIR: fetched sources (`sources/ab/<hash>`) and rendered variants
 * (`variants/ab/<hash>/<width>.<format>`), named by the content hash of the source. Every file
 * is written to a temporary name beside it and renamed into place, so a reader sees a whole file
 * or none, and several instances sharing the folder (a volume) may write the same file at once:
 * the last rename wins with the same bytes.
 */
import { randomBytes } from 'node:crypto';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { VariantFormat } from './model.js';

export class ImageStore {
  constructor(readonly root: string) {}

  sourcePath(hash: string): string {
    return path.join(this.root, 'sources', hash.slice(0, 2), hash);
  }

  variantPath(hash: string, width: number, format: VariantFormat): string {
    return path.join(this.root, 'variants', hash.slice(0, 2), hash, `${width}.${format}`);
  }

  /** The file's bytes, or undefined when it is not there. */
  async read(file: string): Promise<Buffer | undefined> {
    try {
      return await readFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** True when the file is there. */
  async has(file: string): Promise<boolean> {
    try {
      await access(file);
      return true;
    } catch {
      return false;
    }
  }

  /** Writes the file whole (temporary name, then rename). */
  async write(file: string, bytes: Uint8Array): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, bytes);
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}
