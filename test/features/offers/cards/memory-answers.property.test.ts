/**
 * Sparse answers from memory (extension E13) are the body path's, byte for byte: two services on
 * one database, one answering sparse pages and similar offers from the organizations' columns and
 * cards, one without columns (every answer from the bodies), both with the response cache off. For
 * random card-field selections, pages, sorts, filters, includes, keys (a whole organization, a
 * scoped website), JSON and XML, lists and an investment's list, and random offers' similar
 * blocks, both answer the same status and bytes. Then an offer changes (as an import changes it):
 * the memory path follows at once, reading only that offer's body again; and an organization whose
 * cards do not fit the budget keeps its columns and answers through the bodies.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../../src/app.js';
import { loadConfig } from '../../../../src/config.js';
import { bumpContentVersion } from '../../../../src/features/content-version/write.js';
import { readContentVersion } from '../../../../src/features/content-version/index.js';
import { buildCards, CARD_FIELD_NAMES, cardTextsAt, cardTop } from '../../../../src/features/offers/cards/offer-cards.js';
import { pageFromMemory } from '../../../../src/features/offers/cards/memory-answers.js';
import { selectionOf } from '../../../../src/features/offers/sparse-fields.js';
import { OfferColumnsCache } from '../../../../src/features/offers/facets/columns-cache.js';
import { columnBytes } from '../../../../src/features/offers/facets/columns.js';
import { loadOfferColumns, offerColumnsLoader } from '../../../../src/features/offers/facets/columns-read.js';
import type { Services } from '../../../../src/services.js';
import { buildTestApp, post, type TestApp } from '../../../helpers/app.js';
import { scaled } from '../../../helpers/scale.js';
import { AGENTS, BRANCHES, generateWorld, insertWorld, INVESTMENTS, WORLD_KEY, WORLD_ORG } from '../../../helpers/offer-world.js';
import { generateMapWorld, insertMapWorld, MAP_INVESTMENTS, MAP_KEY, MAP_ORG, MAP_SCOPE, MAP_SCOPED_KEY } from '../../../helpers/map-world.js';
import { rankSimilarFromColumns, similarityFactsFromColumns } from '../../../../src/features/offers/similar/similar-columns.js';
import { rankSimilar } from '../../../../src/features/offers/similar/similar-score.js';

let t: TestApp;
/** The same service without offer columns: every sparse answer from the bodies. */
let bodies: FastifyInstance;
const world = generateWorld(240, 20261128);
const mapWorld = generateMapWorld(200, 28);

const services = (app: FastifyInstance) => (app as unknown as { services: Services }).services;

beforeAll(async () => {
  t = await buildTestApp({ seed: false, env: { RESPONSE_CACHE: 'off' } });
  await insertWorld(t.db.db, world);
  await insertMapWorld(t.db.db, mapWorld);
  await services(t.app).contentVersion.refresh();
  const config = loadConfig({ KEY_CACHE_TTL_MS: '0', LOG_LEVEL: 'silent', RESPONSE_CACHE: 'off', FACET_COLUMNS_MB: '0' });
  bodies = await buildApp({ config, db: t.db, logger: false });
  await bodies.ready();
});

afterAll(async () => {
  await bodies.close();
});

/** How many column snapshots the memory service was asked for (each fast-path answer asks once). */
let asked = 0;
beforeAll(() => {
  const cache = services(t.app).facetColumns!;
  const original = cache.get.bind(cache);
  cache.get = (...args: Parameters<typeof cache.get>) => {
    asked++;
    return original(...args);
  };
});

const KEYS = [
  { key: WORLD_KEY, investments: INVESTMENTS },
  { key: MAP_KEY, investments: MAP_INVESTMENTS },
  { key: MAP_SCOPED_KEY, investments: MAP_INVESTMENTS },
];

