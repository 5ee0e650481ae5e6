/**
 * The problems an import finds. Every problem is counted, but only the first few thousand are kept,
 * so that a file full of mistakes cannot exhaust memory; the command line prints fewer still.
 */

export interface Problem {
  /** 1-based record number: the line of an NDJSON file, the n-th record of a JSON bundle. */
  readonly record?: number | undefined;
  /** JSON path of the value within the file, e.g. offers[3].offer_data.price ('' for the record). */
  readonly path: string;
  readonly message: string;
}

/** "record 17 offers[3].offer_data.price: expected number, got string" */
export function formatProblem(problem: Problem): string {
  const where = [problem.record === undefined ? 'file' : `record ${problem.record}`, problem.path]
    .filter((part) => part !== '')
    .join(' ');
  return `${where}: ${problem.message}`;
}

export class ProblemList {
  private readonly kept: Problem[] = [];
  private total = 0;

  constructor(private readonly keep = 5000) {}

  add(problem: Problem): void {
    this.total += 1;
    if (this.kept.length < this.keep) this.kept.push(problem);
  }

  get count(): number {
    return this.total;
  }

  /** The kept problems, in file order (file-level problems first). */
  list(): Problem[] {
    return [...this.kept].sort((a, b) => (a.record ?? 0) - (b.record ?? 0));
  }
}

/** Appends ".name", "[3]" or '["odd name"]' to a JSON path. */
export function joinPath(base: string, segment: string | number): string {
  if (typeof segment === 'number') return `${base}[${segment}]`;
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) return base === '' ? segment : `${base}.${segment}`;
  return `${base}[${JSON.stringify(segment)}]`;
}

/** A path inside a record, joined to the record's own path ("offers[3]" + "offer_data.price"). */
export function within(recordPath: string, relative: string): string {
  if (recordPath === '') return relative;
  if (relative === '') return recordPath;
  return relative.startsWith('[') ? recordPath + relative : `${recordPath}.${relative}`;
}
