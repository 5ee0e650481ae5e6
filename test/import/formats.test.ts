import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectFormat, importBundle, ImportInputError, openBundleFile } from '../../src/import/index.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { dumpDatabase, resetDatabase, smallBundle, tmpFile, toNdjson } from './helpers.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.destroy());

/** A dump without the clocks (created_at / updated_at / changed_at of rows written at other times). */
function withoutClocks(dump: Record<string, string[]>): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const [table, rows] of Object.entries(dump)) {
    out[table] = rows.map((text) => {
      const row = JSON.parse(text) as Record<string, unknown>;
      delete row.created_at;
      delete row.updated_at;
      delete row.changed_at;
      return row;
    });
  }
  return out;
}

describe('JSON and NDJSON', () => {
  it('the example bundle in both formats gives the same database', async () => {
    await resetDatabase(t.db);
    const json = await importBundle(t.db, await openBundleFile('examples/bundle.json'));
    const fromJson = withoutClocks(await dumpDatabase(t.db));
    await resetDatabase(t.db);
    const ndjson = await importBundle(t.db, await openBundleFile('examples/bundle.ndjson'));
    const fromNdjson = withoutClocks(await dumpDatabase(t.db));
    expect(ndjson.counts).toEqual(json.counts);
    expect(fromNdjson).toEqual(fromJson);
    expect(json.counts.offers.created).toBe(5);
    // Importing the other format over it changes nothing.
    const again = await importBundle(t.db, await openBundleFile('examples/bundle.json'));
    expect(again.changed).toBe(false);
  });

  it('the example files hold the same records', () => {
    const bundle = JSON.parse(fs.readFileSync('examples/bundle.json', 'utf8')) as Parameters<typeof toNdjson>[0];
    expect(fs.readFileSync('examples/bundle.ndjson', 'utf8')).toBe(toNdjson(bundle));
  });
});

describe('format detection', () => {
  const { bundle } = smallBundle();
  const ndjson = toNdjson(bundle);

  it('goes by the extension .ndjson / .jsonl', async () => {
    expect(await detectFormat(tmpFile('a.ndjson', ndjson))).toBe('ndjson');
    expect(await detectFormat(tmpFile('a.jsonl', ndjson))).toBe('ndjson');
  });

  it('otherwise by the first line: a record with "type" is NDJSON, anything else a JSON bundle', async () => {
    expect(await detectFormat(tmpFile('records.txt', ndjson))).toBe('ndjson');
    expect(await detectFormat(tmpFile('records.json', `\uFEFF\n\n${ndjson}`))).toBe('ndjson');
    expect(await detectFormat(tmpFile('pretty.json', JSON.stringify(bundle, null, 2)))).toBe('json');
    expect(await detectFormat(tmpFile('oneline.json', JSON.stringify(bundle)))).toBe('json');
    expect(await detectFormat(tmpFile('twolines.json', `${JSON.stringify(bundle)}\n`))).toBe('json');
  });

  it('can be told the format', async () => {
    await resetDatabase(t.db);
    const source = await openBundleFile(tmpFile('feed.data', ndjson), 'ndjson');
    expect((await importBundle(t.db, source)).counts.offers.created).toBe(3);
  });

  it('reports a missing, empty or directory input clearly', async () => {
    await expect(openBundleFile('/nonexistent/bundle.json')).rejects.toThrow(new ImportInputError('/nonexistent/bundle.json: no such file'));
    await expect(openBundleFile(tmpFile('empty.json', '  \n'))).rejects.toThrow(/the file is empty/);
    await expect(openBundleFile('examples')).rejects.toThrow('examples: is a directory, not a bundle file');
  });

  it('reads CRLF line ends and multi-byte characters across read chunks', async () => {
    await resetDatabase(t.db);
    const { bundle: b, ids } = smallBundle();
    (b.offers![0]!.offer_data as Record<string, unknown>).description = `<p>${'Zażółć gęślą jaźń 🏠 '.repeat(30000)}</p>`;
    await importBundle(t.db, await openBundleFile(tmpFile('crlf.ndjson', toNdjson(b).replace(/\n/g, '\r\n'))));
    const row = await t.db.selectFrom('offers').select('offer_data_json').where('offer_id', '=', ids.offers[0]!).executeTakeFirstOrThrow();
    expect(JSON.parse(row.offer_data_json).description).toBe((b.offers![0]!.offer_data as Record<string, unknown>).description);
  });
});
