/**
 * The response cache, ETags / 304, Cache-Control and Vary, and compression, on the real database
 * (PGlite, or PostgreSQL with TEST_DATABASE_URL). A row changed directly in the database (without
 * a content version bump) shows whether an answer came from the cache: a cached answer still has
 * the old value, a computed one has the new.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, get, post, type TestApp } from '../helpers/app.js';
import { KEYS, OFFER, ORG_A } from '../helpers/fixtures.js';

/** Headers that must be the same on two answers to the same request (Date is not). */
function stableHeaders(res: LightMyRequestResponse): Record<string, unknown> {
  // The request id is per request, like the date (test/http/request-log.test.ts).
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, 'x-request-id': _requestId, ...rest } = res.headers;
  return rest;
}

const varyOf = (res: LightMyRequestResponse) => String(res.headers.vary ?? '').split(/\s*,\s*/).filter(Boolean);

async function setExternalId(t: TestApp, offerId: string, externalId: string): Promise<void> {
  await t.db.db.updateTable('offers').set({ external_id: externalId }).where('offer_id', '=', offerId).execute();
}

async function bumpContentVersion(t: TestApp): Promise<void> {
  await sql`update content_state set content_version = content_version + 1`.execute(t.db.db);
}

/** Polls until check() passes (the content version is polled every CONTENT_POLL_MS); fails after a deadline. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await sleep(25);
  }
}

const offerUrl = `/api/v1/offers/${OFFER.krakowFull}`;
const listBody = { pagination: { size: 2 }, sorting: { field: 'price', direction: 'asc' } };

describe('response cache on', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { RESPONSE_CACHE: 'on', CONTENT_POLL_MS: '50' } });
  });
  afterAll(() => t.destroy());

  it('answers a repeated GET with the identical bytes and headers, from memory', async () => {
    const first = await get(t, offerUrl);
    expect(first.statusCode).toBe(200);
    await setExternalId(t, OFFER.krakowFull, 'CHANGED-WITHOUT-BUMP');
    const second = await get(t, offerUrl);
    expect(second.statusCode).toBe(200);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(stableHeaders(second)).toEqual(stableHeaders(first));
    expect(second.body).not.toContain('CHANGED-WITHOUT-BUMP');
  });

  it('answers a repeated POST with the identical bytes, keyed by the body bytes', async () => {
    const first = await post(t, '/api/v1/offers', listBody);
    expect(first.statusCode).toBe(200);
    await setExternalId(t, OFFER.krakowCheap, 'CHEAP-CHANGED');
    const second = await post(t, '/api/v1/offers', listBody);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(stableHeaders(second)).toEqual(stableHeaders(first));
    // Another body (even the same query written differently) is another entry.
    const other = await post(t, '/api/v1/offers', JSON.stringify(listBody, null, 1));
    expect(other.statusCode).toBe(200);
    expect(other.body).toContain('CHEAP-CHANGED');
  });

  it('drops every entry within the poll interval when the content version changes', async () => {
    await setExternalId(t, OFFER.krakowFull, 'AFTER-BUMP');
    await bumpContentVersion(t);
    await eventually(async () => (await get(t, offerUrl)).body.includes('AFTER-BUMP'), 'the bump empties the cache');
    await eventually(async () => (await post(t, '/api/v1/offers', listBody)).body.includes('CHEAP-CHANGED'), 'lists too');
  });

  it('keeps JSON and XML answers of one URL apart', async () => {
    const json = await get(t, offerUrl);
    const xml = await get(t, offerUrl, { headers: { accept: 'application/xml' } });
    expect(json.headers['content-type']).toContain('application/json');
    expect(xml.headers['content-type']).toContain('application/xml');
    const xmlAgain = await get(t, offerUrl, { headers: { accept: 'application/xml' } });
    expect(xmlAgain.rawPayload.equals(xml.rawPayload)).toBe(true);
    expect(xmlAgain.headers['content-type']).toBe(xml.headers['content-type']);
    expect(xml.headers.etag).not.toBe(json.headers.etag);
  });

  it('shares entries between the websites of one organization, never across organizations', async () => {
    const url = `/api/v1/offers/${OFFER.warszawa}`;
    const a1 = await get(t, url, { key: KEYS.activeA1 });
    expect(a1.statusCode).toBe(200);
    await setExternalId(t, OFFER.warszawa, 'SEEN-BY-A2-ONLY-IF-UNCACHED');
    // Website A2 belongs to organization A too (the contract limits answers to the organization).
    const a2 = await get(t, url, { key: KEYS.activeA2 });
    expect(a2.rawPayload.equals(a1.rawPayload)).toBe(true);
    // Organization B does not see A's offer, cached or not.
    const b = await get(t, url, { key: KEYS.activeB });
    expect(b.statusCode).toBe(404);
    expect(b.json()).toEqual({ detail: 'Offer not found' });
    // Nor A's lists or organization record.
    const aOrg = await get(t, '/api/v1/organization', { key: KEYS.activeA1 });
    const bOrg = await get(t, '/api/v1/organization', { key: KEYS.activeB });
    expect(aOrg.json().organization_id).toBe(ORG_A);
    expect(bOrg.json().organization_id).not.toBe(ORG_A);
    const aList = await post(t, '/api/v1/offers', { pagination: {} }, { key: KEYS.activeA1 });
    const bList = await post(t, '/api/v1/offers', { pagination: {} }, { key: KEYS.activeB });
    expect(bList.rawPayload.equals(aList.rawPayload)).toBe(false);
    for (const item of bList.json().items) expect(item.offer_id).not.toBe(OFFER.warszawa);
  });

  it('never answers 401 from the cache', async () => {
    expect((await get(t, '/api/v1/branches')).statusCode).toBe(200);
    for (const key of [null, KEYS.unknown, KEYS.inactiveA1, KEYS.expiredA1]) {
      const res = await get(t, '/api/v1/branches', { key });
      expect(res.statusCode).toBe(401);
      expect(res.headers.etag).toBeUndefined();
    }
    const res = await post(t, '/api/v1/offers', listBody, { key: KEYS.unknown });
    expect(res.statusCode).toBe(401);
  });

  it('does not keep errors: a 404 or 422 is computed every time', async () => {
    const missing = `/api/v1/offers/${OFFER.inactive}`;
    expect((await get(t, missing)).statusCode).toBe(404);
    await t.db.db.updateTable('offers').set({ is_active: true }).where('offer_id', '=', OFFER.inactive).execute();
    try {
      expect((await get(t, missing)).statusCode).toBe(200);
    } finally {
      await t.db.db.updateTable('offers').set({ is_active: false }).where('offer_id', '=', OFFER.inactive).execute();
      await bumpContentVersion(t);
    }
    const invalid = await post(t, '/api/v1/offers', { pagination: { size: 0 } });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.headers['cache-control']).toBeUndefined();
    expect(invalid.headers.etag).toBeUndefined();
  });

  it('revalidates from memory: If-None-Match answers 304 on a hit', async () => {
    const first = await get(t, '/api/v1/agents');
    const res = await get(t, '/api/v1/agents', { headers: { 'if-none-match': String(first.headers.etag) } });
    expect(res.statusCode).toBe(304);
    expect(res.rawPayload.length).toBe(0);
    expect(res.headers.etag).toBe(first.headers.etag);
  });
});

describe('ETags and 304', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { RESPONSE_CACHE: 'on', CONTENT_POLL_MS: '50' } });
  });
  afterAll(() => t.destroy());

  it('gives every GET a strong ETag, Cache-Control: private, no-cache and Vary: Accept, Authorization', async () => {
    for (const url of ['/api/v1/organization', '/api/v1/branches', '/api/v1/investments', offerUrl]) {
      const res = await get(t, url);
      expect(res.statusCode).toBe(200);
      expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(varyOf(res)).toEqual(expect.arrayContaining(['Accept', 'Authorization']));
    }
  });

  it('answers 304 with no body for a matching tag, a weak form of it, a list holding it and *', async () => {
    const first = await get(t, offerUrl);
    const etag = String(first.headers.etag);
    for (const header of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const res = await get(t, offerUrl, { headers: { 'if-none-match': header } });
      expect(res.statusCode, header).toBe(304);
      expect(res.rawPayload.length).toBe(0);
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(varyOf(res)).toEqual(expect.arrayContaining(['Accept', 'Authorization']));
      expect(res.headers['content-type']).toBeUndefined();
    }
  });

  it('answers 200 with the body for a tag that does not match', async () => {
    const first = await get(t, offerUrl);
    const res = await get(t, offerUrl, { headers: { 'if-none-match': '"something-else"' } });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it('changes the ETag when the content changes', async () => {
    const before = await get(t, '/api/v1/branches');
    await t.db.db.updateTable('branches').set({ description: 'Nowy opis' }).where('organization_id', '=', ORG_A).execute();
    await bumpContentVersion(t);
    await eventually(async () => (await get(t, '/api/v1/branches')).headers.etag !== before.headers.etag, 'a new ETag');
    const stale = await get(t, '/api/v1/branches', { headers: { 'if-none-match': String(before.headers.etag) } });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toContain('Nowy opis');
  });

  it('never answers 304 to a request that would not get a 200', async () => {
    const res = await get(t, `/api/v1/offers/${OFFER.otherOrg}`, { headers: { 'if-none-match': '*' } });
    expect(res.statusCode).toBe(404);
    const unauthorized = await get(t, offerUrl, { key: null, headers: { 'if-none-match': '*' } });
    expect(unauthorized.statusCode).toBe(401);
  });

  it('gives POST lists no ETag (and If-None-Match does not apply to them)', async () => {
    const res = await post(t, '/api/v1/offers', listBody, { headers: { 'if-none-match': '*' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['cache-control']).toBe('private, no-cache');
  });
});

describe('compression', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { RESPONSE_CACHE: 'on', CONTENT_POLL_MS: '50' } });
  });
  afterAll(() => t.destroy());

  const big = () => post(t, '/api/v1/offers?include=agent,branch,organization,investment', { pagination: { size: 100 } });

  it('sends br and gzip that decompress to the identical body, and the body as it is when not asked', async () => {
    const plain = await big();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    expect(varyOf(plain)).toEqual(expect.arrayContaining(['Accept', 'Authorization', 'Accept-Encoding']));

    const br = await post(t, '/api/v1/offers?include=agent,branch,organization,investment', { pagination: { size: 100 } }, {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(varyOf(br)).toContain('Accept-Encoding');

    const gzip = await post(t, '/api/v1/offers?include=agent,branch,organization,investment', { pagination: { size: 100 } }, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).equals(plain.rawPayload)).toBe(true);
  });

  it('honours q-values: br preferred on a tie, gzip when it ranks higher, nothing when both are refused', async () => {
    const enc = async (acceptEncoding: string) =>
      (await get(t, offerUrl, { headers: { 'accept-encoding': acceptEncoding } })).headers['content-encoding'];
    expect(await enc('gzip, br')).toBe('br');
    expect(await enc('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(await enc('br;q=0, gzip')).toBe('gzip');
    expect(await enc('*')).toBe('br');
    expect(await enc('br;q=0, gzip;q=0')).toBeUndefined();
    expect(await enc('identity')).toBeUndefined();
    expect(await enc('deflate')).toBeUndefined();
  });

  it('gives a compressed GET its own ETag, which revalidates too', async () => {
    const plain = await get(t, offerUrl);
    const br = await get(t, offerUrl, { headers: { 'accept-encoding': 'br' } });
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    const revalidated = await get(t, offerUrl, { headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) } });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers.etag).toBe(br.headers.etag);
    // A client that stored the uncompressed answer revalidates it too.
    const plainTag = await get(t, offerUrl, { headers: { 'accept-encoding': 'br', 'if-none-match': String(plain.headers.etag) } });
    expect(plainTag.statusCode).toBe(304);
  });

  it('leaves small bodies and errors uncompressed', async () => {
    const small = await get(t, '/api/v1/investments?is_active=false', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    const error = await get(t, `/api/v1/offers/${OFFER.otherOrg}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(error.statusCode).toBe(404);
    expect(error.headers['content-encoding']).toBeUndefined();
    expect(error.json()).toEqual({ detail: 'Offer not found' });
  });
});

describe('response cache off (RESPONSE_CACHE=off)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { RESPONSE_CACHE: 'off', CONTENT_POLL_MS: '50' } });
  });
  afterAll(() => t.destroy());

  it('computes every answer: a change is seen at once, without a version bump', async () => {
    const first = await get(t, offerUrl);
    expect(first.statusCode).toBe(200);
    await setExternalId(t, OFFER.krakowFull, 'SEEN-AT-ONCE');
    const second = await get(t, offerUrl);
    expect(second.body).toContain('SEEN-AT-ONCE');
    expect(second.headers.etag).not.toBe(first.headers.etag);
  });

  it('sees a change of offer_data itself at once (offer bodies are kept by row version)', async () => {
    await get(t, offerUrl);
    await post(t, '/api/v1/offers', { pagination: {} });
    await sql`update offers set offer_data_json = replace(offer_data_json, '"title":"', '"title":"NEW ') where offer_id = ${OFFER.krakowFull}`.execute(t.db.db);
    expect((await get(t, offerUrl)).json().offer_data.title).toMatch(/^NEW /);
    const page = (await post(t, '/api/v1/offers', { pagination: {} })).json();
    const item = page.items.find((i: { offer_id: string }) => i.offer_id === OFFER.krakowFull);
    expect(item.offer_data.title).toMatch(/^NEW /);
    const xml = await get(t, offerUrl, { headers: { accept: 'application/xml' } });
    expect(xml.body).toContain('<title>NEW ');
  });

  it('still gives ETags, 304 and Cache-Control', async () => {
    const first = await get(t, offerUrl);
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await get(t, offerUrl);
    expect(again.headers.etag).toBe(first.headers.etag);
    const res = await get(t, offerUrl, { headers: { 'if-none-match': String(first.headers.etag) } });
    expect(res.statusCode).toBe(304);
    expect(res.rawPayload.length).toBe(0);
  });

  it('still compresses', async () => {
    const plain = await get(t, offerUrl);
    const gz = await get(t, offerUrl, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
  });
});
