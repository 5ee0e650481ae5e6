/**
 * Sparse fields (extension E13) never change the selected values: for random selections (names in
 * any order, repeated, some as `offer_data.<name>`), pages, sorts and filters over a generated world,
 * the sparse page is the full page with each offer_data cut to the selection in catalogue order,
 * every other key equal; GET offer with `?fields=` likewise. Runs with the response cache and the
 * offer body cache on, so their reuse across selections is exercised too.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, get, post, type TestApp } from '../../helpers/app.js';
import { OFFER_DATA_FIELDS } from '../../helpers/fields.js';
import { scaled } from '../../helpers/scale.js';
import { generateWorld, insertWorld, WORLD_KEY, WORLD_ORG } from '../../helpers/offer-world.js';

let t: TestApp;
const world = generateWorld(200, 20261127);
const visible = world.filter((o) => o.organization_id === WORLD_ORG && o.is_active);

beforeAll(async () => {
  t = await buildTestApp({ seed: false });
  await insertWorld(t.db.db, world);
});

const nameArb = fc.constantFrom(...OFFER_DATA_FIELDS).chain((name) => fc.constantFrom(name, `offer_data.${name}`));
const selectionArb = fc.array(nameArb, { minLength: 1, maxLength: 12 });
const bare = (name: string) => name.replace(/^offer_data\./, '');
const cut = (data: Record<string, unknown>, names: readonly string[]) => {
  const wanted = new Set(names.map(bare));
  return Object.fromEntries(OFFER_DATA_FIELDS.filter((name) => wanted.has(name)).map((name) => [name, data[name]]));
};

describe('sparse fields never change the selected values', () => {
  it('POST lists: sparse page = full page with offer_data cut', async () => {
    const requestArb = fc.record({
      page: fc.integer({ min: 1, max: 4 }),
      size: fc.integer({ min: 1, max: 60 }),
      sorting: fc.option(fc.record({ field: fc.constantFrom('price', 'rooms', 'title', 'created_at'), direction: fc.constantFrom('asc', 'desc') }), { nil: null }),
      filters: fc.option(fc.array(fc.record({ field: fc.constant('rooms'), operator: fc.constantFrom('gte', 'lte'), value: fc.integer({ min: 1, max: 6 }) }), { maxLength: 1 }), { nil: null }),
      fields: selectionArb,
    });
    await fc.assert(
      fc.asyncProperty(requestArb, async ({ page, size, sorting, filters, fields }) => {
        const body = { pagination: { page, size }, sorting, filters };
        const fullRes = await post(t, '/api/v1/offers', body, { key: WORLD_KEY });
        const sparseRes = await post(t, '/api/v1/offers', { ...body, fields }, { key: WORLD_KEY });
        expect(fullRes.statusCode).toBe(200);
        expect(sparseRes.statusCode).toBe(200);
        const full = fullRes.json();
        const sparse = sparseRes.json();
        expect({ ...sparse, items: null }).toEqual({ ...full, items: null });
        expect(sparse.items.length).toBe(full.items.length);
        sparse.items.forEach((offer: Record<string, any>, i: number) => {
          const whole = full.items[i];
          expect({ ...offer, offer_data: null }).toEqual({ ...whole, offer_data: null });
          expect(Object.keys(offer.offer_data)).toEqual(Object.keys(cut(whole.offer_data, fields)));
          expect(offer.offer_data).toEqual(cut(whole.offer_data, fields));
        });
      }),
      { numRuns: scaled('SPARSE_RUNS', 40, 300) },
    );
  });

  it('GET offer with ?fields=, JSON and XML', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...visible), selectionArb, fc.boolean(), async (offer, fields, repeated) => {
        const query = repeated ? fields.map((name) => `fields=${name}`).join('&') : `fields=${fields.join(',')}`;
        const whole = (await get(t, `/api/v1/offers/${offer.offer_id}`, { key: WORLD_KEY })).json();
        const res = await get(t, `/api/v1/offers/${offer.offer_id}?${query}`, { key: WORLD_KEY });
        expect(res.statusCode).toBe(200);
        const sparse = res.json();
        expect({ ...sparse, offer_data: null }).toEqual({ ...whole, offer_data: null });
        expect(Object.keys(sparse.offer_data)).toEqual(Object.keys(cut(whole.offer_data, fields)));
        expect(sparse.offer_data).toEqual(cut(whole.offer_data, fields));
        // XML: the same elements as the full document's, only the selected ones.
        const xml = { key: WORLD_KEY, headers: { accept: 'application/xml' } };
        const fullXml = (await get(t, `/api/v1/offers/${offer.offer_id}`, xml)).body;
        const sparseXml = (await get(t, `/api/v1/offers/${offer.offer_id}?${query}`, xml)).body;
        const elements = (doc: string) => {
          const data = /<offer_data>(.*)<\/offer_data>|<offer_data\/>/s.exec(doc)!;
          const inner = data[1] ?? '';
          return new Map([...inner.matchAll(/<([a-z_]+)(?:\/>|>(.*?)<\/\1>)/gs)].map((m) => [m[1]!, m[0]]));
        };
        const fullElements = elements(fullXml);
        const wanted = Object.keys(cut(whole.offer_data, fields));
        expect([...elements(sparseXml).entries()]).toEqual(wanted.map((name) => [name, fullElements.get(name)]));
        expect(sparseXml.replace(/<offer_data>.*<\/offer_data>|<offer_data\/>/s, '')).toBe(fullXml.replace(/<offer_data>.*<\/offer_data>/s, ''));
      }),
      { numRuns: scaled('SPARSE_RUNS', 40, 300) },
    );
  });
});
