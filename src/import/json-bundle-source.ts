/**
 * JSON bundles: an object with arrays of records, streamed with stream-json so that only one
 * record is assembled in memory at a time. A record's number counts the records of all arrays in
 * file order; its path is the array and index ("offers[3]").
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { joinPath } from './problems.js';
import { BUNDLE_KEY, KIND_OF_BUNDLE_KEY, RECORD_KINDS, type RecordKind } from './schemas.js';
import type { RecordSource, SourceItem } from './record-source.js';

// stream-json is CommonJS without ESM named exports.
const require = createRequire(import.meta.url);
const { parser: createJsonParser } = require('stream-json') as typeof import('stream-json');
const Assembler = require('stream-json/Assembler.js') as typeof import('stream-json/Assembler.js');

interface JsonToken {
  name: string;
  value?: string | undefined;
}

/**
 * Turns stream-json's tokens into bundle records. The top level must be an object; its known
 * arrays hold records, each assembled on its own, so only one record is in memory at a time.
 */
class BundleTokenReader {
  private depth = 0;
  private key: string | undefined;
  private kind: RecordKind | undefined;
  private skipDepth = 0;
  private assembler: InstanceType<typeof Assembler> | undefined;
  private unsafeKey = false;
  private recordNo = 0;
  private readonly indexes = new Map<string, number>();
  private sawRoot = false;

  constructor(private readonly emit: (item: SourceItem) => void) {}

  get records(): number {
    return this.recordNo;
  }

  token(token: JsonToken): void {
    if (this.assembler) {
      if (token.name === 'keyValue' && token.value === '__proto__') this.unsafeKey = true;
      this.assembler.consume(token);
      if (this.assembler.done) this.finishRecord(this.assembler.current);
      return;
    }
    if (this.skipDepth > 0) {
      if (token.name === 'startObject' || token.name === 'startArray') this.skipDepth += 1;
      else if (token.name === 'endObject' || token.name === 'endArray') this.skipDepth -= 1;
      return;
    }
    const opens = token.name === 'startObject' || token.name === 'startArray';
    if (this.depth === 0) {
      if (token.name === 'startObject' && !this.sawRoot) {
        this.sawRoot = true;
        this.depth = 1;
        return;
      }
      this.emit({
        recordNo: undefined,
        path: '',
        problem: `a bundle must be a JSON object with the arrays ${RECORD_KINDS.map((k) => BUNDLE_KEY[k]).join(', ')} (or NDJSON, one record a line)`,
      });
      if (opens) this.skipDepth = 1;
      return;
    }
    if (this.depth === 1) {
      if (token.name === 'keyValue') {
        this.key = String(token.value);
        return;
      }
      if (token.name === 'endObject') {
        this.depth = 0;
        return;
      }
      const key = this.key ?? '';
      const kind = KIND_OF_BUNDLE_KEY.get(key);
      if (kind === undefined) {
        this.emit({ recordNo: undefined, path: joinPath('', key), problem: `unknown top-level field (expected ${RECORD_KINDS.map((k) => BUNDLE_KEY[k]).join(', ')})` });
        if (opens) this.skipDepth = 1;
        return;
      }
      if (token.name !== 'startArray') {
        this.emit({ recordNo: undefined, path: joinPath('', key), problem: 'expected an array of records' });
        if (opens) this.skipDepth = 1;
        return;
      }
      this.kind = kind;
      this.depth = 2;
      return;
    }
    // depth 2: the elements of a record array.
    if (token.name === 'endArray') {
      this.depth = 1;
      this.kind = undefined;
      return;
    }
    if (opens) {
      this.assembler = new Assembler();
      this.unsafeKey = false;
      this.assembler.consume(token);
      return;
    }
    const value = token.name === 'nullValue' ? null : token.name === 'trueValue' ? true : token.name === 'falseValue' ? false : token.name === 'numberValue' ? Number(token.value) : token.value;
    this.finishRecord(value);
  }

  private finishRecord(value: unknown): void {
    this.assembler = undefined;
    const key = this.key ?? '';
    const index = this.indexes.get(key) ?? 0;
    this.indexes.set(key, index + 1);
    this.recordNo += 1;
    const recordPath = joinPath(joinPath('', key), index);
    if (this.unsafeKey) {
      this.emit({ recordNo: this.recordNo, path: recordPath, problem: 'the field name "__proto__" is not allowed' });
      return;
    }
    this.emit({ recordNo: this.recordNo, kind: this.kind!, path: recordPath, value });
  }
}

export function jsonFileSource(file: string, size: number, readChunk: number): RecordSource {
  let stream: fs.ReadStream | undefined;
  return {
    name: path.basename(file),
    totalBytes: size,
    get bytesRead() {
      return stream?.bytesRead ?? 0;
    },
    async *records() {
      const input = fs.createReadStream(file, { highWaterMark: readChunk });
      stream = input;
      const parser = createJsonParser({ streamValues: false, streamKeys: false, streamNumbers: false, streamStrings: false });
      // Records are queued between the parser's events and this generator; the file is paused
      // while the consumer (the database writer) catches up.
      const queue: SourceItem[] = [];
      let finished = false;
      let failure: Error | undefined;
      let wake: (() => void) | undefined;
      const signal = () => {
        const w = wake;
        wake = undefined;
        w?.();
      };
      const reader = new BundleTokenReader((item) => {
        queue.push(item);
        if (queue.length >= 256 && !input.isPaused()) input.pause();
        signal();
      });
      parser.on('data', (token: JsonToken) => reader.token(token));
      parser.on('end', () => {
        finished = true;
        signal();
      });
      parser.on('error', (error: Error) => {
        failure = error;
        finished = true;
        signal();
      });
      input.on('error', (error: Error) => {
        failure = error;
        finished = true;
        signal();
      });
      input.pipe(parser);
      try {
        for (;;) {
          const item = queue.shift();
          if (item) {
            yield item;
            continue;
          }
          if (finished) break;
          if (input.isPaused()) input.resume();
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
        if (failure) {
          yield { recordNo: undefined, path: '', problem: `invalid JSON after record ${reader.records}: ${failure.message.replace(/^Parser /, 'parser ')}` };
        }
      } finally {
        input.unpipe(parser);
        input.destroy();
        parser.destroy();
      }
    },
  };
}
