/**
 * The change feed's stored JSON (ecs_change_entry, src/db/routines/change-entry.ts) is what the
 * API's own forms give: for random changes, the function's text equals JSON.stringify of the change
 * with its keys in ChangeSchema's order and `updated_at` as toApiTimestamp writes the database's
 * timestamp, less the cursor that each page puts in front. Timestamps from year 1 to 9999, in any
 * offset, with and without microseconds (and with trailing zeros).
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toApiTimestamp } from '../../../src/contract/timestamps.js';
import { CHANGE_KINDS, CHANGE_OPS } from '../../../src/features/change-feed/model.js';
import { ChangeSchema } from '../../../src/features/change-feed/schemas.js';
import { createTestDb, type TestDb } from '../../helpers/db.js';
import { scaled } from '../../helpers/scale.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.destroy());

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** A timestamptz as text, `YYYY-MM-DDTHH:MM:SS.ffffff±HH:MM`: a whole second, its microseconds and an offset. */
const timestampArb = fc
  .record({
    second: fc.integer({ min: Date.parse('0001-01-02T00:00:00Z') / 1000, max: Date.parse('9999-12-30T00:00:00Z') / 1000 }),
    micros: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 1, max: 9 }).map((d) => d * 100_000), fc.constant(999_999)),
    offsetMinutes: fc.oneof(fc.constant(0), fc.integer({ min: -14 * 60, max: 14 * 60 })),
  })
  .map(({ second, micros, offsetMinutes }) => {
    const local = new Date(second * 1000 + offsetMinutes * 60_000);
    const sign = offsetMinutes < 0 ? '-' : '+';
    const offset = `${sign}${pad(Math.floor(Math.abs(offsetMinutes) / 60), 2)}:${pad(Math.abs(offsetMinutes) % 60, 2)}`;
    return `${local.toISOString().slice(0, 19)}.${pad(micros, 6)}${offset}`;
  });

const changeArb = fc.record({
  kind: fc.constantFrom(...CHANGE_KINDS),
  id: fc.uuid().chain((id) => fc.constantFrom(id, id.toUpperCase())),
  op: fc.constantFrom(...CHANGE_OPS),
  version: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  updatedAt: timestampArb,
});

/** What a page writes after `{"cursor":"<cursor>`: the change's JSON in the API's forms. */
function apiEntry(change: { kind: string; id: string; op: string; version: number }, storedUpdatedAt: string): string {
  const values: Record<string, unknown> = { cursor: '', ...change, id: change.id.toLowerCase(), updated_at: toApiTimestamp(storedUpdatedAt) };
  const json = JSON.stringify(Object.fromEntries(Object.keys(ChangeSchema.properties).map((key) => [key, values[key]])));
  return json.slice('{"cursor":"'.length);
}

describe('ecs_change_entry', () => {
  it('the schema\'s keys are the ones the function writes', () => {
    expect(Object.keys(ChangeSchema.properties)).toEqual(['cursor', 'kind', 'id', 'op', 'version', 'updated_at']);
  });

  it('writes the JSON of a change as the API\'s own forms give it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(changeArb, { minLength: 1, maxLength: 40 }), async (changes) => {
        const { rows } = await sql<{ stored: string; entry: string }>`
          select x.at::timestamptz as stored, ecs_change_entry(x.kind, x.id::uuid, x.op, x.version, x.at::timestamptz) as entry
          from unnest(${changes.map((c) => c.kind)}::text[], ${changes.map((c) => c.id)}::text[], ${changes.map((c) => c.op)}::text[],
                      ${changes.map((c) => c.version)}::int[], ${changes.map((c) => c.updatedAt)}::text[]) with ordinality as x(kind, id, op, version, at, n)
          order by x.n`.execute(t.db);
        rows.forEach((row, i) => expect(row.entry, JSON.stringify(changes[i])).toBe(apiEntry(changes[i]!, row.stored)));
      }),
      { numRuns: scaled('CHANGE_ENTRY_RUNS', 100, 1000) },
    );
  });
});
