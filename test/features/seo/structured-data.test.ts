/**
 * GET /api/v1/offers/{offer_id}/structured-data (extension E12): the offer as schema.org JSON-LD.
 * Every type and property of every answer (the fixture's offers, and random offer_data through
 * the same function) is checked against schema.org's definitions of the terms
 * (test/fixtures/schema-org, from schema.org's release files): the type exists, the property
 * exists and its domain includes the node's type or a type above it. Values the offer lacks are
 * left out, never null.
 */
import fs from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offerStructuredData } from '../../../src/features/seo/structured-data.js';
import { buildTestApp, get, type TestApp } from '../../helpers/app.js';
import { KEYS, OFFER, WEBSITE_A1_URLS } from '../../helpers/fixtures.js';
import { scaled } from '../../helpers/scale.js';

/** The cells of one CSV line (a quoted cell may hold commas). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

/** Rows of a small CSV by its header. */
function readCsv(name: string): Record<string, string>[] {
  const text = fs.readFileSync(new URL(`../../fixtures/schema-org/${name}`, import.meta.url), 'utf8').trim();
  const [header, ...body] = text.split(/\r?\n/).map(csvCells);
  return body.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i] ?? ''])));
}

const SCHEMA = 'https://schema.org/';
const list = (cell: string) => cell.split(',').map((s) => s.trim().replace(SCHEMA, '')).filter((s) => s !== '');
const SUPER = new Map(readCsv('types.csv').map((r) => [r.label!, list(r.subTypeOf!)]));
const DOMAINS = new Map(readCsv('properties.csv').map((r) => [r.label!, list(r.domainIncludes!)]));

function typeAndAbove(type: string): Set<string> {
  const out = new Set<string>([type]);
  for (const parent of SUPER.get(type) ?? []) for (const t of typeAndAbove(parent)) out.add(t);
  return out;
}

/** Every problem of a JSON-LD node (and the nodes within it) against the vocabulary. */
function vocabularyProblems(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => vocabularyProblems(v, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  const nodeValue = value as Record<string, unknown>;
  const type = nodeValue['@type'];
  if (typeof type !== 'string') return [`${path}: no @type`];
  if (!SUPER.has(type)) return [`${path}: unknown type ${type}`];
  const types = typeAndAbove(type);
  const problems: string[] = [];
  for (const [key, v] of Object.entries(nodeValue)) {
    if (key === '@type' || key === '@context') continue;
    const domains = DOMAINS.get(key);
    if (!domains) problems.push(`${path}.${key}: unknown property`);
    else if (!domains.some((d) => types.has(d))) problems.push(`${path}.${key}: not a property of ${type}`);
    if (v === null || v === undefined) problems.push(`${path}.${key}: null`);
    problems.push(...vocabularyProblems(v, `${path}.${key}`));
  }
  return problems;
}

describe('GET /api/v1/offers/{offer_id}/structured-data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.destroy());

  it('is the offer as a RealEstateListing of schema.org, in application/ld+json', async () => {
    const res = await get(t, `/api/v1/offers/${OFFER.krakowFull}/structured-data`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/ld+json; charset=utf-8');
    const offer = (await get(t, `/api/v1/offers/${OFFER.krakowFull}`)).json() as { offer_data: Record<string, any> };
    const d = offer.offer_data;
    const ld = res.json();
    expect(ld['@context']).toBe('https://schema.org');
    expect(ld).toMatchObject({
      '@type': 'RealEstateListing',
      url: WEBSITE_A1_URLS.offer.replace('{slug}', 'dwupokojowe-mieszkanie-z-balkonem-krakow'),
      name: d.title,
      description: d.description_clean_text,
      datePosted: d.date_posted,
      image: d.photos_urls,
      offers: {
        '@type': 'Offer',
        price: d.price,
        priceCurrency: d.price_currency,
        itemOffered: {
          '@type': 'Apartment',
          floorSize: { '@type': 'QuantitativeValue', value: d.property_size, unitCode: 'MTK' },
          numberOfRooms: d.rooms,
          address: { '@type': 'PostalAddress', addressLocality: d.address_city },
          geo: { '@type': 'GeoCoordinates', latitude: d.location_latitude, longitude: d.location_longitude },
        },
      },
    });
    expect(ld.description).not.toMatch(/<[a-z]/i);
    expect(vocabularyProblems(ld)).toEqual([]);
  });

  it('uses only schema.org types and properties where they belong, for every offer the key sees', async () => {
    const page = (await t.app.inject({ method: 'POST', url: '/api/v1/offers', headers: { authorization: KEYS.activeA1, 'content-type': 'application/json' }, payload: '{"pagination":{"size":100}}' })).json() as { items: { offer_id: string }[] };
    expect(page.items.length).toBeGreaterThan(3);
    for (const { offer_id } of page.items) {
      const res = await get(t, `/api/v1/offers/${offer_id}/structured-data`);
      expect(res.statusCode).toBe(200);
      expect(vocabularyProblems(res.json()), offer_id).toEqual([]);
    }
    // Not seen (inactive, another organization's): as GET /api/v1/offers/{id}.
    for (const id of [OFFER.inactive, OFFER.otherOrg]) {
      const res = await get(t, `/api/v1/offers/${id}/structured-data`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Offer not found' });
    }
  });

  it('random offer data gives only vocabulary terms, and no nulls', () => {
    const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
    fc.assert(
      fc.property(
        fc.record({
          title: maybe(fc.string()),
          description_clean_text: maybe(fc.string()),
          date_posted: maybe(fc.constant('2025-01-31T10:15:00+01:00')),
          photos_urls: maybe(fc.array(fc.webUrl(), { maxLength: 3 })),
          price: maybe(fc.double({ min: 0, max: 1e9, noNaN: true })),
          price_currency: maybe(fc.constantFrom('PLN', 'EUR')),
          property_size: maybe(fc.double({ min: 0, max: 1e5, noNaN: true })),
          rooms: maybe(fc.integer({ min: 0, max: 50 })),
          offer_type: maybe(fc.constantFrom('APARTMENT_SALES', 'APARTMENT_RENTALS', 'HOUSE_SALES', 'HOUSE_RENTALS', 'PLOT_SALES', 'COMMERCIAL_SALES', 'COMMERCIAL_RENTALS', 'OTHER')),
          address_street: maybe(fc.string()),
          address_street_number: maybe(fc.string()),
          address_city: maybe(fc.string()),
          address_postcode: maybe(fc.string()),
          address_state: maybe(fc.string()),
          address_country: maybe(fc.string()),
          location_latitude: maybe(fc.double({ min: -90, max: 90, noNaN: true })),
          location_longitude: maybe(fc.double({ min: -180, max: 180, noNaN: true })),
        }),
        fc.option(fc.webUrl(), { nil: undefined }),
        (data, url) => {
          const ld = offerStructuredData({ data, url, createdAt: '2025-01-01T00:00:00Z' });
          expect(vocabularyProblems(ld)).toEqual([]);
          expect(ld['@type']).toBe('RealEstateListing');
        },
      ),
      { numRuns: scaled('STRUCTURED_DATA_RUNS', 500, 5000) },
    );
  });
});
