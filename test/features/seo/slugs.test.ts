/**
 * Slugs (extension E12): made by the import from the title and city (offers) or name
 * (investments), or taken from the record; kept across title changes; a new given slug replaces
 * the current one and the old one keeps resolving; a clash is a problem of its record; a slug
 * change alone is a change of its entity (version, change feed). GET /api/v1/slugs/{kind}/{slug}
 * honours the organization, the offer's activity and the website's scope; original answers do not
 * carry slugs.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, get, type TestApp } from '../../helpers/app.js';
import { importAndSee, importText, problemsOf, resetDatabase, smallBundle, toNdjson, type Bundle } from '../../import/helpers.js';

const KEY = 'ecs_slug_test_key_0123456789abcdefghijklmnop';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ seed: false });
});
afterAll(() => t.destroy());
beforeEach(() => resetDatabase(t.db.db));

/** A small bundle whose website has KEY, with Polish titles and a city. */
function bundleWithKey() {
  const { bundle, ids } = smallBundle();
  bundle.websites![0]!.api_keys = [{ key: KEY, is_active: true }];
  bundle.offers!.forEach((o, n) => {
    const data = o.offer_data as Record<string, unknown>;
    data.title = n === 2 ? 'Dom z ogrodem' : 'Przestronne mieszkanie, Łódź – Śródmieście!';
    data.address_city = 'Łódź';
  });
  return { bundle, ids };
}

const resolve = (kind: string, slug: string) => get(t, `/api/v1/slugs/${kind}/${encodeURIComponent(slug)}`, { key: KEY });
const slugOf = async (kind: 'offers' | 'investments', id: string) =>
  (
    await sql<{ slug: string }>`select slug from ${sql.table(kind)} where ${sql.ref(kind === 'offers' ? 'offer_id' : 'investment_id')} = ${id}`.execute(
      t.db.db,
    )
  ).rows[0]!.slug;

