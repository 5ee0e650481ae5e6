/**
 * Named prepared statements for the few hot queries of fixed text. PostgreSQL spends most of a
 * one-row read (about 150 µs of its 180 µs here) parsing and planning it; a named statement is
 * parsed once per connection and, after a few runs, executed with a cached plan.
 *
 * A query opts in by starting with the marker `prepared('name')` writes; the PostgreSQL client of
 * the pool (src/db/connect.ts) then sends it as a named statement. One name must always carry the
 * same text. PGlite sees only an SQL comment. Queries whose text varies (filters) are not marked:
 * each distinct text would stay prepared on every connection.
 */
import { sql, type RawBuilder } from 'kysely';

const MARKER = /^\/\* prepared:([a-z0-9_]+) \*\//;

/** The marker that names a statement; put it first in a raw sql template. */
export function prepared(name: string): RawBuilder<unknown> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad prepared statement name ${name}`);
  return sql.raw(`/* prepared:${name} */`);
}

/** The statement name a query text asks for, if any. */
export function preparedName(text: string): string | undefined {
  return MARKER.exec(text)?.[1];
}
