/**
 * URL templates and the sitemap (extension E12): templates from the command line's function and
 * from the bundle (absent keeps them, null clears them), GET /api/v1/sitemap.xml valid against the
 * sitemaps.org schemas (test/fixtures/sitemaps, checked with xmllint-wasm), an index with parts
 * past the page size (SITEMAP_PAGE_SIZE, small here), and complete: over random catalogues and
 * scopes, the addresses of every part are exactly the active offers and investments the key sees.
 */
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { validateXML } from 'xmllint-wasm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setWebsiteUrls, UrlTemplateError } from '../../../src/features/seo/write.js';
import { buildTestApp, get, type TestApp } from '../../helpers/app.js';
import { scaled } from '../../helpers/scale.js';
import { importAndSee, resetDatabase, smallBundle } from '../../import/helpers.js';

const KEY = 'ecs_sitemap_test_key_0123456789abcdefghijkl';
const PAGE_SIZE = 3;
const SITEMAP_RUNS = scaled('SITEMAP_RUNS', 6, 40);
const SITEMAP_XSD = fs.readFileSync(new URL('../../fixtures/sitemaps/sitemap.xsd', import.meta.url), 'utf8');
const SITEINDEX_XSD = fs.readFileSync(new URL('../../fixtures/sitemaps/siteindex.xsd', import.meta.url), 'utf8');
const OFFER_URL = 'https://www.agency.pl/oferta/{slug}?from=sitemap&x=1';
const INVESTMENT_URL = 'https://www.agency.pl/inwestycja/{slug}';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ seed: false, env: { SITEMAP_PAGE_SIZE: String(PAGE_SIZE) } });
});
afterAll(() => t.destroy());
beforeEach(() => resetDatabase(t.db.db));

async function valid(xml: string, xsd: string): Promise<void> {
  const result = await validateXML({ xml: [{ fileName: 'answer.xml', contents: xml }], schema: [{ fileName: 'schema.xsd', contents: xsd }] });
  expect(result.errors, xml.slice(0, 500)).toEqual([]);
  expect(result.valid).toBe(true);
}

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));

/** Every address of the sitemap, part by part, each part and the index checked against the schemas. */
async function sitemapAddresses(key = KEY): Promise<{ addresses: string[]; lastmods: string[]; parts: number }> {
  const first = await get(t, '/api/v1/sitemap.xml', { key });
  expect(first.statusCode, first.body).toBe(200);
  expect(first.headers['content-type']).toBe('application/xml; charset=utf-8');
  if (first.body.includes('<urlset')) {
    await valid(first.body, SITEMAP_XSD);
    return { addresses: locs(first.body), lastmods: [...first.body.matchAll(/<lastmod>([^<]*)</g)].map((m) => m[1]!), parts: 1 };
  }
  await valid(first.body, SITEINDEX_XSD);
  const partUrls = locs(first.body);
  const addresses: string[] = [];
  const lastmods: string[] = [];
  for (const [n, url] of partUrls.entries()) {
    expect(url).toBe(`http://localhost:80/api/v1/sitemap.xml?page=${n + 1}`);
    const part = await get(t, `/api/v1/sitemap.xml?page=${n + 1}`, { key });
    expect(part.statusCode).toBe(200);
    await valid(part.body, SITEMAP_XSD);
    const here = locs(part.body);
    expect(here.length).toBeLessThanOrEqual(PAGE_SIZE);
    expect(here.length).toBeGreaterThan(0);
    addresses.push(...here);
    lastmods.push(...[...part.body.matchAll(/<lastmod>([^<]*)</g)].map((m) => m[1]!));
  }
  return { addresses, lastmods, parts: partUrls.length };
}

function siteBundle() {
  const { bundle, ids } = smallBundle({ offers: Array.from({ length: 5 }, () => randomUUID()) });
  bundle.websites![0]!.api_keys = [{ key: KEY, is_active: true }];
  return { bundle, ids };
}

