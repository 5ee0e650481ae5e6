import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../../src/features/access/model.js';
import { buildTestApp, get, type TestApp } from '../../helpers/app.js';
import { KEYS, ORG_A, ORG_B } from '../../helpers/fixtures.js';
import { LOCATION_FIELDS, ORGANIZATION_FIELDS } from '../../helpers/fields.js';

describe('GET /api/v1/organization', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.destroy());

  it('returns the organization with every field in table order', async () => {
    const res = await get(t, '/api/v1/organization');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.json();
    expect(Object.keys(body)).toEqual(ORGANIZATION_FIELDS);
    expect(Object.keys(body.location)).toEqual(LOCATION_FIELDS);
    expect(body).toMatchObject({
      organization_id: ORG_A,
      name: 'Nieruchomości Wawel',
      nip: '6762468390',
      social_media_links: ['https://facebook.com/wawel', 'https://instagram.com/wawel'],
      contact_email: 'biuro@wawel.example.com',
    });
    expect(body.location).toMatchObject({ address_city: 'Kraków', location_latitude: 50.0614, address_subdistrict: null });
  });

  it('gives null for every empty field, never leaves one out', async () => {
    const res = await get(t, '/api/v1/organization', { key: KEYS.activeB });
    const body = res.json();
    expect(Object.keys(body)).toEqual(ORGANIZATION_FIELDS);
    expect(body.organization_id).toBe(ORG_B);
    for (const field of ORGANIZATION_FIELDS.slice(2)) expect(body[field], field).toBeNull();
  });

  it('answers 404 "Organization not found" when the organization record is missing', async () => {
    // A website whose organization record does not exist (websites carry no foreign key).
    const key = 'ecs_orphanorphanorphanorphanorphanorphanorpha';
    const websiteId = 'cccc0000-0000-4000-8000-000000000001';
    await t.db.db.insertInto('websites').values({ website_id: websiteId, organization_id: 'cccc0000-0000-4000-8000-0000000000ff', name: 'orphan' }).execute();
    await t.db.db
      .insertInto('api_keys')
      .values({ key_id: 'cccc0000-0000-4000-8000-000000000002', website_id: websiteId, key_sha256: hashKey(key), is_active: true })
      .execute();
    const res = await get(t, '/api/v1/organization', { key });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Organization not found' });
  });
});
