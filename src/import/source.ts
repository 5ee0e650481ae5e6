/**
 * Opens the record sources of record-source.ts: an NDJSON file (ndjson-source.ts), a JSON bundle
 * file (json-bundle-source.ts), or a bundle already in memory (the demo).
 *
 * Format detection: a file ending in .ndjson or .jsonl is NDJSON. Otherwise the first non-blank
 * line decides: when it is a complete JSON object with a string "type" member it is NDJSON, and
 * anything else (a pretty-printed or single-line bundle object) is read as a JSON bundle.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ImportInputError } from './import-errors.js';
import { jsonFileSource } from './json-bundle-source.js';
import { ndjsonFileSource } from './ndjson-source.js';
import { joinPath } from './problems.js';
import type { BundleFormat, RecordSource, SourceItem } from './record-source.js';
import { KIND_OF_BUNDLE_KEY } from './schemas.js';

const READ_CHUNK = 256 * 1024;
const DETECT_BYTES = 1 << 20;

/** Opens a bundle file; format 'auto' detects it (see the top of this file). */
export async function openBundleFile(file: string, format: BundleFormat | 'auto' = 'auto'): Promise<RecordSource> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ImportInputError(code === 'ENOENT' ? `${file}: no such file` : `${file}: cannot read (${code ?? String(error)})`);
  }
  if (stat.isDirectory()) throw new ImportInputError(`${file}: is a directory, not a bundle file`);
  const chosen = format === 'auto' ? await detectFormat(file) : format;
  return chosen === 'ndjson' ? ndjsonFileSource(file, stat.size, READ_CHUNK) : jsonFileSource(file, stat.size, READ_CHUNK);
}

export async function detectFormat(file: string): Promise<BundleFormat> {
  const extension = path.extname(file).toLowerCase();
  if (extension === '.ndjson' || extension === '.jsonl') return 'ndjson';
  let head: string;
  try {
    const handle = await fs.promises.open(file, 'r');
    try {
      const buffer = Buffer.alloc(DETECT_BYTES);
      const { bytesRead } = await handle.read(buffer, 0, DETECT_BYTES, 0);
      head = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new ImportInputError(`${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  head = head.replace(/^\uFEFF/, '');
  const start = head.search(/\S/);
  if (start < 0) throw new ImportInputError(`${file}: the file is empty`);
  const end = head.indexOf('\n', start);
  if (end < 0) return 'json'; // one line longer than the look-ahead: a bundle written on one line
  try {
    const first: unknown = JSON.parse(head.slice(start, end));
    if (typeof first === 'object' && first !== null && typeof (first as { type?: unknown }).type === 'string') return 'ndjson';
  } catch {
    // Not a complete line of JSON: a pretty-printed bundle.
  }
  return 'json';
}

/**
 * A bundle held in memory, keyed like a JSON bundle ({ organizations: [...], offers: [...] }):
 * used by the demo loader so that it goes through the same import path as a file.
 */
export function memorySource(bundle: Readonly<Record<string, readonly unknown[] | undefined>>, name = 'bundle'): RecordSource {
  let recordNo = 0;
  return {
    name,
    totalBytes: undefined,
    get bytesRead() {
      return 0;
    },
    async *records() {
      recordNo = 0;
      for (const [key, records] of Object.entries(bundle)) {
        if (records === undefined) continue;
        const kind = KIND_OF_BUNDLE_KEY.get(key);
        if (kind === undefined) {
          yield { recordNo: undefined, path: joinPath('', key), problem: 'unknown top-level field' };
          continue;
        }
        if (!Array.isArray(records)) {
          yield { recordNo: undefined, path: joinPath('', key), problem: 'expected an array of records' };
          continue;
        }
        let index = 0;
        for (const value of records) {
          recordNo += 1;
          // A copy, because validation lower-cases ids in place and a source may be read twice.
          yield { recordNo, kind, path: joinPath(joinPath('', key), index), value: structuredClone(value) };
          index += 1;
        }
      }
    },
  };
}
