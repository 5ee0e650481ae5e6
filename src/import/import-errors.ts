/**
 * The ways an import can fail that are the user's to fix (the command line prints their message
 * and exits with status 1); anything else is a fault.
 */
import type { Problem } from './problems.js';

export class ImportError extends Error {}

/** The file cannot be read, or is not a bundle at all. */
export class ImportInputError extends ImportError {}

/** Another import holds the import lock. */
export class ImportBusyError extends ImportError {
  constructor() {
    super('another import is running; try again when it has finished');
  }
}

/** The bundle has problems; nothing was written. */
export class ImportRejectedError extends ImportError {
  constructor(
    /** The first problems found (up to a few thousand), in file order. */
    readonly problems: readonly Problem[],
    /** How many problems there are in all. */
    readonly problemCount: number,
  ) {
    super(`import rejected: ${problemCount} ${problemCount === 1 ? 'problem' : 'problems'} found; the database was not changed`);
  }
}