describe('slugs made by the import', () => {
  it('are made from title and city, transliterated, unique within the organization (the first in the bundle takes the plain one)', async () => {
    const { bundle, ids } = bundleWithKey();
    // The later offer of the two has the lower id: the bundle's order decides, not the id.
    const [a, b, c] = ids.offers.map((id) => id);
    const [low, high] = [a!, b!].sort();
    bundle.offers![0]!.offer_id = high!;
    bundle.offers![1]!.offer_id = low!;
    await importAndSee(t, bundle);
    expect(await slugOf('offers', high!)).toBe('przestronne-mieszkanie-lodz-srodmiescie-lodz');
    expect(await slugOf('offers', low!)).toBe(`przestronne-mieszkanie-lodz-srodmiescie-lodz-${low!.replace(/-/g, '').slice(0, 6)}`);
    expect(await slugOf('offers', c!)).toBe('dom-z-ogrodem-lodz');
    expect(await slugOf('investments', ids.investment)).toBe('osiedle');
    // Each new row is written once: the later of the two went in with its suffixed slug. The
    // three rows are the (emptied) table's first three, in the bundle's order; a row written
    // again at the end would have moved past them.
    const rows = (await sql<{ id: string; ctid: string }>`select offer_id::text as id, ctid::text as ctid from offers order by ctid`.execute(t.db.db)).rows;
    expect(rows).toEqual([
      { id: high, ctid: '(0,1)' },
      { id: low, ctid: '(0,2)' },
      { id: c, ctid: '(0,3)' },
    ]);

    const res = await resolve('offer', 'dom-z-ogrodem-lodz');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toBe(`{"kind":"offer","id":"${c}","slug":"dom-z-ogrodem-lodz"}`);
    expect((await resolve('investment', 'osiedle')).json()).toEqual({ kind: 'investment', id: ids.investment, slug: 'osiedle' });
    // The kinds are apart: an offer's slug is no investment's.
    expect((await resolve('investment', 'dom-z-ogrodem-lodz')).statusCode).toBe(404);
  });

  it('a re-import that changes nothing writes no offer row and no slug, a made slug that lost to another included', async () => {
    const { bundle } = bundleWithKey();
    await importAndSee(t, bundle);
    const state = async () => ({
      offers: (await sql<{ id: string; slug: string; version: number; xmin: string }>`
        select offer_id::text as id, slug, version, xmin::text from offers order by offer_id`.execute(t.db.db)).rows,
      slugs: (await sql<{ slug: string; id: string; xmin: string; xmax: string }>`
        select slug, entity_id::text as id, xmin::text, xmax::text from slugs order by slug`.execute(t.db.db)).rows,
    });
    const before = await state();
    // Two offers made the same slug: one of them has it with a suffix.
    expect(before.offers.filter((o) => /-[0-9a-f]{6}$/.test(o.slug))).toHaveLength(1);
    expect((await importAndSee(t, bundle)).changed).toBe(false);
    expect(await state()).toEqual(before);
  });

  it('a new offer takes a made slug that a stored offer before it in the bundle makes but does not hold', async () => {
    const { bundle, ids } = bundleWithKey();
    // The third offer holds a given slug; its title and city make 'dom-z-ogrodem-lodz', free.
    bundle.offers![2]!.slug = 'ogrod';
    await importAndSee(t, bundle);
    expect(await slugOf('offers', ids.offers[2]!)).toBe('ogrod');
    // Next day a new offer of the same title and city comes after it: the stored one keeps its
    // slug, so the made slug is the new one's, although the command wrote it suffixed first.
    delete bundle.offers![2]!.slug;
    const fresh = structuredClone(bundle.offers![2]!);
    const freshId = randomUUID();
    fresh.offer_id = freshId;
    fresh.external_id = 'fresh';
    bundle.offers!.push(fresh);
    const report = await importAndSee(t, bundle);
    expect(report.counts.offers).toMatchObject({ created: 1, changed: 0 });
    expect(await slugOf('offers', ids.offers[2]!)).toBe('ogrod');
    expect(await slugOf('offers', freshId)).toBe('dom-z-ogrodem-lodz');
    expect((await resolve('offer', 'dom-z-ogrodem-lodz')).json()).toEqual({ kind: 'offer', id: freshId, slug: 'dom-z-ogrodem-lodz' });
    const version = await sql<{ version: number }>`select version from offers where offer_id = ${freshId}`.execute(t.db.db);
    expect(version.rows[0]!.version).toBe(1);
  });

  it('an offer that waited for an investment after it in the file still counts where it stands in the file', async () => {
    const { bundle, ids } = bundleWithKey();
    // NDJSON: the first offer (it links to the investment) comes before every entity, so it is
    // written in the second pass, after the second offer, which makes the same slug.
    const lines = toNdjson(bundle).trim().split('\n');
    const first = lines.find((l) => l.includes(ids.offers[0]!))!;
    const text = [first, ...lines.filter((l) => l !== first)].join('\n') + '\n';
    // Read back through SQL only: no answer of the app (and its cache) is involved.
    await importText(t.db.db, 'waits.ndjson', text, { batchSize: 1 });
    expect(await slugOf('offers', ids.offers[0]!)).toBe('przestronne-mieszkanie-lodz-srodmiescie-lodz');
    expect(await slugOf('offers', ids.offers[1]!)).toBe(
      `przestronne-mieszkanie-lodz-srodmiescie-lodz-${ids.offers[1]!.replace(/-/g, '').slice(0, 6)}`,
    );
  });

  it('stay when the title changes; a given slug replaces it, the old one keeps resolving, and it is a change', async () => {
    const { bundle, ids } = bundleWithKey();
    await importAndSee(t, bundle);
    const id = ids.offers[2]!;
    (bundle.offers![2]!.offer_data as Record<string, unknown>).title = 'Dom z basenem';
    await importAndSee(t, bundle);
    expect(await slugOf('offers', id)).toBe('dom-z-ogrodem-lodz');

    const before = await sql<{ version: number }>`select version from offers where offer_id = ${id}`.execute(t.db.db);
    const feedBefore = await sql<{ n: number }>`select count(*)::int as n from website_changes where entity_id = ${id}`.execute(t.db.db);
    bundle.offers![2]!.slug = 'Dom z basenem — Łódź';
    const report = await importAndSee(t, bundle);
    expect(report.changed).toBe(true);
    expect(report.counts.offers.changed).toBe(1);
    expect(await slugOf('offers', id)).toBe('dom-z-basenem-lodz');
    const after = await sql<{ version: number }>`select version from offers where offer_id = ${id}`.execute(t.db.db);
    expect(after.rows[0]!.version).toBe(before.rows[0]!.version + 1);
    const feed = await sql<{ version: number }>`select version from website_changes where entity_id = ${id}`.execute(t.db.db);
    expect(feedBefore.rows[0]!.n).toBe(1);
    expect(feed.rows[0]!.version).toBe(after.rows[0]!.version);

    for (const asked of ['dom-z-ogrodem-lodz', 'dom-z-basenem-lodz']) {
      expect((await resolve('offer', asked)).json()).toEqual({ kind: 'offer', id, slug: 'dom-z-basenem-lodz' });
    }
    // The same bundle again changes nothing; leaving the slug out keeps it.
    expect((await importAndSee(t, bundle)).changed).toBe(false);
    delete bundle.offers![2]!.slug;
    expect((await importAndSee(t, bundle)).changed).toBe(false);
    expect(await slugOf('offers', id)).toBe('dom-z-basenem-lodz');
    // Its own old slug may come back.
    bundle.offers![2]!.slug = 'dom-z-ogrodem-lodz';
    await importAndSee(t, bundle);
    expect((await resolve('offer', 'dom-z-basenem-lodz')).json().slug).toBe('dom-z-ogrodem-lodz');
  });

  it('a given slug that another entity has or had, or that two records give, is a problem of its record', async () => {
    const { bundle, ids } = bundleWithKey();
    await importAndSee(t, bundle);
    const taken = await slugOf('offers', ids.offers[2]!);
    const clash: Bundle = structuredClone(bundle);
    clash.offers![0]!.slug = taken;
    expect(await problemsOf(importAndSee(t, clash))).toEqual([
      `record 6 offers[0].slug: slug '${taken}' is already used by offer ${ids.offers[2]} of the organization (slugs are never reused: old ones keep resolving)`,
    ]);
    const twice: Bundle = structuredClone(bundle);
    twice.offers![0]!.slug = 'nowa-oferta';
    twice.offers![1]!.slug = 'Nowa oferta';
    twice.offers![2]!.slug = '!!!';
    expect(await problemsOf(importAndSee(t, twice))).toEqual([
      'record 7 offers[1].slug: slug \'nowa-oferta\' is also given to another offer (record 6)',
      'record 8 offers[2].slug: a slug needs at least one letter or digit',
    ]);
    expect(await slugOf('offers', ids.offers[0]!)).not.toBe('nowa-oferta');
    // Another organization may have the same slug.
    const other = bundleWithKey();
    other.bundle.websites![0]!.api_keys = [];
    other.bundle.offers![0]!.slug = taken;
    await importAndSee(t, other.bundle);
    expect(await slugOf('offers', other.ids.offers[0]!)).toBe(taken);
    expect((await resolve('offer', taken)).json().id).toBe(ids.offers[2]);
  });

  it('long titles are cut after a whole word to 80 characters', async () => {
    const { bundle, ids } = bundleWithKey();
    (bundle.offers![0]!.offer_data as Record<string, unknown>).title = 'Słoneczne '.repeat(12);
    await importAndSee(t, bundle);
    const slug = await slugOf('offers', ids.offers[0]!);
    expect(slug).toBe(Array(8).fill('sloneczne').join('-'));
    expect(slug.length).toBeLessThanOrEqual(80);
  });
});

