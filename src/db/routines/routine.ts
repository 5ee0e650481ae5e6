/**
 * A routine: the current definition of one SQL function, as one `CREATE OR REPLACE FUNCTION`
 * statement. The migrator applies a routine whenever its text differs from the one it last
 * applied (src/db/migrator.ts); docs/development.md ("SQL routines") says when a change needs an
 * ordinary migration instead.
 */
import { createHash } from 'node:crypto';

export interface Routine {
  /** The function's name (no overloads: one function per name). */
  readonly name: string;
  /** `CREATE OR REPLACE FUNCTION <name>(...) ...`: the whole definition. */
  readonly sql: string;
  /** sha256 of `sql` (hex): what the migrator records once it has applied this text. */
  readonly sha256: string;
}

const DEFINITION = /^CREATE OR REPLACE FUNCTION ([a-z_][a-z0-9_]*)\(/;

/** A routine from its statement, which names the function (checked when the module loads). */
export function routine(statement: string): Routine {
  const match = DEFINITION.exec(statement);
  if (!match) throw new Error(`a routine is one CREATE OR REPLACE FUNCTION statement: ${statement.slice(0, 60)}`);
  return { name: match[1]!, sql: statement, sha256: createHash('sha256').update(statement).digest('hex') };
}
