/**
 * The search extensions through the API: Polish full-text cases as a table (what must match and
 * what must not), relevance order, geography, facets, the field catalogue, and the 422 of every new
 * field and operator at its exact place.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, get, post, type TestApp } from '../../helpers/app.js';
import { insertOffers, offerDataInput, ORG_A, uid } from '../../helpers/fixtures.js';

let t: TestApp;
const S = {
  zoliborz: uid('5ea1', 1),
  lodz: uid('5ea1', 2),
  mokotow: uid('5ea1', 3),
  kazimierz: uid('5ea1', 4),
  titleWarszawa: uid('5ea1', 5),
};

beforeAll(async () => {
  t = await buildTestApp();
  const offer = (offer_id: string, external_id: string, data: Record<string, unknown>) => ({
    offer_id,
    organization_id: ORG_A,
    external_id,
    created_at: '2025-02-01T10:00:00Z',
    data: offerDataInput({ description_clean_text: null, description: null, address_street: null, ...data }),
  });
  await insertOffers(t.db.db, [
    offer(S.zoliborz, 'WAW-1', { title: 'Przestronne mieszkanie na Żoliborzu', address_city: 'Warszawa', address_district: 'Żoliborz', location_latitude: 52.2686, location_longitude: 20.9847 }),
    offer(S.lodz, 'LDZ-2', { title: 'Kawalerka w centrum', address_city: 'Łódź', address_district: 'Śródmieście', address_street: 'Piotrkowska', location_latitude: 51.7592, location_longitude: 19.456 }),
    offer(S.mokotow, 'WAW-3', {
      title: 'Dom z ogrodem',
      address_city: 'Warszawa',
      address_district: 'Mokotów',
      description_clean_text: 'Cicha okolica, blisko parku.',
      location_latitude: 52.1935,
      location_longitude: 21.0358,
    }),
    offer(S.kazimierz, 'KRK-LOK-7', { title: 'Lokal użytkowy', address_city: 'Kraków', address_district: 'Kazimierz', description_clean_text: 'Idealny na kawiarnię.', location_latitude: null, location_longitude: null }),
    offer(S.titleWarszawa, 'GDA-5', { title: 'Warszawa? Nie, Gdańsk – apartament', address_city: 'Gdańsk', address_district: 'Oliwa', location_latitude: 54.4089, location_longitude: 18.5591 }),
  ]);
});

const search = async (text: string, extra: Record<string, unknown> = {}) => {
  const res = await post(t, '/api/v1/offers', { pagination: { size: 100 }, search: text, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: { offer_id: string }[] }).items.map((o) => o.offer_id);
};

describe('full-text search, Polish cases', () => {
  const cases: Array<[string, string[], string[]]> = [
    // query, must find, must not find
    ['lodz', [S.lodz], [S.zoliborz, S.mokotow, S.kazimierz]],
    ['Łódź', [S.lodz], [S.zoliborz]],
    ['ŁÓDŹ', [S.lodz], [S.zoliborz]],
    ['łodzi', [S.lodz], [S.zoliborz]],
    ['zoliborz', [S.zoliborz], [S.lodz, S.mokotow]],
    ['Żoliborzu', [S.zoliborz], [S.mokotow]],
    ['mokot', [S.mokotow], [S.zoliborz, S.lodz]],
    ['mokotowie', [S.mokotow], [S.zoliborz]],
    ['mieszkania', [S.zoliborz], [S.mokotow, S.kazimierz]],
    ['mieszkaniu', [S.zoliborz], [S.lodz]],
    ['ogrodem', [S.mokotow], [S.zoliborz]],
    ['ogród', [S.mokotow], [S.zoliborz]],
    ['kawiarnie', [S.kazimierz], [S.lodz]],
    ['krk-lok-7', [S.kazimierz], [S.lodz, S.zoliborz]],
    ['parku cicha', [S.mokotow], [S.zoliborz]],
    ['piotrkowska', [S.lodz], [S.zoliborz]],
    ['warszawa mieszkanie zoliborz', [S.zoliborz], [S.mokotow, S.lodz]],
    ['mokotow zoliborz', [], [S.mokotow, S.zoliborz]],
    ['kawalerkami', [S.lodz], [S.zoliborz]],
    ['xyzzy', [], [S.zoliborz, S.lodz, S.mokotow, S.kazimierz, S.titleWarszawa]],
  ];
  for (const [query, found, notFound] of cases) {
    it(`"${query}"`, async () => {
      const ids = await search(query);
      for (const id of found) expect(ids, `finds ${id}`).toContain(id);
      for (const id of notFound) expect(ids, `does not find ${id}`).not.toContain(id);
    });
  }

  it('orders by relevance without sorting (a title match first), and by the sorting when given', async () => {
    const ids = await search('warszawa');
    expect(ids[0]).toBe(S.titleWarszawa);
    expect(ids).toEqual(expect.arrayContaining([S.zoliborz, S.mokotow]));
    const byPrice = await post(t, '/api/v1/offers', { pagination: {}, search: 'warszawa', sorting: { field: 'external_id', direction: 'desc' } });
    const externals = (byPrice.json() as { items: { external_id: string }[] }).items.map((o) => o.external_id);
    expect(externals).toEqual([...externals].sort().reverse());
  });

  it('combines with filters (AND) and works on the investment list', async () => {
    const mokotow = await search('warszawa', { filters: [{ field: 'address_district', operator: 'eq', value: 'Mokotów' }] });
    expect(mokotow).toContain(S.mokotow);
    expect(mokotow).not.toContain(S.zoliborz);
    expect(mokotow).not.toContain(S.titleWarszawa);
    const res = await post(t, `/api/v1/investments/${uid('eeee', 1)}/offers`, { pagination: {}, search: 'warszawa' });
    expect(res.statusCode).toBe(404);
  });
});

describe('geography', () => {
  const geo = async (filter: Record<string, unknown>, sorting?: Record<string, unknown>) => {
    const res = await post(t, '/api/v1/offers', { pagination: { size: 100 }, filters: [{ field: 'location', ...filter }], ...(sorting ? { sorting } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { items: { offer_id: string }[] }).items.map((o) => o.offer_id);
  };

  it('within_radius: great-circle distance; offers without coordinates never match', async () => {
    const ids = await geo({ operator: 'within_radius', value: { lat: 52.2297, lon: 21.0122, km: 6 } });
    expect(ids).toContain(S.zoliborz); // about 5 km north
    expect(ids).toContain(S.mokotow); // about 4.4 km south
    expect(ids).not.toContain(S.lodz);
    expect(ids).not.toContain(S.kazimierz); // no coordinates
    expect(await geo({ operator: 'within_radius', value: { lat: 52.2297, lon: 21.0122, km: 4 } })).not.toContain(S.zoliborz);
  });

  it('within_bbox and within_polygon', async () => {
    const box = await geo({ operator: 'within_bbox', value: { south: 51, west: 19, north: 52.5, east: 21.5 } });
    expect(box).toEqual(expect.arrayContaining([S.zoliborz, S.lodz, S.mokotow]));
    expect(box).not.toContain(S.titleWarszawa);
    const triangle = await geo({ operator: 'within_polygon', value: [[52.0, 20.8], [52.4, 20.8], [52.2, 21.3]] });
    expect(triangle).toEqual(expect.arrayContaining([S.zoliborz, S.mokotow]));
    expect(triangle).not.toContain(S.lodz);
  });

  it('sorts by distance from a point, nearest first, offers without coordinates last', async () => {
    const res = await post(t, '/api/v1/offers', { pagination: { size: 100 }, sorting: { field: 'distance', from: { lat: 54.35, lon: 18.65 } } });
    const ids = (res.json() as { items: { offer_id: string }[] }).items.map((o) => o.offer_id);
    expect(ids[0]).toBe(S.titleWarszawa); // Gdańsk
    expect(ids.indexOf(S.zoliborz)).toBeLessThan(ids.indexOf(S.lodz));
    expect(ids.at(-1)).toBe(S.kazimierz);
  });
});

describe('422 for the new fields and operators, at their exact place', () => {
  const detail = async (url: string, body: unknown) => {
    const res = await post(t, url, body);
    expect(res.statusCode, res.body).toBe(422);
    return (res.json() as { detail: Array<{ type: string; loc: unknown[]; msg: string }> }).detail.map((d) => ({ type: d.type, loc: d.loc }));
  };
  const list = (extra: Record<string, unknown>) => detail('/api/v1/offers', { pagination: {}, ...extra });
  const location = (operator: string, value: unknown) => list({ filters: [{ field: 'location', operator, value }] });
  const at = (...path: (string | number)[]) => ['body', 'filters', 0, 'value', ...path];

  it('search', async () => {
    expect(await list({ search: 'x'.repeat(201) })).toEqual([{ type: 'string_too_long', loc: ['body', 'search'] }]);
    expect(await list({ search: '   ' })).toEqual([{ type: 'string_too_short', loc: ['body', 'search'] }]);
    expect(await list({ search: 5 })).toEqual([{ type: 'string_type', loc: ['body', 'search'] }]);
    // 200 characters after trimming are fine.
    expect((await post(t, '/api/v1/offers', { pagination: {}, search: ` ${'a '.repeat(100)}` })).statusCode).toBe(200);
  });

  it('within_radius', async () => {
    expect(await location('within_radius', { lat: 95, lon: 21, km: 5 })).toEqual([{ type: 'less_than_equal', loc: at('lat') }]);
    expect(await location('within_radius', { lat: 52, lon: -181, km: 5 })).toEqual([{ type: 'greater_than_equal', loc: at('lon') }]);
    expect(await location('within_radius', { lat: 52, lon: 21, km: 0 })).toEqual([{ type: 'greater_than', loc: at('km') }]);
    expect(await location('within_radius', { lat: 52, lon: 21, km: 1001 })).toEqual([{ type: 'less_than_equal', loc: at('km') }]);
    expect(await location('within_radius', { lat: 52, km: 5 })).toEqual([{ type: 'missing', loc: at('lon') }]);
    expect(await location('within_radius', [52, 21, 5])).toEqual([{ type: 'model_attributes_type', loc: at() }]);
    expect(await location('within_radius', { lat: 'north', lon: 21, km: 5 })).toEqual([{ type: 'float_parsing', loc: at('lat') }]);
  });

  it('within_bbox and within_polygon', async () => {
    expect(await location('within_bbox', { south: 53, west: 20, north: 52, east: 21 })).toEqual([{ type: 'value_error', loc: at() }]);
    expect(await location('within_bbox', { south: 52, west: 20, north: 91, east: 21 })).toEqual([{ type: 'less_than_equal', loc: at('north') }]);
    expect(await location('within_polygon', [[52, 21], [52.1, 21]])).toEqual([{ type: 'too_short', loc: at() }]);
    const many = Array.from({ length: 1001 }, (_, i) => [52 + i / 10_000, 21]);
    expect(await location('within_polygon', many)).toEqual([{ type: 'too_long', loc: at() }]);
    expect(await location('within_polygon', [[52, 21], [52.1], [52.2, 21.1]])).toEqual([{ type: 'too_short', loc: at(1) }]);
    expect(await location('within_polygon', [[52, 21], [52.1, 200], [52.2, 21.1]])).toEqual([{ type: 'less_than_equal', loc: at(1, 1) }]);
    expect(await location('within_polygon', { lat: 52 })).toEqual([{ type: 'list_type', loc: at() }]);
  });

  it('operators and fields that do not go together', async () => {
    expect(await location('eq', 5)).toEqual([{ type: 'value_error', loc: ['body', 'filters', 0, 'operator'] }]);
    expect(await list({ filters: [{ field: 'price', operator: 'within_radius', value: { lat: 52, lon: 21, km: 5 } }] })).toEqual([
      { type: 'value_error', loc: ['body', 'filters', 0, 'operator'] },
    ]);
    expect(await list({ filters: [{ field: 'location', operator: 'nearby', value: 1 }] })).toEqual([
      { type: 'literal_error', loc: ['body', 'filters', 0, 'operator'] },
    ]);
  });

  it('a distance sort needs its point', async () => {
    expect(await list({ sorting: { field: 'distance' } })).toEqual([{ type: 'missing', loc: ['body', 'sorting', 'from'] }]);
    expect(await list({ sorting: { field: 'distance', from: { lat: 100, lon: 0 } } })).toEqual([
      { type: 'less_than_equal', loc: ['body', 'sorting', 'from', 'lat'] },
    ]);
  });

  it('facets and statistics', async () => {
    const facets = (extra: Record<string, unknown>) => detail('/api/v1/offers/facets', extra);
    expect(await facets({ facets: ['colour'] })).toEqual([{ type: 'value_error', loc: ['body', 'facets', 0] }]);
    expect(await facets({ facets: ['address_city', 'price'] })).toEqual([{ type: 'value_error', loc: ['body', 'facets', 1] }]);
    expect(await facets({ stats: ['title'] })).toEqual([{ type: 'value_error', loc: ['body', 'stats', 0] }]);
    expect(await facets({ facet_size: 0 })).toEqual([{ type: 'greater_than_equal', loc: ['body', 'facet_size'] }]);
    expect(await facets({ facet_size: 1001 })).toEqual([{ type: 'less_than_equal', loc: ['body', 'facet_size'] }]);
    expect(await facets({ facets: 'address_city' })).toEqual([{ type: 'list_type', loc: ['body', 'facets'] }]);
    const suggestion = await post(t, '/api/v1/offers/facets', { facets: ['city'] });
    expect((suggestion.json() as { detail: Array<{ msg: string }> }).detail[0]!.msg).toBe("Value error, unknown field 'city'; did you mean 'address_city'?");
  });
});

describe('facets and the field catalogue', () => {
  it('counts values and measures fields of the matching offers', async () => {
    const res = await post(t, '/api/v1/offers/facets', {
      filters: [{ field: 'address_city', operator: 'eq', value: 'Warszawa' }],
      facets: ['address_city', 'address_district'],
      stats: ['price', 'created_at'],
      facet_size: 2,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as {
      total: number;
      facets: Record<string, Array<{ value: unknown; count: number }>>;
      stats: Record<string, { min: unknown; max: unknown; count: number }>;
    };
    expect(Object.keys(body)).toEqual(['total', 'facets', 'stats']);
    // Disjunctive: the city facet ignores the city filter, the district facet does not.
    expect(body.facets.address_city!.length).toBe(2);
    expect(body.facets.address_district!.map((v) => v.value)).toEqual(expect.arrayContaining(['Mokotów']));
    expect(body.facets.address_district!.reduce((n, v) => n + v.count, 0)).toBeLessThanOrEqual(body.total);
    expect(body.stats.created_at!.min).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(body.stats.price!.count).toBeLessThanOrEqual(body.total);
    const unknown = await post(t, `/api/v1/investments/${uid('eeee', 1)}/offers/facets`, { facets: ['rooms'] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'Investment not found' });
  });

  it('lists every field with its type, operators and enumerated values in use', async () => {
    const res = await get(t, '/api/v1/meta/offers');
    expect(res.statusCode).toBe(200);
    const body = res.json() as { fields: Array<{ name: string; type: string; operators: string[]; sortable: boolean; values?: string[] }>; includes: string[]; sort_fields: string[] };
    const field = (name: string) => body.fields.find((f) => f.name === name)!;
    expect(field('price')).toMatchObject({ type: 'number', sortable: true });
    expect(field('market_type').type).toBe('enum');
    expect(field('market_type').values).toEqual(expect.arrayContaining(['PRIMARY']));
    expect(field('location')).toMatchObject({ type: 'geo_point', operators: ['within_radius', 'within_bbox', 'within_polygon'], sortable: false });
    expect(field('title').values).toBeUndefined();
    expect(body.includes).toEqual(['agent', 'branch', 'organization', 'investment']);
    expect(body.sort_fields).toContain('distance');
    expect((await get(t, '/api/v1/meta/offers', { key: null })).statusCode).toBe(401);
  });
});
