/**
 * The operator table (src/features/offers/query/operators.ts) against the interface and the docs:
 * the lists derived from it are the interface's (CONTRACT 6 and extension E2), the original
 * Filter schema keeps its literal list, every record is whole, and the hand-written tables of
 * docs/api.md name each kind's operators and each geography operator as the table does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ALL_OPERATORS,
  FILTER_OPERATORS,
  GEO_OPERATORS,
  OPERATORS,
  OPERATORS_BY_KIND,
  SCHEMA_OPERATORS,
} from '../../../../src/features/offers/query/operators.js';
import type { QueryFieldKind } from '../../../../src/features/offers/query/values.js';
import { projectRoot } from '../../../helpers/processes.js';

const ORDERED = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'not_in', 'is_null'];
const EQUALITY = ['eq', 'ne', 'in', 'not_in', 'is_null'];

describe('the operator table', () => {
  it("gives each kind the interface's operators, in its order", () => {
    expect(OPERATORS_BY_KIND).toEqual({
      number: ORDERED,
      integer: ORDERED,
      datetime: ORDERED,
      datetime_ms: ORDERED,
      datetime_offset: ORDERED,
      text: ['eq', 'ne', 'in', 'not_in', 'contains', 'starts_with', 'is_null'],
      enum: EQUALITY,
      uuid: EQUALITY,
      boolean: ['eq', 'ne', 'is_null'],
      url_list: ['is_null'],
      geo_point: ['within_radius', 'within_bbox', 'within_polygon'],
    });
  });

  it("keeps the original Filter schema's literal list, and gives the rest to the geography's schema", () => {
    expect(FILTER_OPERATORS).toEqual(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'not_in', 'is_null', 'contains', 'starts_with']);
    expect(SCHEMA_OPERATORS.Filter).toBe(FILTER_OPERATORS);
    expect(GEO_OPERATORS).toEqual(['within_radius', 'within_bbox', 'within_polygon']);
    // Every operator is in exactly one schema, the one its record names.
    const listed = Object.entries(SCHEMA_OPERATORS).flatMap(([schema, names]) => names.map((name): [string, string] => [name, schema]));
    expect(new Map(listed)).toEqual(new Map(ALL_OPERATORS.map((name) => [name, OPERATORS[name].schema])));
    expect(listed).toHaveLength(ALL_OPERATORS.length);
  });

  it('has whole records: kinds, a docs line, and a value shape', () => {
    for (const name of ALL_OPERATORS) {
      const record = OPERATORS[name];
      expect(record.kinds.length, name).toBeGreaterThan(0);
      expect(record.doc.trim(), name).not.toBe('');
      expect(typeof record.value.read, name).toBe('function');
      // The in-memory columns hold numbers and codes only: an operator on them must take a stored kind.
      if (record.columns !== undefined) expect(record.kinds, name).not.toContain('geo_point');
    }
    // Every kind a field can have takes some operator.
    for (const [kind, names] of Object.entries(OPERATORS_BY_KIND)) expect(names.length, kind).toBeGreaterThan(0);
  });
});

describe('docs/api.md', () => {
  const text = fs.readFileSync(path.join(projectRoot, 'docs', 'api.md'), 'utf8');
  /** The rows of the markdown table whose header row is `header`, as cells. */
  const tableAfter = (header: string): string[][] => {
    const lines = text.split('\n');
    const start = lines.indexOf(header);
    expect(start, `docs/api.md has the table "${header}"`).toBeGreaterThanOrEqual(0);
    const rows: string[][] = [];
    for (const line of lines.slice(start + 2)) {
      if (!line.startsWith('|')) break;
      rows.push(line.slice(1, -1).split(' | ').map((cell) => cell.trim()));
    }
    return rows;
  };
  const codes = (cell: string) => [...cell.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);

  it("lists each kind's operators as the table does", () => {
    // The table's rows, top to bottom, and the kinds each stands for.
    const kindsOfRow: QueryFieldKind[][] = [['number', 'integer', 'datetime', 'datetime_ms', 'datetime_offset'], ['text'], ['enum', 'uuid'], ['boolean'], ['url_list']];
    const rows = tableAfter('| field type | operators |');
    expect(rows).toHaveLength(kindsOfRow.length);
    rows.forEach(([, operators], i) => {
      for (const kind of kindsOfRow[i]!) expect(codes(operators!), `${rows[i]![0]} (${kind})`).toEqual(OPERATORS_BY_KIND[kind]);
    });
    expect(new Set(kindsOfRow.flat())).toEqual(new Set(Object.keys(OPERATORS_BY_KIND).filter((kind) => kind !== 'geo_point')));
  });

  it('lists the geography operators with their lines', () => {
    const rows = tableAfter('| operator | value | matches |');
    expect(rows.map(([name]) => codes(name!)[0])).toEqual(GEO_OPERATORS);
    for (const [name, , matches] of rows) expect(matches, name).toBe(OPERATORS[codes(name!)[0] as (typeof GEO_OPERATORS)[number]].doc);
  });
});
