/**
 * What the importer reads records from (src/import/source.ts opens one): a stream of records or
 * problems, readable more than once (the importer makes a second pass when an offer comes before
 * an entity it links to).
 */
import type { RecordKind } from './schemas.js';

export type SourceItem =
  | {
      readonly recordNo: number;
      readonly kind: RecordKind;
      /** JSON path of the record in the file: "offers[3]" in a bundle, "" on an NDJSON line. */
      readonly path: string;
      readonly value: unknown;
    }
  | {
      /** The record the problem belongs to; undefined for the file as a whole. */
      readonly recordNo: number | undefined;
      readonly path: string;
      readonly problem: string;
    };

export interface RecordSource {
  /** For messages: the file name, or what the bundle is. */
  readonly name: string;
  /** Size in bytes, when known (progress display). */
  readonly totalBytes: number | undefined;
  /** Bytes consumed so far by the pass under way. */
  readonly bytesRead: number;
  /** Reads every record from the start. */
  records(): AsyncIterable<SourceItem>;
}

export type BundleFormat = 'json' | 'ndjson';
