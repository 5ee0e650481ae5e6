/** What every step of one import shares: its transaction, its problems, its counts, its options. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { ScopeChange } from '../features/access/index.js';
import { ProblemList, type Problem } from './problems.js';
import { ImportCounts } from './report.js';

export class ImportContext {
  readonly problems = new ProblemList();
  readonly counts = new ImportCounts();
  /** Every organization any record names (the scope of --prune). */
  readonly organizationsNamed = new Set<string>();
  /** Websites that existed and whose scope the import changed (the report lists them). */
  readonly scopeChanges: ScopeChange[] = [];
  /**
   * New offers' made slugs are made here (seo's madeOfferSlug) and sent with the rows: this
   * database's ecs_slug agrees with the twin (checked at the import's start).
   */
  madeSlugsHere = false;

  constructor(
    /** The import's transaction. */
    readonly db: Kysely<Database>,
    /** Rows per INSERT statement. */
    readonly batchSize: number,
    /** Offers of the bundle are remembered for --prune. */
    readonly prune: boolean,
  ) {}

  /** Nothing is written once a problem is known; checking goes on to find the others. */
  get writing(): boolean {
    return this.problems.count === 0;
  }

  problem(record: number | undefined, path: string, message: string): void {
    const problem: Problem = { record, path, message };
    this.problems.add(problem);
  }
}
