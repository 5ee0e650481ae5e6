import { describe, expect, it } from 'vitest';
import type { ReadDb } from '../../src/db/readonly.js';

describe('the read-only database handle of the HTTP side', () => {
  it('has no way to write (each line below must fail to compile; `npm run typecheck` checks it)', () => {
    const attempts = (db: ReadDb) => {
      // @ts-expect-error no inserts
      db.insertInto('offers');
      // @ts-expect-error no updates
      db.updateTable('offers');
      // @ts-expect-error no deletes
      db.deleteFrom('offers');
      // @ts-expect-error no merges
      db.mergeInto('offers');
      // @ts-expect-error no replaces
      db.replaceInto('offers');
      // @ts-expect-error no CTEs (their query creator can write)
      db.with('x', (q) => q.selectFrom('offers').selectAll());
      // @ts-expect-error no schema changes
      void db.schema;
      // @ts-expect-error no transactions
      db.transaction();
      // Reads compile.
      db.selectFrom('offers').select('offer_id');
    };
    expect(typeof attempts).toBe('function');
  });
});