const cardName = fc.constantFrom(...CARD_FIELD_NAMES).chain((name) => fc.constantFrom(name, `offer_data.${name}`));
const selectionArb = fc.array(cardName, { minLength: 1, maxLength: 8 });
const filterArb = fc.oneof(
  fc.record({ field: fc.constant('rooms'), operator: fc.constantFrom('gte', 'lte', 'eq', 'ne'), value: fc.integer({ min: 0, max: 6 }) }),
  fc.record({ field: fc.constant('price'), operator: fc.constantFrom('lt', 'gte'), value: fc.constantFrom(250000.5, 420000, 600000, 1e6) }),
  fc.record({ field: fc.constant('address_city'), operator: fc.constantFrom('eq', 'ne'), value: fc.constantFrom('Kraków', 'kraków', 'Warszawa', 'Łódź') }),
  fc.record({ field: fc.constant('market_type'), operator: fc.constant('in'), value: fc.constantFrom(['PRIMARY'], ['SECONDARY', 'PRIMARY']) }),
  fc.record({ field: fc.constant('agent_id'), operator: fc.constantFrom('eq', 'ne'), value: fc.constantFrom(...AGENTS) }),
  fc.record({ field: fc.constant('branch_id'), operator: fc.constant('eq'), value: fc.constantFrom(...BRANCHES) }),
  fc.record({ field: fc.constant('property_size'), operator: fc.constant('is_null'), value: fc.boolean() }),
);
const sortArb = fc.option(
  fc.record({ field: fc.constantFrom('price', 'rooms', 'property_size', 'price_per_meter', 'created_at'), direction: fc.constantFrom('asc', 'desc') }),
  { nil: null },
);
const includeArb = fc.subarray(['agent', 'branch', 'investment', 'organization']);

async function sameAnswer(send: (app: FastifyInstance) => Promise<Awaited<ReturnType<typeof post>>>) {
  const fromMemory = await send(t.app);
  const fromBodies = await send(bodies);
  expect(fromMemory.statusCode).toBe(fromBodies.statusCode);
  expect(fromMemory.headers['content-type']).toBe(fromBodies.headers['content-type']);
  expect(fromMemory.body).toBe(fromBodies.body);
  return fromMemory;
}

