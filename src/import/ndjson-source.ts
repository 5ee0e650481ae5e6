/**
 * NDJSON bundles: one record a line, each with a "type"; a record's number is its line number
 * (blank lines are skipped but counted). Lines end with LF or CRLF.
 */
import fs from 'node:fs';
import path from 'node:path';
import { RECORD_KINDS, type RecordKind } from './schemas.js';
import type { RecordSource, SourceItem } from './record-source.js';

const KIND_LIST = RECORD_KINDS.join(', ');

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** One NDJSON line as a record: its number is its line number. */
function ndjsonItem(line: string, lineNo: number): SourceItem | undefined {
  const text = (lineNo === 1 ? line.replace(/^\uFEFF/, '') : line).trim();
  if (text === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { recordNo: lineNo, path: '', problem: `invalid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { recordNo: lineNo, path: '', problem: `expected an object, got ${typeName(value)}` };
  }
  const type = (value as { type?: unknown }).type;
  if (type === undefined) return { recordNo: lineNo, path: 'type', problem: `required field missing (one of ${KIND_LIST})` };
  if (typeof type !== 'string' || !(RECORD_KINDS as readonly string[]).includes(type)) {
    return { recordNo: lineNo, path: 'type', problem: `expected one of ${KIND_LIST}, got ${JSON.stringify(type)}` };
  }
  return { recordNo: lineNo, kind: type as RecordKind, path: '', value };
}

/**
 * The lines of a file, split on the bytes (LF or CRLF) and decoded one line at a time: cheaper
 * than readline, and a multi-byte character can never be cut in two.
 */
async function* fileLines(stream: fs.ReadStream): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      if (newline < 0) break;
      let line = chunk.subarray(start, newline);
      if (pending.length > 0) {
        line = Buffer.concat([...pending, line]);
        pending = [];
      }
      const end = line.length > 0 && line[line.length - 1] === 13 ? line.length - 1 : line.length;
      yield line.toString('utf8', 0, end);
      start = newline + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) {
    const line = Buffer.concat(pending);
    const end = line[line.length - 1] === 13 ? line.length - 1 : line.length;
    yield line.toString('utf8', 0, end);
  }
}

export function ndjsonFileSource(file: string, size: number, readChunk: number): RecordSource {
  let stream: fs.ReadStream | undefined;
  return {
    name: path.basename(file),
    totalBytes: size,
    get bytesRead() {
      return stream?.bytesRead ?? 0;
    },
    async *records() {
      stream = fs.createReadStream(file, { highWaterMark: readChunk });
      let lineNo = 0;
      try {
        for await (const line of fileLines(stream)) {
          lineNo += 1;
          const item = ndjsonItem(line, lineNo);
          if (item) yield item;
        }
      } finally {
        stream.destroy();
      }
    },
  };
}