describe('URL templates', () => {
  it('are refused unless an http(s) address with {slug}; set, kept and cleared', async () => {
    const { bundle, ids } = siteBundle();
    await importAndSee(t, bundle);
    for (const bad of ['https://www.agency.pl/oferta/', 'ftp://agency.pl/{slug}', 'https://agency.pl/{slug}/{slug}', 'https://agency .pl/{slug}']) {
      await expect(setWebsiteUrls(t.db.db, ids.website, { offer: bad })).rejects.toThrow(UrlTemplateError);
    }
    await expect(setWebsiteUrls(t.db.db, randomUUID(), { offer: OFFER_URL })).rejects.toThrow(/unknown website/);
    expect(await setWebsiteUrls(t.db.db, ids.website, { offer: OFFER_URL })).toEqual({ urls: { offer: OFFER_URL }, changed: true });
    expect(await setWebsiteUrls(t.db.db, ids.website, { investment: INVESTMENT_URL })).toEqual({
      urls: { offer: OFFER_URL, investment: INVESTMENT_URL },
      changed: true,
    });
    expect((await setWebsiteUrls(t.db.db, ids.website, {})).changed).toBe(false);
    // A bundle without `urls` keeps them; with `urls` it sets them; null clears them.
    await importAndSee(t, bundle);
    expect((await setWebsiteUrls(t.db.db, ids.website, {})).urls).toEqual({ offer: OFFER_URL, investment: INVESTMENT_URL });
    bundle.websites![0]!.urls = { offer: 'https://other.pl/o/{slug}' };
    await importAndSee(t, bundle);
    expect((await setWebsiteUrls(t.db.db, ids.website, {})).urls).toEqual({ offer: 'https://other.pl/o/{slug}' });
    bundle.websites![0]!.urls = null;
    await importAndSee(t, bundle);
    expect((await setWebsiteUrls(t.db.db, ids.website, {})).urls).toBeNull();
    expect(await setWebsiteUrls(t.db.db, ids.website, null)).toEqual({ urls: null, changed: false });
  });
});

