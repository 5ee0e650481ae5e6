/**
 * Translations (extension E12) through the import and the API: `lang` serves the translated title
 * and description field by field (description_clean_text following description), with
 * Content-Language; without `lang` every answer is byte for byte the one of the same import
 * without translations, whatever Accept-Language says, and carries no Content-Language; the
 * response cache keeps the two apart; a bad tag is a 422; search with `lang` matches translated
 * words; the field catalogue lists the languages; the import reports bad tags and unknown fields;
 * a translation change is a change (version, change feed). Runs on PGlite, and on PostgreSQL with
 * TEST_DATABASE_URL.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, get, post, type TestApp } from '../../helpers/app.js';
import { importAndSee, problemsOf, resetDatabase, smallBundle, type Bundle } from '../../import/helpers.js';

const KEY = 'ecs_translation_test_key_0123456789abcdefghij';

/** A small bundle whose website has KEY; the first offer and the investment have translations when asked. */
function bundle(translated: boolean) {
  const { bundle, ids } = smallBundle({});
  bundle.websites![0]!.api_keys = [{ key: KEY, is_active: true }];
  if (translated) {
    bundle.offers![0]!.translations = {
      en: { title: 'Sunny flat with a balcony', description: '<p>Bright <b>flat</b> near the park</p>' },
      uk: { title: 'Сонячна квартира' },
    };
    bundle.offers![1]!.translations = { en: { description: '<p>Quiet street</p>' } };
    bundle.investments![0]!.translations = { en: { name: 'Green Estate' } };
  }
  return { bundle, ids };
}

/** The same ids, with and without translations. */
function pair() {
  const a = bundle(true);
  const b = smallBundle(a.ids).bundle;
  b.websites![0]!.api_keys = [{ key: KEY, is_active: true }];
  return { translated: a.bundle, plain: b, ids: a.ids };
}

const LIST = { pagination: { page: 1, size: 10 } };

