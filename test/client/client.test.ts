/**
 * The typed client (packages/client) against the running service: the app with the test fixture,
 * listening on an ephemeral port, driven over real HTTP through createEstateClient. Every operation
 * of the live /openapi.json is called and its typed answer checked; a middleware records which
 * operations answered 2xx, and the last test holds that set to the document's, so a new route
 * fails here until it has a client test (the failure lists the operations without one).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  API_KEY_HEADER,
  createEstateClient,
  type Agent,
  type Branch,
  type ErrorResponse,
  type EstateClient,
  type FacetsResponse,
  type ChangeFeed,
  type Slug,
  type FieldCatalogue,
  type OfferPhotos,
  type PriceHistory,
  type HTTPValidationError,
  type Investment,
  type Offer,
  type OffersResponse,
  type ClustersResponse,
  type SimilarOffersResponse,
  type SparseOffer,
  type SparseOffersResponse,
  type Organization,
} from '../../packages/client/src/index.js';
import { recordWebsiteChanges } from '../../src/features/change-feed/write.js';
import { sql } from 'kysely';
import { createHash } from 'node:crypto';
import { enableDataset } from '../../src/features/transparency/write.js';
import { warsawDay } from '../../src/features/transparency/model.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { startImageOrigin, type ImageOrigin } from '../helpers/image-origin.js';
import { AGENT, BRANCH, INVESTMENT, KEYS, OFFER, ORG_A, ORG_B, uid } from '../helpers/fixtures.js';

let t: TestApp;
let baseUrl: string;
let estate: EstateClient;
/** `METHOD /path/{template}` of every operation that answered 2xx through the client. */
const covered = new Set<string>();

const track = (client: EstateClient): EstateClient => {
  client.use({
    onResponse({ request, response, schemaPath }) {
      if (response.ok) covered.add(`${request.method} ${schemaPath}`);
    },
  });
  return client;
};

let photoOrigin: ImageOrigin;

