/**
 * The batched upsert of the import's writes (each wing's write.ts describes its tables with it),
 * inside the import's transaction: one INSERT ... ON CONFLICT DO UPDATE per batch; the update only
 * happens WHERE the stored columns differ from the incoming ones, so identical content touches
 * nothing (not even updated_at), and RETURNING (xmax = 0) tells rows created from rows changed.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './database.js';

/** A row value: a plain parameter, or an SQL expression such as now(). */
export type RowValue = string | number | boolean | null | RawBuilder<unknown>;
export type Row = Record<string, RowValue>;

export interface WriteCounts {
  created: number;
  changed: number;
}

export interface UpsertSpec {
  readonly table: keyof Database;
  readonly key: string;
  /** Columns inserted, in the order of each row's values. */
  readonly columns: readonly string[];
  /** Columns compared to decide "changed" (stored vs incoming). */
  readonly compare: readonly string[];
  /** Columns replaced when changed. */
  readonly update: readonly string[];
  /** Further assignments when changed (updated_at = now(), version + 1, ...). */
  readonly also?: readonly RawBuilder<unknown>[];
  /** A further condition OR-ed with the comparison. */
  readonly alsoChangedWhen?: RawBuilder<unknown>;
}

export async function upsert(db: Kysely<Database>, spec: UpsertSpec, rows: readonly Row[]): Promise<WriteCounts> {
  if (rows.length === 0) return { created: 0, changed: 0 };
  const t = spec.table;
  const stored = (c: string) => sql.ref(`${t}.${c}`);
  const incoming = (c: string) => sql.ref(`excluded.${c}`);
  const values = rows.map((row) => sql`(${sql.join(spec.columns.map((c) => value(row[c])))})`);
  const assignments = [...spec.update.map((c) => sql`${sql.ref(c)} = ${incoming(c)}`), ...(spec.also ?? [])];
  let changed = sql`(${sql.join(spec.compare.map(stored))}) is distinct from (${sql.join(spec.compare.map(incoming))})`;
  if (spec.alsoChangedWhen) changed = sql`(${changed} or ${spec.alsoChangedWhen})`;
  const result = await sql<{ created: boolean }>`
    insert into ${sql.table(t)} (${sql.join(spec.columns.map((c) => sql.ref(c)))})
    values ${sql.join(values)}
    on conflict (${sql.ref(spec.key)}) do update set ${sql.join(assignments)}
    where ${changed}
    returning (xmax = 0) as created`.execute(db);
  let created = 0;
  for (const row of result.rows) if (row.created) created += 1;
  return { created, changed: result.rows.length - created };
}

function value(v: RowValue | undefined): RowValue {
  return v === undefined ? null : v;
}

/** The assignment of every changed row but the offers (whose version also counts). */
export const touched = [sql`updated_at = now()`];

