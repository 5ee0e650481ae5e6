/**
 * Properties of the dataset's files (extension E10), on random content: the CSV is always
 * well-formed (58 cells a row; a value with `;`, quotes or line breaks is quoted and reads back
 * exactly; an empty value is `X`), and the harvester XML is always well-formed XML whose texts read
 * back exactly, whatever the developer's name.
 */
import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { scaled } from '../../helpers/scale.js';
import { buildCsv, buildDatasetXml, CSV_COLUMNS, normalizeDeveloper, type DatasetOffer } from '../../../src/features/transparency/model.js';

/** Text with the characters that matter to CSV and XML. */
const text = fc.string({ unit: fc.constantFrom('a', 'Ż', ' ', ';', '"', '\n', '\r', ',', '<', '>', '&', "'", 'X', '1'), maxLength: 12 });

/** A CSV reader written from RFC 4180 with `;` (independent of the writer). */
function readCsv(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < csv.length; i += 1) {
    const c = csv[i]!;
    if (quoted) {
      if (c === '"' && csv[i + 1] === '"') (cell += '"'), (i += 1);
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ';') row.push(cell), (cell = '');
    else if (c === '\r' && csv[i + 1] === '\n') rows.push([...row, cell]), (row = []), (cell = ''), (i += 1);
    else cell += c;
  }
  if (cell !== '' || row.length > 0) throw new Error('the file does not end with a line end');
  return rows;
}

describe('dataset files on random content', () => {
  it('the CSV is well-formed and every value reads back (empty as X)', () => {
    fc.assert(
      fc.property(text, text, text, fc.array(text, { minLength: 1, maxLength: 4 }), (name, form, contact, numbers) => {
        const developer = normalizeDeveloper({ legal_name: name, legal_form: form, contact_method: contact });
        const offers: DatasetOffer[] = numbers.map((n, i) => ({
          offer_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          external_id: n,
          offer_type: 'APARTMENT_SALES',
          property_size: '50',
          investment_location: null,
          history: [{ day: '2026-01-01', price: '500000', price_per_meter: null, ancillary: [{ kind: 'parking', label: n, price: 1 }] }],
        }));
        const rows = readCsv(buildCsv(developer, offers));
        expect(rows[0]).toEqual([...CSV_COLUMNS]);
        expect(rows).toHaveLength(numbers.length + 1);
        const shown = (v: string) => (v === '' ? 'X' : v);
        rows.slice(1).forEach((row, i) => {
          expect(row).toHaveLength(58);
          expect(row[0]).toBe(shown(name));
          expect(row[1]).toBe(shown(form));
          expect(row[27]).toBe(shown(contact));
          expect(row[36]).toBe(shown(numbers[i]!));
          expect(row[44]).toBe(shown(numbers[i]!));
        });
      }),
      { numRuns: scaled('TRANSPARENCY_CSV_RUNS', 300, 3000) },
    );
  });

  it('the harvester XML is well-formed and the name reads back', () => {
    fc.assert(
      fc.property(text.filter((s) => !s.includes('\r')), fc.webUrl(), (name, publicUrl) => {
        const xml = buildDatasetXml({ organizationId: '0b3c5f52-3a47-4c1e-9d54-0f3c1c7e9a11', developerName: name, publicUrl, days: ['2026-01-01', '2026-01-02'] });
        const parser = new SaxesParser({ xmlns: true });
        let error: Error | undefined;
        const texts: string[] = [];
        const urls: string[] = [];
        let current = '';
        let element = '';
        parser.on('error', (e) => (error ??= e));
        parser.on('opentag', (tag) => ((element = tag.local), (current = '')));
        parser.on('text', (t) => (current += t));
        parser.on('closetag', (tag) => {
          if (tag.local === 'polish') texts.push(current);
          if (tag.local === 'url') urls.push(current);
          current = '';
          element = '';
        });
        parser.write(xml).close();
        expect(error).toBeUndefined();
        expect(element).toBe('');
        expect(texts[0]).toBe(`Ceny ofertowe mieszkań dewelopera ${name}`);
        expect(urls).toEqual(['2026-01-01', '2026-01-02'].map((d) => `${publicUrl.replace(/\/+$/, '')}/open-data/0b3c5f52-3a47-4c1e-9d54-0f3c1c7e9a11/prices/${d}.csv`));
      }),
      { numRuns: scaled('TRANSPARENCY_XML_RUNS', 300, 3000) },
    );
  });
});
