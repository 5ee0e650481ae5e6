/**
 * The price-transparency dataset (extension E10) end to end on real imports: the developer data's
 * checks, `transparency` on and off, today's CSV (columns, rows and cells against an independent
 * expectation), a past day's CSV rebuilt from the history, the harvester XML and its MD5, byte
 * stability with strong ETags, and the 404s (unknown, disabled, another organization, days out of
 * range).
 */
import { createHash, randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, get, type TestApp } from '../../helpers/app.js';
import { SaxesParser } from 'saxes';
import { importObject, offer, problemsOf, type Bundle, type Json } from '../../import/helpers.js';
import { CSV_COLUMNS, daysBetween, warsawDay } from '../../../src/features/transparency/model.js';
import { datasetStatuses, disableDataset, enableDataset } from '../../../src/features/transparency/write.js';

const SEAT = { voivodeship: 'mazowieckie', county: 'Warszawa', community: 'Warszawa', city: 'Warszawa', street: 'Prosta', building_number: '1', flat_number: '2', postcode: '00-838' };
const OFFICE = { ...SEAT, street: 'Złota', building_number: '44', flat_number: null };
const DEVELOPER = {
  legal_name: 'Przykład; "Deweloper" sp. z o.o.',
  legal_form: 'spółka z ograniczoną odpowiedzialnością',
  krs: '0000123456',
  nip: '1234563218',
  regon: '123456785',
  phone: '+48 22 000 00 00',
  email: 'biuro@example.pl',
  website: 'https://example.pl',
  seat: SEAT,
  sales_offices: [OFFICE, { ...OFFICE, city: 'Kraków', postcode: '30-001' }],
  contact_method: 'telefon, e-mail, biuro sprzedaży',
};
const SITE = { voivodeship: 'mazowieckie', county: 'Warszawa', community: 'Warszawa', city: 'Warszawa', street: 'Nowa', building_number: '5', postcode: '02-001' };

/** A minimal CSV reader (`;`, quotes doubled, CRLF), to check the file independently of the writer. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), (i += 1);
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ';') row.push(cell), (cell = '');
    else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      (row = []), (cell = ''), (i += 1);
    } else cell += c;
  }
  expect(cell).toBe('');
  expect(row).toEqual([]);
  return rows;
}

/** Parses XML strictly (namespaces on): the root's name and namespace, and every element's text by path. */
function readXml(xml: string): { root: { local: string; uri: string }; texts: Array<[string, string]> } {
  const parser = new SaxesParser({ xmlns: true });
  const stack: Array<{ name: string; text: string }> = [];
  const texts: Array<[string, string]> = [];
  let root: { local: string; uri: string } | undefined;
  let error: Error | undefined;
  parser.on('error', (e) => (error ??= e));
  parser.on('opentag', (tag) => {
    root ??= { local: tag.local, uri: tag.uri };
    stack.push({ name: tag.local, text: '' });
  });
  parser.on('text', (text) => {
    if (stack.length > 0) stack.at(-1)!.text += text;
  });
  parser.on('closetag', () => {
    const path = stack.map((s) => s.name).join('/');
    texts.push([path, stack.pop()!.text]);
  });
  parser.write(xml).close();
  if (error) throw error;
  return { root: root!, texts };
}