describe('sparse answers from memory are the body path answers', () => {
  it('lists: random card selections, pages, sorts, filters, includes, keys, JSON and XML', async () => {
    const askedBefore = asked;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...KEYS),
        fc.record({
          page: fc.integer({ min: 1, max: 5 }),
          size: fc.integer({ min: 1, max: 60 }),
          sorting: sortArb,
          filters: fc.array(filterArb, { maxLength: 3 }),
          fields: selectionArb,
        }),
        includeArb,
        fc.boolean(),
        fc.option(fc.nat(), { nil: undefined }),
        async ({ key, investments }, { page, size, ...rest }, include, xml, investment) => {
          const body = { pagination: { page, size }, ...rest };
          runs++;
          const path = investment === undefined ? '/api/v1/offers' : `/api/v1/investments/${investments[investment % investments.length]}/offers`;
          const url = include.length > 0 ? `${path}?include=${include.join(',')}` : path;
          const headers = xml ? { accept: 'application/xml' } : {};
          const answer = await sameAnswer((app) => app.inject({ method: 'POST', url, headers: { authorization: key, 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) }));
          expect(answer.statusCode, answer.body).toBe(investment === undefined ? 200 : answer.statusCode);
          if (answer.statusCode !== 404) expect(answer.statusCode, answer.body).toBe(200);
        },
      ),
      { numRuns: scaled('MEMORY_ANSWER_RUNS', 60, 400) },
    );
    // Every request above was one the memory answers (an unknown investment answers 404 before).
    expect(asked - askedBefore).toBeGreaterThanOrEqual(runs * 0.5);
  });

  it('similar offers: random offers, sizes and card selections, both keys of a scoped organization', async () => {
    const ids = [...mapWorld.map((o) => o.offer_id), ...world.slice(0, 60).map((o) => o.offer_id)];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ids), fc.constantFrom(...KEYS), fc.integer({ min: 1, max: 24 }), selectionArb, async (id, { key }, size, fields) => {
        await sameAnswer((app) => app.inject({ method: 'GET', url: `/api/v1/offers/${id}/similar?size=${size}&fields=${fields.join(',')}`, headers: { authorization: key } }));
      }),
      { numRuns: scaled('MEMORY_ANSWER_RUNS', 60, 400) },
    );
  });

  it('similar offers ranked in one pass over the columns are rankSimilar over all the facts', async () => {
    const version = (await readContentVersion(t.db.db))!;
    const snapshots = [(await loadOfferColumns(t.db.db, MAP_ORG, 1_000_000))!, (await loadOfferColumns(t.db.db, WORLD_ORG, 1_000_000))!];
    const ids = [...mapWorld.map((o) => o.offer_id), ...world.map((o) => o.offer_id)];
    expect(version).toBeDefined();
    fc.assert(
      fc.property(fc.constantFrom(...snapshots), fc.constantFrom(...ids), fc.constantFrom(null, MAP_SCOPE), fc.integer({ min: 1, max: 24 }), (columns, id, scope, size) => {
        const visibility = { organizationId: MAP_ORG, scope };
        const facts = similarityFactsFromColumns(columns, visibility, id);
        const ranked = rankSimilarFromColumns(columns, visibility, id, size);
        expect(ranked).toEqual(facts && rankSimilar(facts.base, facts.candidates, size));
      }),
      { numRuns: scaled('MEMORY_ANSWER_RUNS', 300, 2000) },
    );
  });

  it('every card is held, and a changed offer is answered as changed, reading only its body again', async () => {
    const cache = services(t.app).facetColumns!;
    const version = (await readContentVersion(t.db.db))!;
    const held = (await cache.get(WORLD_ORG, version, offerColumnsLoader(t.db.db)))!;
    expect(held.cards).toBeDefined();
    expect(held.cards!.tokens.every((token) => token !== undefined)).toBe(true);

    // The snapshot before, with every card's title replaced by a mark: a reload reuses the cards of
    // unchanged offers (the mark stays) and cuts the changed offer's from its body.
    const before = (await loadOfferColumns(t.db.db, WORLD_ORG, 1_000_000, { cards: true }))!;
    const title = CARD_FIELD_NAMES.indexOf('title');
    const marked = {
      ...before,
      cards: buildCards(
        before.ids.map((_, i) => ({
          ...cardTop(before.cards!, i),
          version: before.cards!.versions[i]!,
          created_micros: before.cards!.createdMicros[i]!,
          token: before.cards!.tokens[i]!,
          texts: CARD_FIELD_NAMES.map((_, f) => (f === title ? '"title":"reused"' : undefined)),
        })),
      ),
    };

    const target = world.find((o) => o.organization_id === WORLD_ORG && o.is_active)!;
    const stored = (await sql<{ json: string }>`select offer_data_json as json from offers where offer_id = ${target.offer_id}`.execute(t.db.db)).rows[0]!.json;
    const changed = JSON.stringify({ ...JSON.parse(stored), title: 'Nowy tytuł "z cudzysłowem" \u2028', price: 123456.78 });
    await t.db.db.transaction().execute(async (trx) => {
      await sql`update offers set offer_data = ${changed}::jsonb, offer_data_json = ${changed}, version = version + 1, updated_at = now() where offer_id = ${target.offer_id}`.execute(trx);
      await bumpContentVersion(trx);
    });
    const body = { pagination: { size: 60 }, filters: [{ field: 'price', operator: 'eq', value: 123456.78 }], fields: ['title', 'price'] };
    const answer = await sameAnswer((app) => post({ ...t, app }, '/api/v1/offers', body, { key: WORLD_KEY }));
    const item = answer.json().items.find((o: { offer_id: string }) => o.offer_id === target.offer_id);
    expect(item.offer_data).toEqual({ price: 123456.78, title: 'Nowy tytuł "z cudzysłowem" \u2028' });

    const after = (await loadOfferColumns(t.db.db, WORLD_ORG, 1_000_000, { cards: true, previous: marked }))!;
    after.ids.forEach((id, i) => {
      const texts = cardTextsAt(after.cards!, i, after.cards!.tokens[i]!)!;
      expect(texts[title]).toBe(id === target.offer_id ? JSON.stringify('title') + ':' + JSON.stringify('Nowy tytuł "z cudzysłowem" \u2028') : '"title":"reused"');
    });
  });

  it('an organization whose cards do not fit the budget keeps its columns, and its sparse pages take the body path', async () => {
    const rows = world.filter((o) => o.organization_id === WORLD_ORG && o.is_active).length;
    const tight = new OfferColumnsCache(columnBytes(rows) + 512);
    const version = (await readContentVersion(t.db.db))!;
    const columns = (await tight.get(WORLD_ORG, version, offerColumnsLoader(t.db.db)))!;
    expect(columns.rows).toBe(rows);
    expect(columns.cards).toBeUndefined();
    const selection = selectionOf([0]);
    expect(pageFromMemory(columns, {}, { fields: selection, page: 1, size: 10 })).toBeUndefined();
  });
});