for (const cache of ['on', 'off'] as const) {
  describe(`translations served with lang (response cache ${cache})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp({ seed: false, env: { RESPONSE_CACHE: cache } });
    });
    afterAll(() => t.destroy());
    beforeEach(() => resetDatabase(t.db.db));

    it('without lang, every answer is byte for byte the untranslated import\'s, whatever Accept-Language says', async () => {
      const { translated, plain, ids } = pair();
      const requests = async () => {
        const headers = { 'accept-language': 'en-GB,en;q=0.9' };
        const answers = [
          await get(t, `/api/v1/offers/${ids.offers[0]}`, { key: KEY, headers }),
          await get(t, `/api/v1/offers/${ids.offers[0]}?include=investment`, { key: KEY, headers: { ...headers, accept: 'application/xml' } }),
          await post(t, '/api/v1/offers', LIST, { key: KEY, headers }),
          await post(t, `/api/v1/investments/${ids.investment}/offers`, LIST, { key: KEY, headers }),
          await get(t, '/api/v1/investments', { key: KEY, headers }),
          await get(t, `/api/v1/investments/${ids.investment}`, { key: KEY, headers }),
        ];
        for (const res of answers) {
          expect(res.statusCode, res.body).toBe(200);
          expect(res.headers['content-language']).toBeUndefined();
        }
        return answers.map((res) => res.body);
      };
      await importAndSee(t, plain);
      const before = await requests();
      // The row times differ between imports: the same rows are written with the translations.
      await importAndSee(t, translated);
      await sql`update offers set updated_at = '2025-01-01T00:00:00Z', version = 1`.execute(t.db.db);
      await importAndSee(t, plain);
      await sql`update offers set updated_at = '2025-01-01T00:00:00Z', version = 1`.execute(t.db.db);
      const plainAgain = await requests();
      await importAndSee(t, translated);
      await sql`update offers set updated_at = '2025-01-01T00:00:00Z', version = 1`.execute(t.db.db);
      await t.app.contentVersion.refresh();
      expect(await requests()).toEqual(plainAgain);
      expect(before.length).toBe(plainAgain.length);
    });

    it('serves the translated fields field by field, with Content-Language', async () => {
      const { translated, ids } = pair();
      await importAndSee(t, translated);
      const original = (await get(t, `/api/v1/offers/${ids.offers[0]}`, { key: KEY })).json();

      const en = await get(t, `/api/v1/offers/${ids.offers[0]}?lang=en`, { key: KEY });
      expect(en.statusCode, en.body).toBe(200);
      expect(en.headers['content-language']).toBe('en');
      const data = en.json().offer_data;
      expect(data.title).toBe('Sunny flat with a balcony');
      expect(data.description).toBe('<p>Bright <b>flat</b> near the park</p>');
      expect(data.description_clean_text).toBe('Bright flat near the park');
      // Every other field, and the key order, are the original's.
      expect(Object.keys(data)).toEqual(Object.keys(original.offer_data));
      expect({ ...data, title: 0, description: 0, description_clean_text: 0 }).toEqual({ ...original.offer_data, title: 0, description: 0, description_clean_text: 0 });

      // Ukrainian has a title only: the description falls back to the original.
      const uk = (await get(t, `/api/v1/offers/${ids.offers[0]}?lang=UK`, { key: KEY }));
      expect(uk.headers['content-language']).toBe('uk');
      expect(uk.json().offer_data.title).toBe('Сонячна квартира');
      expect(uk.json().offer_data.description).toBe(original.offer_data.description);
      expect(uk.json().offer_data.description_clean_text).toBe(original.offer_data.description_clean_text);

      // No translation into German: the original, said to be Polish.
      const de = await get(t, `/api/v1/offers/${ids.offers[0]}?lang=de`, { key: KEY });
      expect(de.headers['content-language']).toBe('pl');
      expect(de.json()).toEqual(original);

      // Sparse fields with lang; XML follows JSON; the included investment is translated too.
      const sparse = await get(t, `/api/v1/offers/${ids.offers[0]}?lang=en&fields=price,title`, { key: KEY });
      expect(sparse.json().offer_data).toEqual({ price: original.offer_data.price, title: 'Sunny flat with a balcony' });
      const xml = await get(t, `/api/v1/offers/${ids.offers[0]}?lang=en&include=investment`, { key: KEY, headers: { accept: 'application/xml' } });
      expect(xml.headers['content-language']).toBe('en');
      expect(xml.body).toContain('<title>Sunny flat with a balcony</title>');
      expect(xml.body).toContain('<name>Green Estate</name>');

      // The lists: in the body; an offer without a translation keeps its original.
      const page = await post(t, '/api/v1/offers', { ...LIST, lang: 'en', sorting: { field: 'external_id', direction: 'asc' } }, { key: KEY });
      expect(page.statusCode, page.body).toBe(200);
      expect(page.headers['content-language']).toBe('en');
      const items = page.json().items as Array<{ offer_id: string; offer_data: Record<string, unknown> }>;
      const byId = new Map(items.map((item) => [item.offer_id, item.offer_data]));
      expect(byId.get(ids.offers[0]!)!.title).toBe('Sunny flat with a balcony');
      expect(byId.get(ids.offers[1]!)!.title).toBe('Offer 1');
      expect(byId.get(ids.offers[1]!)!.description_clean_text).toBe('Quiet street');
      expect(byId.get(ids.offers[2]!)!.description).toBe('<p>Offer <b>2</b> &amp; more</p>');
      const sparsePage = await post(t, '/api/v1/offers', { ...LIST, lang: 'en', fields: ['title'] }, { key: KEY });
      expect((sparsePage.json().items as Array<{ offer_data: { title: string } }>).map((i) => i.offer_data.title).sort()).toEqual(['Offer 1', 'Offer 2', 'Sunny flat with a balcony']);
      const none = await post(t, `/api/v1/investments/${ids.investment}/offers`, { ...LIST, lang: 'fr' }, { key: KEY });
      expect(none.headers['content-language']).toBe('pl');

      // Investments.
      const investment = await get(t, `/api/v1/investments/${ids.investment}?lang=en`, { key: KEY });
      expect(investment.headers['content-language']).toBe('en');
      expect(investment.json().name).toBe('Green Estate');
      const investments = await get(t, '/api/v1/investments?lang=en&is_active=true', { key: KEY });
      expect(investments.json()[0].name).toBe('Green Estate');
      expect((await get(t, '/api/v1/investments?lang=uk', { key: KEY })).headers['content-language']).toBe('pl');
    });

    it('keeps translated and original answers apart in the caches', async () => {
      const { translated, ids } = pair();
      await importAndSee(t, translated);
      const url = `/api/v1/offers/${ids.offers[0]}`;
      for (let round = 0; round < 2; round++) {
        const plain = await get(t, url, { key: KEY });
        const en = await get(t, `${url}?lang=en`, { key: KEY });
        const plainPage = await post(t, '/api/v1/offers', LIST, { key: KEY });
        const enPage = await post(t, '/api/v1/offers', { ...LIST, lang: 'en' }, { key: KEY });
        const plainXml = await get(t, url, { key: KEY, headers: { accept: 'application/xml' } });
        const enXml = await get(t, `${url}?lang=en`, { key: KEY, headers: { accept: 'application/xml' } });
        expect(plain.json().offer_data.title).toBe('Offer 0');
        expect(plain.headers['content-language']).toBeUndefined();
        expect(en.json().offer_data.title).toBe('Sunny flat with a balcony');
        expect(en.headers['content-language']).toBe('en');
        expect(plainPage.body).not.toContain('Sunny flat');
        expect(plainPage.headers['content-language']).toBeUndefined();
        expect(enPage.body).toContain('Sunny flat');
        expect(enPage.headers['content-language']).toBe('en');
        expect(plainXml.body).not.toContain('Sunny flat');
        expect(enXml.body).toContain('Sunny flat');
      }
    });

    it('serves a translation changed by a re-import at once: the translated body kept between requests belongs to the old version', async () => {
      const { translated, ids } = pair();
      await importAndSee(t, translated);
      const url = `/api/v1/offers/${ids.offers[0]}?lang=en`;
      const page = { ...LIST, lang: 'en' };
      const titleOnPage = async () =>
        ((await post(t, '/api/v1/offers', page, { key: KEY })).json().items as { offer_id: string; offer_data: { title: string } }[]).find(
          (item) => item.offer_id === ids.offers[0],
        )!.offer_data.title;
      for (let round = 0; round < 2; round++) {
        expect((await get(t, url, { key: KEY })).json().offer_data.title).toBe('Sunny flat with a balcony');
        expect(await titleOnPage()).toBe('Sunny flat with a balcony');
      }
      const renamed = structuredClone(translated);
      (renamed.offers![0]!.translations as Record<string, { title: string }>).en!.title = 'Sunny flat, new balcony';
      await importAndSee(t, renamed);
      expect((await get(t, url, { key: KEY })).json().offer_data.title).toBe('Sunny flat, new balcony');
      expect(await titleOnPage()).toBe('Sunny flat, new balcony');
      // The untranslated body is unchanged by it.
      expect((await get(t, `/api/v1/offers/${ids.offers[0]}`, { key: KEY })).json().offer_data.title).toBe('Offer 0');
    });
  });
}

describe('translations: requests, search, catalogue, import and change feed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ seed: false });
  });
  afterAll(() => t.destroy());
  beforeEach(() => resetDatabase(t.db.db));

  it('answers 422 for a lang that is not a language tag', async () => {
    const { translated, ids } = pair();
    await importAndSee(t, translated);
    const bad = await get(t, `/api/v1/offers/${ids.offers[0]}?lang=en_US`, { key: KEY });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['query', 'lang'],
          msg: "Value error, 'en_US' is not a BCP 47 language tag (such as en, uk or en-GB)",
          input: 'en_US',
          ctx: { error: {} },
        },
      ],
    });
    const body = await post(t, '/api/v1/offers', { ...LIST, lang: 'english language' }, { key: KEY });
    expect(body.statusCode).toBe(422);
    expect(body.json().detail[0].loc).toEqual(['body', 'lang']);
    expect((await post(t, '/api/v1/offers', { ...LIST, lang: 7 }, { key: KEY })).json().detail[0].type).toBe('string_type');
    expect((await get(t, '/api/v1/investments?lang=x', { key: KEY })).statusCode).toBe(422);
    expect((await get(t, `/api/v1/investments/${ids.investment}?lang=123`, { key: KEY })).statusCode).toBe(422);
  });

  it('search with lang also matches translated words (stemmed in English); without lang it does not', async () => {
    const { translated, ids } = pair();
    await importAndSee(t, translated);
    const search = async (text: string, lang?: string) => {
      const res = await post(t, '/api/v1/offers', { ...LIST, search: text, ...(lang ? { lang } : {}) }, { key: KEY });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().items as Array<{ offer_id: string }>).map((i) => i.offer_id);
    };
    expect(await search('balconies')).toEqual([]);
    expect(await search('balconies', 'en')).toEqual([ids.offers[0]]);
    expect(await search('sunny park', 'en')).toEqual([ids.offers[0]]);
    expect(await search('flat bal', 'en')).toEqual([ids.offers[0]]);
    expect(await search('quiet', 'en')).toEqual([ids.offers[1]]);
    expect(await search('balconies', 'uk')).toEqual([]);
    // Ukrainian: PostgreSQL has no configuration for it, so the words are matched as they are (lower case).
    expect(await search('сонячна', 'uk')).toEqual([ids.offers[0]]);
    // The original words still match with lang.
    expect((await search('Offer', 'en')).sort()).toEqual([...ids.offers].sort());
  });

  it('facets and map clusters count, with search and lang, the offers the list finds; lang is checked there too', async () => {
    const { translated } = pair();
    // Positions, so that the map has something to place.
    translated.offers!.forEach((offer, n) => Object.assign(offer.offer_data as Record<string, unknown>, { location_latitude: 50.06 + n / 100, location_longitude: 19.94 }));
    await importAndSee(t, translated);
    const world = { south: -90, west: -180, north: 90, east: 180 };
    for (const [search, lang] of [['balconies', 'en'], ['balconies', undefined], ['quiet', 'en'], ['сонячна', 'uk'], ['Offer', 'en']] as const) {
      const extra = { search, ...(lang ? { lang } : {}) };
      const list = await post(t, '/api/v1/offers', { ...LIST, ...extra }, { key: KEY });
      const facets = await post(t, '/api/v1/offers/facets', { ...extra, facets: ['rooms'] }, { key: KEY });
      const clusters = await post(t, '/api/v1/offers/clusters', { ...extra, bbox: world, zoom: 3 }, { key: KEY });
      const what = `${search} ${lang}`;
      expect([list.statusCode, facets.statusCode, clusters.statusCode], what).toEqual([200, 200, 200]);
      const total = list.json().total as number;
      const counted = (facets.json().facets.rooms as Array<{ count: number }>).reduce((sum, value) => sum + value.count, 0);
      expect(counted, what).toBe(total);
      expect(clusters.json().total, what).toBe(total);
      expect(clusters.headers['content-language'], what).toBeUndefined();
    }
    expect((await post(t, '/api/v1/offers', { ...LIST, search: 'balconies', lang: 'en' }, { key: KEY })).json().total).toBe(1);
    for (const path of ['/api/v1/offers/facets', '/api/v1/offers/clusters']) {
      const bad = await post(t, path, { search: 'x', lang: 'en_US', facets: ['rooms'], bbox: world, zoom: 3 }, { key: KEY });
      expect(bad.statusCode, path).toBe(422);
      expect(bad.json().detail.map((d: { loc: unknown }) => d.loc), path).toEqual([['body', 'lang']]);
    }
  });

  it('similar offers are served in the language asked for, with Content-Language; the choice does not change', async () => {
    const { translated, ids } = pair();
    await importAndSee(t, translated);
    const path = `/api/v1/offers/${ids.offers[1]}/similar`;
    const plain = await get(t, path, { key: KEY });
    const english = await get(t, `${path}?lang=en`, { key: KEY });
    const cut = await get(t, `${path}?lang=en&fields=title,description_clean_text`, { key: KEY });
    for (const res of [plain, english, cut]) expect(res.statusCode, res.body).toBe(200);
    const ids_ = (res: typeof plain) => (res.json().items as Array<{ offer_id: string; score: number }>).map((i) => `${i.offer_id} ${i.score}`);
    expect(ids_(english)).toEqual(ids_(plain));
    expect(ids_(cut)).toEqual(ids_(plain));
    expect(plain.headers['content-language']).toBeUndefined();
    expect(english.headers['content-language']).toBe('en');
    const first = (res: typeof plain) => (res.json().items as Array<{ offer_id: string; offer_data: Record<string, unknown> }>).find((i) => i.offer_id === ids.offers[0])!;
    expect(first(plain).offer_data.title).toBe('Offer 0');
    expect(first(english).offer_data.title).toBe('Sunny flat with a balcony');
    expect(first(cut).offer_data).toEqual({ title: 'Sunny flat with a balcony', description_clean_text: 'Bright flat near the park' });
    // An offer without a translation into the language: the originals, said so.
    const german = await get(t, `${path}?lang=de`, { key: KEY });
    expect(german.headers['content-language']).toBe('pl');
    expect(first(german).offer_data.title).toBe('Offer 0');
    const bad = await get(t, `${path}?lang=en_US`, { key: KEY });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail[0].loc).toEqual(['query', 'lang']);
  });

  it('the field catalogue lists the languages present', async () => {
    const { translated, plain } = pair();
    await importAndSee(t, plain);
    expect((await get(t, '/api/v1/meta/offers', { key: KEY })).json().languages).toEqual([]);
    await importAndSee(t, translated);
    expect((await get(t, '/api/v1/meta/offers', { key: KEY })).json().languages).toEqual(['en', 'uk']);
  });

  it('the import reports bad tags, tags naming one language twice and unknown fields, with did-you-mean', async () => {
    const { bundle: b } = bundle(false);
    b.offers![0]!.translations = { en_GB: { title: 'x' }, en: { descriptio: 'x' }, EN: { title: 'y' } };
    b.investments![0]!.translations = { de: { nme: 'Grün' } };
    const problems = await problemsOf(importAndSee(t, b as Bundle));
    expect(problems).toEqual(
      expect.arrayContaining([
        "record 5 investments[0].translations.de.nme: unknown field; did you mean 'name'?",
        "record 6 offers[0].translations.en.descriptio: unknown field; did you mean 'description'?",
        "record 6 offers[0].translations.en_GB: 'en_GB' is not a BCP 47 language tag (such as en, uk or en-GB)",
        "record 6 offers[0].translations.EN: names the same language as 'en'",
      ]),
    );
  });

  it('a translation change is a change of its offer or investment: a new version and a change-feed upsert', async () => {
    const { translated, plain, ids } = pair();
    await importAndSee(t, plain);
    // The feed keeps one row per entity and website: a change gives it a new seq (and an offer its version).
    const feed = async (id: string) =>
      (await sql<{ seq: string }>`select seq::text as seq from website_changes where entity_id = ${id} and op = 'upsert'`.execute(t.db.db)).rows[0]!.seq;
    const version = async (id: string) => (await sql<{ version: number }>`select version from offers where offer_id = ${id}`.execute(t.db.db)).rows[0]!.version;
    const [offerFeed, investmentFeed, offerFeed2] = [await feed(ids.offers[0]!), await feed(ids.investment), await feed(ids.offers[2]!)];
    const report = await importAndSee(t, translated);
    expect(report.counts.offers.changed).toBe(2);
    expect(report.counts.investments.changed).toBe(1);
    expect(await version(ids.offers[0]!)).toBe(2);
    expect(await version(ids.offers[2]!)).toBe(1);
    expect(report.changed).toBe(true);
    expect(report.feed.length).toBeGreaterThan(0);
    expect(BigInt(await feed(ids.offers[0]!))).toBeGreaterThan(BigInt(offerFeed));
    expect(BigInt(await feed(ids.investment))).toBeGreaterThan(BigInt(investmentFeed));
    expect(await feed(ids.offers[2]!)).toBe(offerFeed2);
    // The same translations again change nothing; tags in another spelling neither.
    const again = bundle(true);
    const same = smallBundle(ids).bundle;
    same.websites![0]!.api_keys = [{ key: KEY, is_active: true }];
    same.offers![0]!.translations = { UK: { title: 'Сонячна квартира' }, EN: (again.bundle.offers![0]!.translations as Record<string, unknown>).en };
    same.offers![1]!.translations = again.bundle.offers![1]!.translations;
    same.investments![0]!.translations = again.bundle.investments![0]!.translations;
    const unchanged = await importAndSee(t, same);
    expect(unchanged.counts.offers.changed).toBe(0);
    expect(unchanged.counts.investments.changed).toBe(0);
    expect(await version(ids.offers[0]!)).toBe(2);
  });
});