describe('GET /api/v1/slugs/{kind}/{slug}', () => {
  it('is 404 for an inactive offer and for one out of the website\'s scope', async () => {
    const { bundle, ids } = bundleWithKey();
    bundle.offers![0]!.is_active = false;
    bundle.websites![0]!.scope = { investment_ids: [ids.investment] };
    await importAndSee(t, bundle);
    expect((await resolve('offer', await slugOf('offers', ids.offers[0]!))).statusCode).toBe(404);
    expect((await resolve('offer', 'dom-z-ogrodem-lodz')).json()).toEqual({ detail: 'Slug not found' });
    const otherInvestment = randomUUID();
    bundle.investments!.push({ investment_id: otherInvestment, organization_id: ids.org, name: 'Inne', is_active: true });
    bundle.offers![0]!.is_active = true;
    await importAndSee(t, bundle);
    expect((await resolve('offer', await slugOf('offers', ids.offers[0]!))).statusCode).toBe(200);
    expect((await resolve('investment', 'osiedle')).statusCode).toBe(200);
    expect((await resolve('investment', 'inne')).statusCode).toBe(404);
  });

  it('original answers carry no slug', async () => {
    const { bundle, ids } = bundleWithKey();
    await importAndSee(t, bundle);
    const offer = await get(t, `/api/v1/offers/${ids.offers[0]}`, { key: KEY });
    expect(offer.statusCode).toBe(200);
    expect(offer.body).not.toContain('slug');
    expect((await get(t, `/api/v1/investments/${ids.investment}`, { key: KEY })).body).not.toContain('slug');
  });
});
