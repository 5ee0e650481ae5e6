/**
 * The typed-column list (src/features/offers/query/typed-columns.ts) against the migrated
 * database, PGlite or PostgreSQL: every descriptor's column exists with its type, an offer_data
 * one is generated from its field with that type's cast, the offer's own ones are not generated,
 * every generated column that reads an offer_data field is listed, every offer-level filter field
 * has its column, and the descriptors' indexes are exactly the offers indexes on each column.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFER_DATA_FIELD_BY_NAME, OFFER_TOP_FIELDS } from '../../../../src/contract/offer-fields.js';
import { TYPED_COLUMNS, type TypedColumn } from '../../../../src/features/offers/query/typed-columns.js';
import { createTestDb, type TestDb } from '../../../helpers/db.js';

interface ColumnRow {
  column_name: string;
  data_type: string;
  is_generated: string;
  generation_expression: string | null;
}

let db: TestDb;
let columns: Map<string, ColumnRow>;
let indexes: { name: string; definition: string }[];
const typed: readonly TypedColumn[] = TYPED_COLUMNS;

beforeAll(async () => {
  db = await createTestDb();
  const rows = await sql<ColumnRow>`select column_name, data_type, is_generated, generation_expression
    from information_schema.columns where table_schema = current_schema() and table_name = 'offers'`.execute(db.db);
  columns = new Map(rows.rows.map((row) => [row.column_name, row]));
  const found = await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes
    where schemaname = current_schema() and tablename = 'offers'`.execute(db.db);
  indexes = found.rows.map((row) => ({ name: row.indexname, definition: row.indexdef }));
});
afterAll(() => db.destroy());

/** How PostgreSQL writes back `(offer_data ->> 'field')::type` (text needs no cast). */
function generatedFrom(field: string, type: string): string {
  const text = `offer_data ->> '${field}'::text`;
  return type === 'text' ? `(${text})` : `((${text}))::${type}`;
}

/** The offer_data field a generated column is a plain copy of, if it is one. */
const copiedField = (expression: string | null) => /^\(+offer_data ->> '([^']+)'::text\)/.exec(expression ?? '')?.[1];

/**
 * Whether an index holds a column, as a key or an INCLUDE column. offer_id ends every list index
 * (the tie-breaker that pages in order): it counts only where it leads.
 */
function holds(definition: string, column: string): boolean {
  const parts = /USING \w+ \((.*?)\)(?: INCLUDE \((.*?)\))?(?: WHERE |$)/.exec(definition);
  if (!parts) throw new Error(`unexpected index definition: ${definition}`);
  const names = (list: string | undefined) => (list ?? '').split(', ').map((part) => part.split(' ')[0]);
  const keys = names(parts[1]);
  if (column === 'offer_id') return keys[0] === column;
  return keys.includes(column) || names(parts[2]).includes(column);
}

describe('typed columns against the database', () => {
  it('has every listed column, with its type, generated from offer_data exactly when the descriptor says', () => {
    for (const descriptor of typed) {
      const column = columns.get(descriptor.column);
      expect(column, descriptor.column).toBeDefined();
      expect(column!.data_type, descriptor.column).toBe(descriptor.type);
      if (descriptor.source === 'offer_data') {
        expect(column!.is_generated, descriptor.column).toBe('ALWAYS');
        expect(column!.generation_expression, descriptor.column).toBe(generatedFrom(descriptor.field, descriptor.type));
      } else {
        expect(column!.is_generated, descriptor.column).toBe('NEVER');
      }
    }
  });

  it('lists every generated column that is an offer_data field, and every offer-level filter field', () => {
    const generated = [...columns.values()].filter((column) => column.is_generated === 'ALWAYS');
    const fields = generated.filter((column) => copiedField(column.generation_expression) !== undefined || OFFER_DATA_FIELD_BY_NAME.has(column.column_name));
    expect(fields.length).toBeGreaterThan(0);
    for (const column of fields) {
      const descriptor = typed.find((d) => d.column === column.column_name);
      expect(descriptor, `${column.column_name} (${column.generation_expression}) is not in TYPED_COLUMNS`).toBeDefined();
      expect(descriptor!.source, column.column_name).toBe('offer_data');
    }
    for (const field of OFFER_TOP_FIELDS) expect(typed.find((d) => d.source === 'offer' && d.field === field.name), field.name).toBeDefined();
    expect(new Set(typed.map((d) => `${d.source}:${d.field}`)).size).toBe(typed.length);
  });

  it('names exactly the indexes that hold each column', () => {
    for (const descriptor of typed) {
      const holding = indexes.filter(({ definition }) => holds(definition, descriptor.column)).map(({ name }) => name);
      expect([...descriptor.indexes].sort(), descriptor.column).toEqual(holding.sort());
    }
  });
});
