/**
 * Sparse fields (extension E13) on the fixture: `fields` on both POST lists and `?fields=` on GET
 * offer, JSON and XML; offer_data in catalogue order with only the named fields, the offer's other
 * keys as they were; unknown names are a 422 at their index with a did-you-mean; without `fields`
 * (or with null) the answer is byte for byte the full one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, get, post, type TestApp } from '../../helpers/app.js';
import { INVESTMENT, OFFER } from '../../helpers/fixtures.js';
import { OFFER_DATA_FIELDS, OFFER_FIELDS } from '../../helpers/fields.js';

describe('sparse fields', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.destroy());

  const PAGE_FIELDS = ['photos_urls', 'title', 'address_city', 'rooms', 'property_size', 'price'];
  const IN_CATALOGUE_ORDER = OFFER_DATA_FIELDS.filter((name) => PAGE_FIELDS.includes(name));

  it('GET offer keeps only the named offer_data fields, in catalogue order, the other keys as they were', async () => {
    const full = (await get(t, `/api/v1/offers/${OFFER.krakowFull}?include=agent`)).json();
    const res = await get(t, `/api/v1/offers/${OFFER.krakowFull}?include=agent&fields=photos_urls,title&fields=address_city,rooms,property_size,price`);
    expect(res.statusCode).toBe(200);
    const sparse = res.json();
    expect(Object.keys(sparse)).toEqual(OFFER_FIELDS);
    expect(Object.keys(sparse.offer_data)).toEqual(IN_CATALOGUE_ORDER);
    expect(sparse.offer_data).toEqual(Object.fromEntries(IN_CATALOGUE_ORDER.map((name) => [name, full.offer_data[name]])));
    expect({ ...sparse, offer_data: null }).toEqual({ ...full, offer_data: null });
    // `offer_data.<name>` names the same field, and a repeat counts once.
    const prefixed = await get(t, `/api/v1/offers/${OFFER.krakowFull}?include=agent&fields=offer_data.price,price,title,photos_urls,address_city,rooms,property_size`);
    expect(prefixed.body).toBe(res.body);
  });

  it('both POST lists take `fields`; the page is the full page with offer_data cut', async () => {
    for (const url of ['/api/v1/offers', `/api/v1/investments/${INVESTMENT.zielone}/offers`]) {
      const body = { pagination: { page: 1, size: 10 }, sorting: { field: 'price', direction: 'asc' } };
      const full = (await post(t, url, body)).json();
      const res = await post(t, url, { ...body, fields: PAGE_FIELDS });
      expect(res.statusCode).toBe(200);
      const sparse = res.json();
      expect(full.items.length).toBeGreaterThan(0);
      expect(sparse.items.map((o: { offer_id: string }) => o.offer_id)).toEqual(full.items.map((o: { offer_id: string }) => o.offer_id));
      sparse.items.forEach((offer: Record<string, any>, i: number) => {
        expect(Object.keys(offer.offer_data)).toEqual(IN_CATALOGUE_ORDER);
        expect(offer.offer_data).toEqual(Object.fromEntries(IN_CATALOGUE_ORDER.map((name) => [name, full.items[i].offer_data[name]])));
        expect({ ...offer, offer_data: null }).toEqual({ ...full.items[i], offer_data: null });
      });
      expect({ ...sparse, items: null }).toEqual({ ...full, items: null });
      expect(res.body.length).toBeLessThan((await post(t, url, body)).body.length);
    }
  });

  it('without `fields`, or with null, the answer is the full one byte for byte', async () => {
    const body = { pagination: { page: 1, size: 5 } };
    const plain = await post(t, '/api/v1/offers', body);
    const withNull = await post(t, '/api/v1/offers', { ...body, fields: null });
    expect(withNull.body).toBe(plain.body);
    expect(Object.keys(plain.json().items[0].offer_data)).toEqual([...OFFER_DATA_FIELDS]);
  });

  it('XML: <offer_data> holds only the named elements, in catalogue order', async () => {
    const xml = { headers: { accept: 'application/xml' } };
    const one = await get(t, `/api/v1/offers/${OFFER.krakowFull}?fields=title,price,photos_urls`, xml);
    expect(one.statusCode).toBe(200);
    const data = /<offer_data>(.*)<\/offer_data>/s.exec(one.body)![1]!;
    expect([...data.matchAll(/<([a-z_]+)>/g)].map((m) => m[1])).toEqual(['price', 'title', 'photos_urls', 'photo_url', 'photo_url']);
    // The full document's elements are unchanged, before and after a sparse one (the fragment cache keeps them apart).
    const full = await get(t, `/api/v1/offers/${OFFER.krakowFull}`, xml);
    expect(full.body).toContain('<description>');
    const page = await post(t, '/api/v1/offers', { pagination: { page: 1, size: 3 }, fields: ['rooms'] }, xml);
    expect(page.statusCode).toBe(200);
    for (const m of page.body.matchAll(/<offer_data>(.*?)<\/offer_data>/gs)) expect(m[1]).toMatch(/^<rooms(>[0-9]+<\/rooms>|\/>)$/);
    const again = await get(t, `/api/v1/offers/${OFFER.krakowFull}`, xml);
    expect(again.body).toBe(full.body);
  });

  it('an unknown field is a 422 at its index, with a did-you-mean', async () => {
    const res = await post(t, '/api/v1/offers', { pagination: {}, fields: ['price', 'city', 7] });
    expect(res.statusCode).toBe(422);
    const detail = res.json().detail;
    expect(detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ['body', 'fields', 1],
      ['body', 'fields', 2],
    ]);
    expect(detail[0].msg).toContain("did you mean 'address_city'?");
    expect(detail[1].type).toBe('string_type');
    for (const fields of [[], 'price', {}]) {
      const bad = await post(t, '/api/v1/offers', { pagination: {}, fields });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().detail[0].loc).toEqual(['body', 'fields']);
    }
    const q = await get(t, `/api/v1/offers/${OFFER.krakowFull}?fields=price,prise`);
    expect(q.statusCode).toBe(422);
    expect(q.json().detail).toMatchObject([{ loc: ['query', 'fields', 1], msg: expect.stringContaining("did you mean 'price'?") }]);
    const empty = await get(t, `/api/v1/offers/${OFFER.krakowFull}?fields=`);
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail[0].loc).toEqual(['query', 'fields']);
  });

  it('a missing offer is a 404 whatever the fields', async () => {
    const res = await get(t, `/api/v1/offers/${OFFER.inactive}?fields=price`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Offer not found' });
  });
});