beforeAll(async () => {
  // A local photo origin the service may fetch from (extension E11).
  photoOrigin = await startImageOrigin();
  photoOrigin.answers.set('/p.jpg', { kind: 'bytes', body: await sharp({ create: { width: 400, height: 300, channels: 3, background: '#808080' } }).jpeg().toBuffer() });
  t = await buildTestApp({
    env: { IMAGE_SOURCES: photoOrigin.origin, IMAGE_CACHE_DIR: mkdtempSync(path.join(tmpdir(), 'ecs-client-photos-')), IMAGE_FETCH_POLL_MS: '50' },
  });
  // The fixture is inserted without the import: record its change feed as an import would.
  await t.db.db.transaction().execute((trx) => recordWebsiteChanges(trx, [ORG_A, ORG_B]));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/`;
  estate = track(createEstateClient({ baseUrl, apiKey: KEYS.activeA1 }));
});
afterAll(() => t.destroy());

/** Great-circle distance, for checking the geography answers. */
function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(a));
}

const ids = (items: readonly { offer_id: string }[]) => items.map((o) => o.offer_id);

describe('createEstateClient', () => {
  it('sends the key in the Authorization header; a wrong key gets the typed 401', async () => {
    expect(API_KEY_HEADER).toBe('Authorization');
    const wrong = createEstateClient({ baseUrl, apiKey: KEYS.unknown });
    const { data, error, response } = await wrong.GET('/api/v1/organization');
    expect(response.status).toBe(401);
    expect(data).toBeUndefined();
    expectTypeOf(error).toEqualTypeOf<ErrorResponse | HTTPValidationError | undefined>();
    expect(error).toEqual({ detail: 'Invalid API key' });
    expect(() => createEstateClient({ baseUrl, apiKey: ' ' })).toThrow(TypeError);
  });
});

describe('every operation through the client', () => {
  it('GET /health', async () => {
    const { data } = await estate.GET('/health');
    expectTypeOf(data).toEqualTypeOf<{ status: 'ok' } | undefined>();
    expect(data).toEqual({ status: 'ok' });
  });

  it('GET /api/v1/organization', async () => {
    const { data } = await estate.GET('/api/v1/organization');
    expectTypeOf(data).toEqualTypeOf<Organization | undefined>();
    expect(data!.organization_id).toBe(ORG_A);
    expect(typeof data!.name).toBe('string');
  });

  it('GET /api/v1/branches, one branch and its agents; a typed 404', async () => {
    const list = await estate.GET('/api/v1/branches');
    expectTypeOf(list.data).toEqualTypeOf<Branch[] | undefined>();
    expect(list.data!.map((b) => b.branch_id)).toContain(BRANCH.krakow);

    const one = await estate.GET('/api/v1/branches/{branch_id}', { params: { path: { branch_id: BRANCH.krakow } } });
    expectTypeOf(one.data).toEqualTypeOf<Branch | undefined>();
    expect(one.data!.branch_id).toBe(BRANCH.krakow);
    expect(one.data!.organization_id).toBe(ORG_A);

    const agents = await estate.GET('/api/v1/branches/{branch_id}/agents', { params: { path: { branch_id: BRANCH.krakow } } });
    expectTypeOf(agents.data).toEqualTypeOf<Agent[] | undefined>();
    expect(agents.data!.length).toBeGreaterThan(0);
    expect(agents.data!.every((a) => a.branch_id === BRANCH.krakow)).toBe(true);

    const missing = await estate.GET('/api/v1/branches/{branch_id}', { params: { path: { branch_id: BRANCH.other } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toEqual({ detail: 'Branch not found' });
  });

  it('GET /api/v1/agents and one agent; a typed 422', async () => {
    const list = await estate.GET('/api/v1/agents');
    expectTypeOf(list.data).toEqualTypeOf<Agent[] | undefined>();
    expect(list.data!.map((a) => a.agent_id)).toEqual(expect.arrayContaining([AGENT.nowak, AGENT.noBranch]));
    expect(list.data!.map((a) => a.agent_id)).not.toContain(AGENT.other);

    const one = await estate.GET('/api/v1/agents/{agent_id}', { params: { path: { agent_id: AGENT.nowak } } });
    expectTypeOf(one.data).toEqualTypeOf<Agent | undefined>();
    expect(one.data!.agent_id).toBe(AGENT.nowak);

    const invalid = await estate.GET('/api/v1/agents/{agent_id}', { params: { path: { agent_id: 'abc' } } });
    expect(invalid.response.status).toBe(422);
    const detail = (invalid.error as { detail: Array<{ type: string; loc: unknown[] }> }).detail;
    expect(detail[0]).toMatchObject({ type: 'uuid_parsing', loc: ['path', 'agent_id'] });
  });

  it('GET /api/v1/investments (with is_active) and one investment', async () => {
    const all = await estate.GET('/api/v1/investments');
    expectTypeOf(all.data).toEqualTypeOf<Investment[] | undefined>();
    expect(all.data!.map((i) => i.investment_id)).toEqual(expect.arrayContaining([INVESTMENT.zielone, INVESTMENT.wisla]));

    const active = await estate.GET('/api/v1/investments', { params: { query: { is_active: true } } });
    expect(active.data!.length).toBeGreaterThan(0);
    expect(active.data!.every((i) => i.is_active)).toBe(true);
    expect(active.data!.length).toBeLessThan(all.data!.length);

    const one = await estate.GET('/api/v1/investments/{investment_id}', { params: { path: { investment_id: INVESTMENT.zielone } } });
    expectTypeOf(one.data).toEqualTypeOf<Investment | undefined>();
    expect(one.data!.investment_id).toBe(INVESTMENT.zielone);
  });

  it('POST /api/v1/offers: filters, sorting, pagination and includes, as JSON', async () => {
    const { data } = await estate.POST('/api/v1/offers', {
      params: { query: { include: ['agent', 'branch'] } },
      body: {
        pagination: { page: 1, size: 2 },
        sorting: { field: 'price', direction: 'asc' },
        filters: [{ field: 'price', operator: 'gte', value: 400000 }],
      },
    });
    expectTypeOf(data).toEqualTypeOf<OffersResponse | SparseOffersResponse | undefined>();
    expect(data!.page).toBe(1);
    expect(data!.size).toBe(2);
    expect(data!.items.length).toBe(2);
    expect(data!.total).toBeGreaterThan(2);
    expect(data!.pages).toBe(Math.ceil(data!.total / 2));
    const prices = data!.items.map((o) => o.offer_data.price as number);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(prices.every((p) => p >= 400000)).toBe(true);
    // Included relations are objects or null; the others are null.
    expect(data!.items.some((o) => o.agent !== null)).toBe(true);
    expect(data!.items.every((o) => o.organization === null && o.investment === null)).toBe(true);
  });

  it('POST /api/v1/offers with the search and geography body keys (extensions)', async () => {
    const search = await estate.POST('/api/v1/offers', { body: { pagination: {}, search: 'krakow' } });
    expect(search.data!.total).toBeGreaterThan(0);
    expect(search.data!.items.every((o) => o.offer_data.address_city === 'Kraków')).toBe(true);

    // Around Kraków's centre, nearest first.
    const near = await estate.POST('/api/v1/offers', {
      body: {
        pagination: { size: 100 },
        filters: [{ field: 'location', operator: 'within_radius', value: { lat: 50.06, lon: 19.94, km: 30 } }],
        sorting: { field: 'distance', direction: 'asc', from: { lat: 50.06, lon: 19.94 } },
      },
    });
    expect(near.response.status, JSON.stringify(near.error)).toBe(200);
    expect(near.data!.total).toBeGreaterThan(0);
    const km = near.data!.items.map((o) => distanceKm(50.06, 19.94, o.offer_data.location_latitude as number, o.offer_data.location_longitude as number));
    expect(km.every((d) => d <= 30)).toBe(true);
    expect(km).toEqual([...km].sort((a, b) => a - b));

    const box = await estate.POST('/api/v1/offers', {
      body: { pagination: {}, filters: [{ field: 'location', operator: 'within_bbox', value: { south: 49, west: 18, north: 51, east: 21 } }] },
    });
    expect(ids(box.data!.items)).toEqual(expect.arrayContaining(ids(near.data!.items)));
  });

  it('POST /api/v1/offers as XML (Accept: application/xml, parseAs text)', async () => {
    const { data, response } = await estate.POST('/api/v1/offers', {
      body: { pagination: { size: 1 } },
      headers: { Accept: 'application/xml' },
      parseAs: 'text',
    });
    expectTypeOf(data).toEqualTypeOf<string | undefined>();
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(data!.startsWith('<?xml')).toBe(true);
    expect(data).toContain('<offer_id>');
  });

  it('GET /api/v1/offers/{offer_id}, as JSON with includes and as XML; a typed 404', async () => {
    const one = await estate.GET('/api/v1/offers/{offer_id}', {
      params: { path: { offer_id: OFFER.krakowFull }, query: { include: ['agent', 'branch', 'organization', 'investment'] } },
    });
    expectTypeOf(one.data).toEqualTypeOf<Offer | SparseOffer | undefined>();
    expect(one.data!.offer_id).toBe(OFFER.krakowFull);
    expect(one.data!.organization!.organization_id).toBe(ORG_A);
    expect(one.data!.investment!.investment_id).toBe(INVESTMENT.zielone);
    expect(Number.isInteger(one.data!.version)).toBe(true);

    const xml = await estate.GET('/api/v1/offers/{offer_id}', {
      params: { path: { offer_id: OFFER.krakowFull } },
      headers: { Accept: 'application/xml' },
      parseAs: 'text',
    });
    expect(xml.response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(xml.data).toContain(OFFER.krakowFull);

    const other = await estate.GET('/api/v1/offers/{offer_id}', { params: { path: { offer_id: OFFER.otherOrg } } });
    expect(other.response.status).toBe(404);
    expect(other.error).toEqual({ detail: 'Offer not found' });
  });

  it('POST /api/v1/investments/{investment_id}/offers, as JSON and as XML', async () => {
    const { data } = await estate.POST('/api/v1/investments/{investment_id}/offers', {
      params: { path: { investment_id: INVESTMENT.zielone } },
      body: { pagination: { size: 50 }, sorting: { field: 'price', direction: 'desc' } },
    });
    expectTypeOf(data).toEqualTypeOf<OffersResponse | SparseOffersResponse | undefined>();
    expect(ids(data!.items)).toContain(OFFER.krakowFull);
    expect(ids(data!.items)).not.toContain(OFFER.warszawa);

    const xml = await estate.POST('/api/v1/investments/{investment_id}/offers', {
      params: { path: { investment_id: INVESTMENT.zielone } },
      body: { pagination: {} },
      headers: { Accept: 'application/xml' },
      parseAs: 'text',
    });
    expect(xml.data!.startsWith('<?xml')).toBe(true);
  });

  it('POST /api/v1/offers/facets (extension): counts and statistics', async () => {
    const { data } = await estate.POST('/api/v1/offers/facets', {
      body: { search: 'mieszkanie', facets: ['address_city', 'rooms'], stats: ['price'], facet_size: 10 },
    });
    expectTypeOf(data).toEqualTypeOf<FacetsResponse | undefined>();
    expect(data!.total).toBeGreaterThanOrEqual(0);
    expect(Object.keys(data!.facets)).toEqual(['address_city', 'rooms']);
    for (const bucket of data!.facets.address_city!) expect(bucket.count).toBeGreaterThan(0);
    expect(data!.stats.price!.count).toBeLessThanOrEqual(data!.total);

    const all = await estate.POST('/api/v1/offers/facets', { body: { facets: ['address_city'], stats: ['price'] } });
    const cities = all.data!.facets.address_city!;
    expect(cities.reduce((n, b) => n + b.count, 0)).toBe(all.data!.total);
    expect(typeof all.data!.stats.price!.min).toBe('number');
  });

  it('POST /api/v1/investments/{investment_id}/offers/facets (extension); a typed 404', async () => {
    const { data } = await estate.POST('/api/v1/investments/{investment_id}/offers/facets', {
      params: { path: { investment_id: INVESTMENT.zielone } },
      body: { facets: ['rooms'], stats: ['price'] },
    });
    expectTypeOf(data).toEqualTypeOf<FacetsResponse | undefined>();
    const list = await estate.POST('/api/v1/investments/{investment_id}/offers', {
      params: { path: { investment_id: INVESTMENT.zielone } },
      body: { pagination: {} },
    });
    expect(data!.total).toBe(list.data!.total);

    const missing = await estate.POST('/api/v1/investments/{investment_id}/offers/facets', {
      params: { path: { investment_id: uid('eeee', 1) } },
      body: { facets: ['rooms'] },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toEqual({ detail: 'Investment not found' });
  });

  it('GET /api/v1/offers/{offer_id}/similar (extension): neighbours with scores and sparse fields', async () => {
    const { data } = await estate.GET('/api/v1/offers/{offer_id}/similar', {
      params: { path: { offer_id: OFFER.krakowFull }, query: { size: 3, fields: ['title,price'] } },
    });
    expectTypeOf(data).toEqualTypeOf<SimilarOffersResponse | undefined>();
    expect(data!.size).toBe(3);
    expect(data!.items.length).toBeGreaterThan(0);
    for (const item of data!.items) {
      expect(item.offer_id).not.toBe(OFFER.krakowFull);
      expect(Object.keys(item.offer_data)).toEqual(['price', 'title']);
    }
    const missing = await estate.GET('/api/v1/offers/{offer_id}/similar', { params: { path: { offer_id: OFFER.otherOrg } } });
    expect(missing.response.status).toBe(404);
  });

  it('POST /api/v1/offers/clusters and under an investment (extension): map clusters adding up to the list total', async () => {
    const bbox = { south: 49, west: 14, north: 55, east: 24.5 };
    const { data } = await estate.POST('/api/v1/offers/clusters', { body: { bbox, zoom: 6 } });
    expectTypeOf(data).toEqualTypeOf<ClustersResponse | undefined>();
    const list = await estate.POST('/api/v1/offers', {
      body: { pagination: { size: 1 }, filters: [{ field: 'location', operator: 'within_bbox', value: bbox }] },
    });
    expect(data!.total).toBe(list.data!.total);
    expect(data!.clusters.reduce((n, c) => n + c.count, 0)).toBe(data!.total);
    const one = await estate.POST('/api/v1/investments/{investment_id}/offers/clusters', {
      params: { path: { investment_id: INVESTMENT.zielone } },
      body: { bbox, zoom: 12 },
    });
    expect(one.data!.total).toBeLessThanOrEqual(data!.total);
    const missing = await estate.POST('/api/v1/investments/{investment_id}/offers/clusters', {
      params: { path: { investment_id: uid('eeee', 1) } },
      body: { bbox, zoom: 12 },
    });
    expect(missing.response.status).toBe(404);
  });

  it('GET /api/v1/meta/offers (extension): the field catalogue', async () => {
    const { data } = await estate.GET('/api/v1/meta/offers');
    expectTypeOf(data).toEqualTypeOf<FieldCatalogue | undefined>();
    const price = data!.fields.find((f) => f.name === 'price');
    expect(price).toMatchObject({ type: 'number', sortable: true });
    expect(data!.includes).toEqual(['agent', 'branch', 'organization', 'investment']);
    expect(data!.sort_fields).toContain('distance');
  });

  it('GET /api/v1/changes (extension): the change feed, page by page', async () => {
    const first = await estate.GET('/api/v1/changes', { params: { query: { limit: 2 } } });
    expectTypeOf(first.data).toEqualTypeOf<ChangeFeed | undefined>();
    expect(first.data!.changes).toHaveLength(2);
    expect(first.data!.has_more).toBe(true);
    const next = await estate.GET('/api/v1/changes', { params: { query: { since: first.data!.next_cursor, limit: 1000 } } });
    const all = [...first.data!.changes, ...next.data!.changes];
    expect(all.map((c) => c.op)).not.toContain('delete');
    expect(all.filter((c) => c.kind === 'organization').map((c) => c.id)).toEqual([ORG_A]);
    expect(new Set(all.map((c) => c.cursor)).size).toBe(all.length);
    const bad = await estate.GET('/api/v1/changes', { params: { query: { since: 'not a cursor' } } });
    expect(bad.response.status).toBe(422);
  });

  it('GET /api/v1/slugs/{kind}/{slug} (extension): an offer by its slug', async () => {
    const { data } = await estate.GET('/api/v1/slugs/{kind}/{slug}', {
      params: { path: { kind: 'offer', slug: 'dwupokojowe-mieszkanie-z-balkonem-krakow' } },
    });
    expectTypeOf(data).toEqualTypeOf<Slug | undefined>();
    expect(data).toEqual({ kind: 'offer', id: OFFER.krakowFull, slug: 'dwupokojowe-mieszkanie-z-balkonem-krakow' });
    const missing = await estate.GET('/api/v1/slugs/{kind}/{slug}', { params: { path: { kind: 'investment', slug: 'nowhere' } } });
    expect(missing.error).toEqual({ detail: 'Slug not found' });
  });

  it('GET /api/v1/offers/{offer_id}/structured-data (extension): schema.org JSON-LD', async () => {
    const { data, response } = await estate.GET('/api/v1/offers/{offer_id}/structured-data', { params: { path: { offer_id: OFFER.krakowFull } } });
    expect(response.headers.get('content-type')).toBe('application/ld+json; charset=utf-8');
    expect(data).toMatchObject({ '@context': 'https://schema.org', '@type': 'RealEstateListing', offers: { '@type': 'Offer' } });
  });

  it('GET /api/v1/sitemap.xml (extension): the sitemap, as text', async () => {
    const { data, response } = await estate.GET('/api/v1/sitemap.xml', { parseAs: 'text' });
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(data).toContain('<loc>https://wawel.example.com/oferta/dwupokojowe-mieszkanie-z-balkonem-krakow</loc>');
    const past = await estate.GET('/api/v1/sitemap.xml', { params: { query: { page: 2 } } });
    expect(past.error).toEqual({ detail: 'Sitemap page not found' });
  });
});

describe('photos (extension E11)', () => {
  it('GET /api/v1/offers/{offer_id}/photos, then a variant URL it lists (public, no key)', async () => {
    // The last test of the file that reads offers: the Gdańsk offer gets a photo of the local origin.
    const url = photoOrigin.url('/p.jpg');
    await sql`update offers set offer_data = jsonb_set(offer_data, '{photos_urls}', ${JSON.stringify([url])}::jsonb),
      offer_data_json = jsonb_set(offer_data, '{photos_urls}', ${JSON.stringify([url])}::jsonb)::text
      where offer_id = ${OFFER.gdansk}`.execute(t.db.db);
    let data: OfferPhotos | undefined;
    for (let i = 0; i < 400; i += 1) {
      const answer = await estate.GET('/api/v1/offers/{offer_id}/photos', { params: { path: { offer_id: OFFER.gdansk } } });
      expectTypeOf(answer.data).toEqualTypeOf<OfferPhotos | undefined>();
      data = answer.data;
      if (data?.photos[0]?.status === 'ready') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const photo = data!.photos[0]!;
    expect(photo).toMatchObject({ kind: 'photo', index: 0, source_url: url, status: 'ready', width: 400, height: 300 });
    const variant = photo.variants.find((v) => v.format === 'webp' && v.width === 320)!;
    expect(variant.url.startsWith(baseUrl)).toBe(true);
    const parts = new URL(variant.url).pathname.split('/');
    const image = await estate.GET('/images/{offer_id}/{photo}/{hash}/{signature}/{file}', {
      params: { path: { offer_id: parts[2]!, photo: parts[3]!, hash: parts[4]!, signature: parts[5]!, file: parts[6]! } },
      parseAs: 'arrayBuffer',
    });
    expect(image.response.status).toBe(200);
    expect(image.response.headers.get('content-type')).toBe('image/webp');
    expect((await sharp(Buffer.from(image.data as ArrayBuffer)).metadata()).width).toBe(320);
    // As an <img> asks for it: no key at all.
    const plain = await fetch(variant.url);
    expect(plain.status).toBe(200);
    expect(Buffer.from(await plain.arrayBuffer()).equals(Buffer.from(image.data as ArrayBuffer))).toBe(true);
    const missing = await estate.GET('/api/v1/offers/{offer_id}/photos', { params: { path: { offer_id: uid('dead', 1) } } });
    expect(missing.error).toEqual({ detail: 'Offer not found' });
  });
});

describe('prices (extension E10)', () => {
  it('GET /api/v1/offers/{offer_id}/price-history, and the public price-transparency files (no key)', async () => {
    // The fixture is inserted without the import: give one offer a history as an import would, and
    // turn the organization's dataset on.
    const since = new Date(Date.now() - 3 * 86_400_000);
    await sql`insert into offer_prices (offer_id, organization_id, valid_from, price, price_per_meter, price_currency, ancillary)
      values (${OFFER.krakowFull}, ${ORG_A}, ${since.toISOString()}, 850000, 15454.55, 'PLN', '[]'::jsonb)`.execute(t.db.db);
    await enableDataset(t.db.db, ORG_A, 'https://ceny.example.pl');

    const history = await estate.GET('/api/v1/offers/{offer_id}/price-history', { params: { path: { offer_id: OFFER.krakowFull } } });
    expectTypeOf(history.data).toEqualTypeOf<PriceHistory | undefined>();
    expect(history.data).toEqual({
      offer_id: OFFER.krakowFull,
      items: [{ valid_from: expect.any(String), price: 850000, price_per_meter: 15454.55, price_currency: 'PLN', ancillary: [] }],
    });
    expect(Date.parse(history.data!.items[0]!.valid_from)).toBe(since.getTime());
    const missing = await estate.GET('/api/v1/offers/{offer_id}/price-history', { params: { path: { offer_id: uid('dead', 1) } } });
    expect(missing.error).toEqual({ detail: 'Offer not found' });

    // The open-data paths need no key: a client without one reads them.
    const open = track(createEstateClient({ baseUrl, apiKey: 'unused-by-public-paths' }));
    const organization = { organization_id: ORG_A };
    const today = await open.GET('/open-data/{organization_id}/prices.csv', { params: { path: organization }, parseAs: 'text' });
    expect(today.response.status).toBe(200);
    expect(today.response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect((today.data as string).split('\r\n')[0]).toContain('Nazwa dewelopera');
    const day = warsawDay(since);
    const past = await open.GET('/open-data/{organization_id}/prices/{file}', { params: { path: { ...organization, file: `${day}.csv` } }, parseAs: 'text' });
    expect(past.response.status).toBe(200);
    const xml = await open.GET('/open-data/{organization_id}/dataset.xml', { params: { path: organization }, parseAs: 'text' });
    expect(xml.data as string).toContain('urn:otwarte-dane:harvester:1.13');
    const md5 = await open.GET('/open-data/{organization_id}/dataset.xml.md5', { params: { path: organization }, parseAs: 'text' });
    expect((md5.data as string).trim()).toBe(createHash('md5').update(xml.data as string).digest('hex'));
    const other = await open.GET('/open-data/{organization_id}/prices.csv', { params: { path: { organization_id: ORG_B } }, parseAs: 'text' });
    expect(other.response.status).toBe(404);
  });
});

describe('coverage', () => {
  it('called every operation of the live /openapi.json through the client', async () => {
    const res = await fetch(new URL('/openapi.json', baseUrl));
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`));
    const uncovered = documented.filter((op) => !covered.has(op)).sort();
    const unknown = [...covered].filter((op) => !documented.includes(op)).sort();
    expect(uncovered, `operations of /openapi.json without a client test in test/client/client.test.ts:\n  ${uncovered.join('\n  ')}`).toEqual([]);
    expect(unknown, 'operations called through the client that /openapi.json does not list').toEqual([]);
  });
});