describe('GET /api/v1/sitemap.xml', () => {
  it('answers 409 naming the command while the website has no templates', async () => {
    const { bundle } = siteBundle();
    await importAndSee(t, bundle);
    const res = await get(t, '/api/v1/sitemap.xml', { key: KEY });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toContain('websites urls --website');
  });

  it('is one schema-valid urlset up to the page size, an index with parts beyond it; a page past the end is 404', async () => {
    const { bundle, ids } = siteBundle();
    bundle.offers = bundle.offers!.slice(0, 2);
    bundle.websites![0]!.urls = { offer: OFFER_URL };
    await importAndSee(t, bundle);
    const small = await sitemapAddresses();
    expect(small.parts).toBe(1);
    const slugs = await sql<{ slug: string; lastmod: string }>`
      select slug, to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') as lastmod
      from offers where organization_id = ${ids.org} order by offer_id`.execute(t.db.db);
    expect(small.addresses).toEqual(slugs.rows.map((r) => OFFER_URL.replace('{slug}', r.slug)));
    expect(small.lastmods).toEqual(slugs.rows.map((r) => r.lastmod));
    expect((await get(t, '/api/v1/sitemap.xml?page=1', { key: KEY })).body).toContain('<urlset');
    expect((await get(t, '/api/v1/sitemap.xml?page=2', { key: KEY })).json()).toEqual({ detail: 'Sitemap page not found' });
    expect((await get(t, '/api/v1/sitemap.xml?page=0', { key: KEY })).statusCode).toBe(422);

    const { bundle: big } = siteBundle();
    big.websites![0]!.api_keys = [];
    await importAndSee(t, big); // another organization: not in this website's sitemap
    bundle.offers = [...bundle.offers!, ...siteBundle().bundle.offers!.map((o, n) => ({ ...o, organization_id: ids.org, offer_id: randomUUID(), external_id: `B-${n}`, agent_id: null, branch_id: null, investment_id: null }))];
    bundle.websites![0]!.urls = { offer: OFFER_URL, investment: INVESTMENT_URL };
    await importAndSee(t, bundle);
    const parted = await sitemapAddresses();
    expect(parted.parts).toBe(3); // 2 + 5 offers, 1 investment
    expect(parted.addresses).toHaveLength(8);
    expect(parted.addresses.at(-1)).toBe('https://www.agency.pl/inwestycja/osiedle');
    expect((await get(t, '/api/v1/sitemap.xml?page=4', { key: KEY })).statusCode).toBe(404);
  });

  it('lists exactly the active offers and investments the key sees (random catalogues and scopes)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ active: fc.boolean(), investment: fc.integer({ min: -1, max: 2 }), rental: fc.boolean() }), { maxLength: 9 }),
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        fc.option(fc.record({ investments: fc.subarray([0, 1, 2], { minLength: 1 }), rentals: fc.boolean() }), { nil: undefined }),
        fc.boolean(),
        async (offers, investmentsActive, scope, withInvestmentTemplate) => {
          await resetDatabase(t.db.db);
          const { bundle, ids } = siteBundle();
          const investmentIds = [ids.investment, randomUUID(), randomUUID()];
          bundle.investments = investmentIds.map((id, n) => ({ investment_id: id, organization_id: ids.org, name: `Osiedle ${n}`, is_active: investmentsActive[n] }));
          bundle.offers = offers.map((o, n) => {
            const record = smallBundle().bundle.offers![0]!;
            (record.offer_data as Record<string, unknown>).offer_type = o.rental ? 'APARTMENT_RENTALS' : 'APARTMENT_SALES';
            return { ...record, offer_id: randomUUID(), organization_id: ids.org, external_id: `E-${n}`, agent_id: null, branch_id: null, is_active: o.active, investment_id: o.investment < 0 ? null : investmentIds[o.investment] };
          });
          bundle.websites![0]!.urls = withInvestmentTemplate ? { offer: OFFER_URL, investment: INVESTMENT_URL } : { offer: OFFER_URL };
          bundle.websites![0]!.scope = scope
            ? { investment_ids: scope.investments.map((n) => investmentIds[n]!), ...(scope.rentals ? { offer_types: ['APARTMENT_RENTALS'] } : {}) }
            : null;
          await importAndSee(t, bundle);
          // The visible set, by the rule, from the bundle itself.
          const seenOffers = bundle.offers.filter((o, n) => {
            if (!offers[n]!.active) return false;
            if (!scope) return true;
            return offers[n]!.investment >= 0 && scope.investments.includes(offers[n]!.investment) && (!scope.rentals || offers[n]!.rental);
          });
          const seenInvestments = withInvestmentTemplate
            ? investmentIds.filter((_, n) => investmentsActive[n] && (!scope || scope.investments.includes(n)))
            : [];
          const slug = async (table: 'offers' | 'investments', id: string) =>
            (await sql<{ slug: string }>`select slug from ${sql.table(table)} where ${sql.ref(table === 'offers' ? 'offer_id' : 'investment_id')} = ${id}`.execute(t.db.db)).rows[0]!.slug;
          const expected = [
            ...(await Promise.all(seenOffers.map(async (o) => OFFER_URL.replace('{slug}', await slug('offers', o.offer_id as string))))),
            ...(await Promise.all(seenInvestments.map(async (id) => INVESTMENT_URL.replace('{slug}', await slug('investments', id))))),
          ];
          if (expected.length === 0) {
            // An empty sitemap is an empty urlset (the schema wants at least one <url>: nothing to validate).
            const res = await get(t, '/api/v1/sitemap.xml', { key: KEY });
            expect(res.body).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n</urlset>\n');
            return;
          }
          const { addresses } = await sitemapAddresses();
          expect([...addresses].sort()).toEqual([...expected].sort());
          expect(new Set(addresses).size).toBe(addresses.length);
        },
      ),
      { numRuns: SITEMAP_RUNS },
    );
  });
});
