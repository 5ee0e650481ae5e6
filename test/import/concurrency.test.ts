import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBundle, ImportBusyError, memorySource, type RecordSource, type SourceItem } from '../../src/import/index.js';
import { createTestDb, onPostgres, type TestDb } from '../helpers/db.js';
import { dumpDatabase, smallBundle } from './helpers.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.destroy());

/** A source that stops after its first records until released (an import held open). */
function heldSource(inner: RecordSource): { source: RecordSource; reached: Promise<void>; release: () => void } {
  let release!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const reachedGate = new Promise<void>((resolve) => (reached = resolve));
  const source: RecordSource = {
    name: 'held',
    totalBytes: undefined,
    bytesRead: 0,
    async *records(): AsyncIterable<SourceItem> {
      let n = 0;
      for await (const item of inner.records()) {
        if (++n === 3) {
          reached();
          await gate;
        }
        yield item;
      }
    },
  };
  return { source, reached: reachedGate, release };
}

// PGlite is one connection in one process: two imports cannot overlap there.
describe.skipIf(!onPostgres)('two imports at once', () => {
  it('the second fails at once with a clear message; the first completes', async () => {
    const a = smallBundle();
    const b = smallBundle();
    const held = heldSource(memorySource(a.bundle));
    const first = importBundle(t.db, held.source);
    await held.reached;
    const before = await dumpDatabase(t.db);
    await expect(importBundle(t.db, memorySource(b.bundle))).rejects.toThrow(new ImportBusyError());
    await expect(importBundle(t.db, memorySource(b.bundle))).rejects.toThrow('another import is running; try again when it has finished');
    expect(await dumpDatabase(t.db)).toEqual(before);
    held.release();
    expect((await first).counts.offers.created).toBe(3);
    // Once the first has finished, the next one runs.
    expect((await importBundle(t.db, memorySource(b.bundle))).counts.offers.created).toBe(3);
  });
});
