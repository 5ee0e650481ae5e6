import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFER_DATA_FIELDS, type OfferDataField } from '../../src/contract/offer-fields.js';
import { parseRfc3339 } from '../../src/contract/timestamps.js';
import { importBundle, ImportRejectedError, memorySource, openBundleFile } from '../../src/import/index.js';
import { createTestDb, type TestDb } from '../helpers/db.js';
import { scaled } from '../helpers/scale.js';
import { dumpDatabase, offer, offerRow, resetDatabase, tmpFile, wordsMissingFromVocabulary, type Json } from './helpers.js';

let t: TestDb;
const org = randomUUID();
beforeAll(async () => {
  t = await createTestDb();
  await resetDatabase(t.db);
  await importBundle(t.db, memorySource({ organizations: [{ organization_id: org, name: 'Property Test' }] }));
});
afterAll(() => t.destroy());

/** Text PostgreSQL can store: no U+0000 (unpaired surrogates cannot come out of grapheme units). */
const text = fc.string({ unit: 'grapheme', maxLength: 40 }).filter((s) => !s.includes('\u0000'));
const instant = fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true });
const offset = fc.constantFrom('Z', '+00:00', '+01:00', '-05:30', '+14:00');
const dateTime = fc.tuple(instant, offset).map(([d, zone]) => {
  if (zone === 'Z') return d.toISOString();
  const sign = zone.startsWith('-') ? -1 : 1;
  const minutes = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  return new Date(d.getTime() + minutes * 60_000).toISOString().replace('Z', zone);
});
const number = fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));

function valueOf(field: OfferDataField): fc.Arbitrary<unknown> {
  switch (field.kind) {
    case 'number':
      return number;
    case 'integer':
      return fc.integer({ min: -2147483648, max: 2147483647 });
    case 'boolean':
      return fc.boolean();
    case 'datetime':
    case 'datetime_ms':
    case 'datetime_offset':
      return dateTime;
    case 'url_list':
      return fc.array(fc.webUrl(), { maxLength: 4 });
    default:
      return text;
  }
}

// id and external_id must equal the offer's own; they are given (or not) separately.
const dataFields = OFFER_DATA_FIELDS.filter((f) => f.name !== 'id' && f.name !== 'external_id');
const offerData = fc.record(
  Object.fromEntries(dataFields.map((f) => [f.name, fc.option(valueOf(f), { nil: null, freq: 5 })])),
  { requiredKeys: [] },
) as fc.Arbitrary<Record<string, unknown>>;

describe('property: valid offer_data round-trips through the import', () => {
  it('every given value is stored as given (date-times as the same instant), the rest is null', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(offerData, { minLength: 1, maxLength: 4 }), async (datas) => {
        const offers = datas.map((data) => ({ offer_id: randomUUID(), organization_id: org, external_id: `P-${randomUUID()}`, offer_data: data }));
        await importBundle(t.db, memorySource({ offers: structuredClone(offers) }));
        for (const o of offers) {
          const row = await offerRow(t.db, o.offer_id);
          const stored = JSON.parse(row.offer_data_json) as Json;
          expect(row.offer_data).toEqual(stored);
          expect(stored.id).toBe(o.offer_id);
          expect(stored.external_id).toBe(o.external_id);
          for (const field of dataFields) {
            const given = o.offer_data[field.name];
            const value = stored[field.name];
            if (field.name === 'description_clean_text' && (given === undefined || given === null) && typeof stored.description === 'string') {
              expect(typeof value).toBe('string');
            } else if (given === undefined || given === null) {
              expect(value).toBeNull();
            } else if (field.kind.startsWith('datetime')) {
              expect(parseRfc3339(value as string)!.epochMs).toBe(parseRfc3339(given as string)!.epochMs);
            } else {
              expect(value).toEqual(given);
            }
          }
          // The same content again is unchanged.
        }
        expect(await wordsMissingFromVocabulary(t.db)).toEqual([]);
        const again = await importBundle(t.db, memorySource({ offers: structuredClone(offers) }));
        expect(again.changed).toBe(false);
      }),
      { numRuns: scaled('IMPORT_VALUE_RUNS', 15, 40) },
    );
  });
});

const KINDS = ['organizations', 'websites', 'branches', 'agents', 'investments', 'offers'] as const;

/** A valid offer with one field replaced by anything at all. */
const mutatedOffer = fc
  .tuple(fc.constantFrom('offer_id', 'organization_id', 'external_id', 'agent_id', 'is_active', 'created_at', 'offer_data', 'extra', ...dataFields.map((f) => `offer_data.${f.name}`)), fc.jsonValue())
  .map(([field, value]) => {
    const o = offer(randomUUID(), org, 1);
    if (field.startsWith('offer_data.')) (o.offer_data as Json)[field.slice(11)] = value;
    else o[field] = value;
    return o;
  });

describe('property: junk never crashes the importer', () => {
  it('random records are imported or rejected with reported problems, nothing else', async () => {
    const junkBundle = fc.dictionary(
      fc.oneof(fc.constantFrom(...KINDS), fc.string({ maxLength: 8 })),
      fc.oneof(fc.array(fc.oneof(fc.jsonValue({ maxDepth: 3 }), mutatedOffer), { maxLength: 5 }), fc.jsonValue({ maxDepth: 2 })),
      { maxKeys: 4 },
    );
    await fc.assert(
      fc.asyncProperty(junkBundle, async (bundle) => {
        const before = await dumpDatabase(t.db);
        try {
          await importBundle(t.db, memorySource(bundle as Record<string, unknown[]>));
        } catch (error) {
          expect(error).toBeInstanceOf(ImportRejectedError);
          expect((error as ImportRejectedError).problemCount).toBeGreaterThan(0);
          expect(await dumpDatabase(t.db)).toEqual(before);
        }
        expect(await wordsMissingFromVocabulary(t.db)).toEqual([]);
      }),
      { numRuns: scaled('IMPORT_RECORD_RUNS', 60, 150) },
    );
  });

  it('random lines of a file are imported or rejected, nothing else', async () => {
    const line = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
      fc.tuple(fc.constantFrom('organization', 'website', 'branch', 'agent', 'investment', 'offer', 'x'), fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 })).map(([type, record]) => JSON.stringify({ ...record, type })),
      mutatedOffer.map((o) => JSON.stringify({ type: 'offer', ...o })),
    );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 6 }), fc.boolean(), async (lines, asJsonBundle) => {
        const body = asJsonBundle ? `{"offers": [${lines.join(',')}]}` : lines.join('\n');
        const file = tmpFile(`junk-${n++}.${asJsonBundle ? 'json' : 'ndjson'}`, body);
        try {
          await importBundle(t.db, await openBundleFile(file));
        } catch (error) {
          expect(error).toBeInstanceOf(ImportRejectedError);
        }
      }),
      { numRuns: scaled('IMPORT_LINE_RUNS', 60, 150) },
    );
  });
});