describe('the price-transparency dataset', () => {
  let t: TestApp;
  const org = randomUUID();
  const other = randomUUID();
  const investment = randomUUID();
  const ids = Array.from({ length: 6 }, () => randomUUID());
  const today = warsawDay(new Date());
  const url = (path: string) => `/open-data/${org}/${path}`;
  const open = (path: string, headers: Record<string, string> = {}) => get(t, path, { key: null, headers });

  function bundle(): Bundle {
    const sale = (n: number, extra: Json, data: Json = {}) => {
      const record = offer(ids[n]!, org, n, { investment_id: investment, ...extra }) as Json & { offer_data: Json };
      Object.assign(record.offer_data, { market_type: 'PRIMARY', offer_type: 'APARTMENT_SALES', property_size: 50, ...data });
      return record;
    };
    return {
      organizations: [
        { organization_id: org, name: 'Przykład', developer: DEVELOPER },
        { organization_id: other, name: 'Other' },
      ],
      investments: [{ investment_id: investment, organization_id: org, name: 'Osiedle', location: SITE }],
      offers: [
        sale(0, { external_id: 'A/1', prices_valid_from: '2026-01-10T10:00:00+01:00', ancillary: [{ kind: 'parking', label: 'P-1', price: 30000 }, { kind: 'storage', label: 'K-1', price: 9000 }] }, { price: 600000, price_per_meter: 12000 }),
        sale(1, { external_id: 'A/2', prices_valid_from: '2026-01-10T10:00:00+01:00' }, { offer_type: 'HOUSE_SALES', price: 900000.5, price_per_meter: null, property_size: 120 }),
        sale(2, { external_id: 'S/1' }, { market_type: 'SECONDARY' }),
        sale(3, { external_id: 'R/1' }, { offer_type: 'APARTMENT_RENTALS' }),
        sale(4, { external_id: 'N/1', investment_id: null }),
        sale(5, { external_id: 'I/1', is_active: false }),
      ],
    };
  }

  beforeAll(async () => {
    t = await buildTestApp({ env: { RESPONSE_CACHE: 'off' } });
    await importObject(t.db.db, bundle());
  });
  afterAll(() => t.destroy());

  it('checks NIP, REGON and KRS with their check digits, and the postcode', async () => {
    const b = bundle();
    const developer = { ...DEVELOPER, nip: '1234563219', regon: '123456786', krs: '12345', seat: { ...SEAT, postcode: '00838' } };
    (b.organizations![0] as Json).developer = developer;
    const problems = await problemsOf(importObject(t.db.db, b));
    expect(problems).toEqual([
      expect.stringMatching(/organizations\[0\]\.developer\.seat\.postcode: expected a postcode NN-NNN/),
      expect.stringMatching(/organizations\[0\]\.developer\.nip: expected a NIP/),
      expect.stringMatching(/organizations\[0\]\.developer\.regon: expected a REGON/),
      expect.stringMatching(/organizations\[0\]\.developer\.krs: expected a KRS number/),
    ]);
  });

  it('is off until enabled: every path answers 404 {"detail":"Not Found"}; enable lists what is missing', async () => {
    for (const path of ['prices.csv', `prices/${today}.csv`, 'dataset.xml', 'dataset.xml.md5']) {
      const res = await open(url(path));
      expect(res.statusCode, path).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not Found' });
    }
    const [status] = await datasetStatuses(t.db.db, other);
    expect(status!.missing).toEqual(['developer']);
    const [mine] = await datasetStatuses(t.db.db, org);
    expect(mine).toMatchObject({ enabled: false, missing: [] });
  });

  it("today's CSV: the template's 58 columns, one row per offered flat or house, cells as the data says", async () => {
    await enableDataset(t.db.db, org, 'https://ceny.example.pl');
    const res = await open(url('prices.csv'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.rawPayload.subarray(0, 3).toString('hex')).not.toBe('efbbbf'); // no BOM
    const rows = readCsv(res.body);
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    expect(rows[0]).toHaveLength(58);
    expect(rows[0]).toEqual(expect.arrayContaining(['Nazwa dewelopera', 'Nr NIP', 'Nr lokalu lub domu jednorodzinnego nadany przez dewelopera', 'Cena m 2 powierzchni użytkowej lokalu mieszkalnego / domu jednorodzinnego [zł]']));
    const body = rows.slice(1);
    expect(body.map((r) => r[36])).toEqual(['A/1', 'A/2']); // only the active PRIMARY sales in an investment
    const cell = (row: string[], name: string) => row[CSV_COLUMNS.indexOf(name)];
    const [flat, house] = body as [string[], string[]];
    expect(cell(flat, 'Nazwa dewelopera')).toBe(DEVELOPER.legal_name);
    expect(cell(flat, 'Nr NIP')).toBe('1234563218');
    expect(cell(flat, 'Nr wpisu do CEiDG')).toBe('X');
    expect(cell(flat, 'Nr faxu')).toBe('X');
    expect(flat.slice(10, 18)).toEqual(['mazowieckie', 'Warszawa', 'Warszawa', 'Warszawa', 'Prosta', '1', '2', '00-838']);
    expect(flat.slice(18, 26)).toEqual(['mazowieckie', 'Warszawa', 'Warszawa', 'Warszawa', 'Złota', '44', 'X', '00-838']);
    expect(flat[26]).toBe('Złota 44, 30-001 Kraków, gm. Warszawa, pow. Warszawa, woj. mazowieckie');
    expect(flat.slice(28, 35)).toEqual(['mazowieckie', 'Warszawa', 'Warszawa', 'Warszawa', 'Nowa', '5', '02-001']);
    expect(flat.slice(35, 43)).toEqual(['lokal mieszkalny', 'A/1', '12000', '2026-01-10', '600000', '2026-01-10', '639000', '2026-01-10']);
    expect(flat.slice(43, 51)).toEqual(['miejsce postojowe', 'P-1', '30000', '2026-01-10', 'komórka lokatorska', 'K-1', '9000', '2026-01-10']);
    expect(flat.slice(51)).toEqual(['X', 'X', 'X', 'X', 'X', 'X', 'X']);
    // No price per m² given: the price over the area, to the grosz.
    expect(house.slice(35, 43)).toEqual(['dom jednorodzinny', 'A/2', '7500', '2026-01-10', '900000.5', '2026-01-10', '900000.5', '2026-01-10']);
    expect(house.slice(43, 51)).toEqual(['X', 'X', 'X', 'X', 'X', 'X', 'X', 'X']);
  });

  it('the same day and data give the same bytes, a strong ETag and 304; a change gives a new file', async () => {
    const a = await open(url('prices.csv'));
    const b = await open(url('prices.csv'));
    expect(b.rawPayload.equals(a.rawPayload)).toBe(true);
    expect(a.headers.etag).toMatch(/^"[^W]/);
    expect(b.headers.etag).toBe(a.headers.etag);
    const again = await open(url('prices.csv'), { 'if-none-match': String(a.headers.etag) });
    expect(again.statusCode).toBe(304);
    // Gzipped for a client that accepts it: the same bytes once unzipped, a tag of its own.
    const zipped = await open(url('prices.csv'), { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.rawPayload).equals(a.rawPayload)).toBe(true);
    expect(zipped.headers.etag).not.toBe(a.headers.etag);
    expect((await open(url('prices.csv'), { 'accept-encoding': 'gzip', 'if-none-match': String(zipped.headers.etag) })).statusCode).toBe(304);
    const b2 = bundle();
    (b2.offers![1] as Json & { offer_data: Json }).offer_data.price = 880000;
    (b2.offers![1] as Json).prices_valid_from = new Date().toISOString();
    await importObject(t.db.db, b2);
    const changed = await open(url('prices.csv'));
    expect(changed.headers.etag).not.toBe(a.headers.etag);
    const house = readCsv(changed.body)[2]!;
    expect(house.slice(39, 41)).toEqual(['880000', today]);
  });

  it("a past day's file is the file as it stood then, from the history; days out of range are 404", async () => {
    const past = readCsv((await open(url('prices/2026-01-11.csv'))).body);
    expect(past.slice(1).map((r) => [r[36], r[39]])).toEqual([['A/1', '600000'], ['A/2', '900000.5']]);
    const todays = await open(url(`prices/${today}.csv`));
    expect(todays.body).toBe((await open(url('prices.csv'))).body);
    for (const bad of ['prices/2026-01-09.csv', 'prices/2999-01-01.csv', 'prices/2026-02-30.csv', 'prices/yesterday.csv', 'prices/2026-01-11.xml']) {
      const res = await open(url(bad));
      expect(res.statusCode, bad).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not Found' });
    }
  });

  it('the harvester XML: one dataset, one resource per day from the first to today, and its MD5', async () => {
    const res = await open(url('dataset.xml'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const doc = readXml(res.body);
    expect(doc.root).toEqual({ local: 'datasets', uri: 'urn:otwarte-dane:harvester:1.13' });
    const days = daysBetween('2026-01-10', today);
    const urls = doc.texts.filter(([path]) => path === 'datasets/dataset/resources/resource/url').map(([, text]) => text);
    expect(urls).toEqual(days.map((day) => `https://ceny.example.pl/open-data/${org}/prices/${day}.csv`));
    expect(doc.texts.find(([path]) => path === 'datasets/dataset/extIdent')![1]).toBe(org.replace(/-/g, ''));
    const dates = doc.texts.filter(([path]) => path === 'datasets/dataset/resources/resource/dataDate').map(([, text]) => text);
    expect(dates).toEqual(days);
    const md5 = await open(url('dataset.xml.md5'));
    expect(md5.body).toBe(createHash('md5').update(res.rawPayload).digest('hex'));
    expect((await open(url('dataset.xml'))).body).toBe(res.body);
  });

  it('never another organization, never once disabled', async () => {
    expect((await open(`/open-data/${other}/prices.csv`)).statusCode).toBe(404);
    expect((await open(`/open-data/${randomUUID()}/dataset.xml`)).statusCode).toBe(404);
    expect((await open('/open-data/not-a-uuid/dataset.xml')).statusCode).toBe(404);
    expect(await disableDataset(t.db.db, org)).toBe(true);
    expect((await open(url('prices.csv'))).statusCode).toBe(404);
    expect((await open(url('dataset.xml.md5'))).statusCode).toBe(404);
  });
});
