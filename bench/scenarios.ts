/**
 * What the benchmark asks the service: each scenario is a pool of distinct requests (spread over
 * the ten websites and their keys), the status every answer must have, and a check of one real
 * answer before the load, so that a fast error or a wrong result is never reported as speed.
 */
import { CITIES } from '../src/demo/places.js';
import { Random } from '../src/demo/random.js';
import type { CatalogManifest, OrganizationManifest } from './catalog.js';
import { probe, type RequestSpec } from './load.js';

export interface Scenario {
  readonly id: string;
  readonly label: string;
  readonly expectedStatus: number;
  /**
   * Builds the pool against a running service (the 304 scenario first fetches ETags); `note` is a
   * fact found on the way that the report keeps (the prices CSV's cold first answer).
   */
  prepare(origin: string): Promise<{ pool: RequestSpec[]; note?: string } | { notApplicable: string } | { problem: string }>;
  /** Checks a probed answer; returns what is wrong, or undefined. */
  check(answer: { status: number; headers: Headers; body: Buffer }, spec: RequestSpec): string | undefined;
}

export interface ScenarioSettings {
  /** Distinct offer ids per organization for the single-offer scenarios. */
  readonly offersPerOrganization: number;
  /** Distinct filter bodies per organization for the list scenarios. */
  readonly filtersPerOrganization: number;
  /** Page of the deep-pagination scenario (100 on the full catalog). */
  readonly deepPage: number;
  /** Pages of 100 per organization in the XML-vs-JSON scenarios. */
  readonly bigPagesPerOrganization: number;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

function auth(org: OrganizationManifest): Record<string, string> {
  return { authorization: org.key };
}

/** Keys shaped like the service's own (ecs_ and 43 URL-safe characters) that no website holds. */
function unknownKeys(count: number): string[] {
  const random = new Random('bench-scenario:unknown-keys');
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  return Array.from({ length: count }, () => `ecs_${Array.from({ length: 43 }, () => alphabet[random.int(0, alphabet.length - 1)]).join('')}`);
}

function post(org: OrganizationManifest, path: string, body: unknown, extra: Record<string, string> = {}): RequestSpec {
  return { method: 'POST', path, headers: { ...auth(org), ...JSON_HEADERS, ...extra }, body: Buffer.from(JSON.stringify(body)) };
}

/** Round-robin over organizations, so that consecutive requests belong to different websites. */
function interleave<T>(perOrganization: T[][]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...perOrganization.map((list) => list.length));
  for (let i = 0; i < longest; i++) for (const list of perOrganization) if (i < list.length) out.push(list[i]!);
  return out;
}

/** n ids spread evenly over the list (not just its start). */
function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

function describeAnswer(answer: { status: number; body: Buffer }): string {
  const text = answer.body.toString('utf8', 0, Math.min(answer.body.length, 200)).replace(/\s+/g, ' ');
  return `status ${answer.status}: ${text}`;
}

type Json = Record<string, unknown>;
type CheckFn = (json: Json, spec: RequestSpec) => string | undefined;

function jsonCheck(expectedStatus: number, checkJson: CheckFn) {
  return (answer: { status: number; headers: Headers; body: Buffer }, spec: RequestSpec): string | undefined => {
    if (answer.status !== expectedStatus) return `expected ${expectedStatus}, got ${describeAnswer(answer)}`;
    const type = answer.headers.get('content-type') ?? '';
    if (!type.includes('application/json')) return `expected JSON, got content-type "${type}"`;
    const json = parseJson(answer.body);
    if (json === undefined || json === null || typeof json !== 'object') return 'the body is not JSON';
    return checkJson(json as Json, spec);
  };
}

function xmlCheck(root: string) {
  return (answer: { status: number; headers: Headers; body: Buffer }): string | undefined => {
    if (answer.status !== 200) return `expected 200, got ${describeAnswer(answer)}`;
    const type = answer.headers.get('content-type') ?? '';
    if (!type.includes('xml')) return `expected XML, got content-type "${type}"`;
    const text = answer.body.toString('utf8');
    if (!text.startsWith('<?xml')) return 'the body does not start with an XML declaration';
    if (!text.includes(`<${root}>`)) return `no <${root}> element in the body`;
    return undefined;
  };
}

function pageCheck(expectItems: boolean, extra?: (items: Json[], json: Json, spec: RequestSpec) => string | undefined): CheckFn {
  return (json, spec) => {
    for (const field of ['items', 'page', 'size', 'total', 'pages']) if (!(field in json)) return `no "${field}" in the page`;
    if (!Array.isArray(json.items)) return '"items" is not an array';
    const items = json.items as Json[];
    if (expectItems && items.length === 0) return 'the page has no items (the benchmark expects some)';
    return extra?.(items, json, spec);
  };
}

interface FilterBody {
  pagination: { page?: number; size?: number };
  sorting: { field: string; direction: 'asc' | 'desc' };
  filters: { field: string; operator: string; value: unknown }[];
}

/** The realistic search of a website's listing page: price range, rooms, city, balcony; by price. */
function searchBodies(org: OrganizationManifest, cities: readonly string[], count: number, seed: number): FilterBody[] {
  const random = new Random(`bench-scenario:${seed}`);
  const roomSets = [[1, 2], [2, 3], [3, 4], [2, 3, 4], [3, 4, 5], [1, 2, 3]];
  const seen = new Set<string>();
  const bodies: FilterBody[] = [];
  for (let attempt = 0; bodies.length < count && attempt < count * 50; attempt++) {
    const city = random.chance(0.6) ? org.homeCity : random.pick(cities);
    const low = random.int(2, 9) * 100_000;
    const high = low + random.int(3, 10) * 100_000;
    const body: FilterBody = {
      pagination: { page: 1, size: 50 },
      sorting: { field: 'price', direction: random.chance(0.75) ? 'asc' : 'desc' },
      filters: [
        { field: 'price', operator: 'between', value: [low, high] },
        { field: 'rooms', operator: 'in', value: random.pick(roomSets) },
        { field: 'address_city', operator: 'eq', value: city },
        { field: 'has_balcony', operator: 'eq', value: random.chance(0.8) },
      ],
    };
    const key = JSON.stringify(body);
    if (seen.has(key)) continue;
    seen.add(key);
    bodies.push(body);
  }
  return bodies;
}

/** A broad price range sorted by price: enough matches for a deep page to exist. */
function deepBodies(count: number, page: number, seed: number): FilterBody[] {
  const random = new Random(`bench-scenario:${seed}`);
  const seen = new Set<string>();
  const bodies: FilterBody[] = [];
  for (let attempt = 0; bodies.length < count && attempt < count * 50; attempt++) {
    const low = random.int(1, 12) * 10_000;
    const high = random.int(2, 12) * 1_000_000;
    const body: FilterBody = {
      pagination: { page, size: 50 },
      sorting: { field: 'price', direction: random.chance(0.5) ? 'asc' : 'desc' },
      filters: [{ field: 'price', operator: 'between', value: [low, high] }],
    };
    const key = JSON.stringify(body);
    if (seen.has(key)) continue;
    seen.add(key);
    bodies.push(body);
  }
  return bodies;
}

/** Words people type into a listing site's search box (the demo's titles and descriptions use them). */
const SEARCH_WORDS = ['mieszkanie', 'mieszkania', 'kawalerka', 'balkon', 'balkonem', 'dom', 'ogród', 'taras', 'garaż', 'nowe', 'przestronne', 'metro', 'park', '3-pokojowe', '2-pokojowe'];

/** Search-box queries: a district or a street and a word or two, the last often cut short (typing). */
function searchBoxBodies(count: number, seed: number): Array<{ pagination: { size: number }; search: string }> {
  const random = new Random(`bench-search:${seed}`);
  const seen = new Set<string>();
  const bodies: Array<{ pagination: { size: number }; search: string }> = [];
  for (let attempt = 0; bodies.length < count && attempt < count * 50; attempt++) {
    const city = random.pick(CITIES);
    const district = random.pick(city.districts);
    const place = random.chance(0.5) ? district.name : random.pick(district.streets);
    const words = [random.pick(SEARCH_WORDS), place, ...(random.chance(0.4) ? [random.pick(SEARCH_WORDS)] : [])];
    const last = words[words.length - 1]!;
    if (random.chance(0.5)) words[words.length - 1] = last.slice(0, Math.max(3, Math.floor(last.length * 0.6)));
    const search = words.join(' ');
    if (seen.has(search)) continue;
    seen.add(search);
    bodies.push({ pagination: { size: 20 }, search });
  }
  return bodies;
}

function haversineKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const h = Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A map view: offers within a few km of a district's centre, nearest first. */
function radiusBodies(count: number, seed: number): unknown[] {
  const random = new Random(`bench-radius:${seed}`);
  return Array.from({ length: count }, () => {
    const district = random.pick(random.pick(CITIES).districts);
    const from = { lat: Number((district.lat + (random.next() - 0.5) * 0.02).toFixed(5)), lon: Number((district.lon + (random.next() - 0.5) * 0.03).toFixed(5)) };
    return {
      pagination: { size: 20 },
      filters: [{ field: 'location', operator: 'within_radius', value: { ...from, km: random.int(1, 5) } }],
      sorting: { field: 'distance', direction: 'asc', from },
    };
  });
}

/** A sidebar: 4 facets and 2 statistics under a listing page's 3 filters. */
function facetBodies(org: OrganizationManifest, cities: readonly string[], count: number, seed: number): unknown[] {
  const random = new Random(`bench-facets:${seed}`);
  const roomSets = [[1, 2], [2, 3], [3, 4], [2, 3, 4]];
  return Array.from({ length: count }, () => {
    const low = random.int(2, 9) * 100_000;
    return {
      filters: [
        { field: 'address_city', operator: 'eq', value: random.chance(0.6) ? org.homeCity : random.pick(cities) },
        { field: 'price', operator: 'between', value: [low, low + random.int(3, 10) * 100_000] },
        { field: 'rooms', operator: 'in', value: random.pick(roomSets) },
      ],
      facets: ['address_city', 'rooms', 'market_type', 'has_balcony'],
      stats: ['price', 'property_size'],
    };
  });
}

/** Every item of a filtered page really matches the filters and comes in price order. */
function matchesSearch(items: Json[], _json: Json, spec: RequestSpec): string | undefined {
  const body = JSON.parse(spec.body!.toString('utf8')) as FilterBody;
  let previous: number | undefined;
  for (const item of items) {
    const data = item.offer_data as Json | undefined;
    if (!data) return 'an item has no offer_data';
    for (const filter of body.filters) {
      const value = data[filter.field];
      const ok =
        filter.operator === 'between'
          ? typeof value === 'number' && value >= (filter.value as number[])[0]! && value <= (filter.value as number[])[1]!
          : filter.operator === 'in'
            ? (filter.value as unknown[]).includes(value)
            : value === filter.value;
      if (!ok) return `an item does not match the filter ${JSON.stringify(filter)} (value ${JSON.stringify(value)})`;
    }
    const price = data.price as number;
    if (previous !== undefined && (body.sorting.direction === 'asc' ? price < previous : price > previous)) {
      return `items are not sorted by price ${body.sorting.direction}`;
    }
    previous = price;
  }
  return undefined;
}

/** A listing card's fields (sparse fields, extension E13). */
const SPARSE_CARD_FIELDS = ['title', 'price', 'property_size', 'rooms', 'address_city', 'photos_urls'];
/** A map of all Poland. */
const POLAND = { south: 49, west: 14, north: 55, east: 24.5 };

export function buildScenarios(manifest: CatalogManifest, settings: ScenarioSettings): Scenario[] {
  const orgs = manifest.organizations;
  const fixed = (pool: RequestSpec[]) => async () => ({ pool });

  const offerSpecs = (extra: Record<string, string>, query = '') =>
    interleave(
      orgs.map((org) =>
        spread(org.activeOfferIds, settings.offersPerOrganization).map<RequestSpec>((id) => ({
          method: 'GET',
          path: `/api/v1/offers/${id}${query}`,
          headers: { ...auth(org), ...extra },
        })),
      ),
    );

  const offerIdMatches: CheckFn = (json, spec) =>
    spec.path.includes(String(json.offer_id)) ? undefined : `offer_id ${String(json.offer_id)} is not the one asked for`;

  const bigPages = (accept: string) =>
    interleave(
      orgs.map((org) =>
        Array.from({ length: settings.bigPagesPerOrganization }, (_, i) =>
          post(org, '/api/v1/offers?include=agent,branch,organization,investment', { pagination: { page: i + 1, size: 100 } }, { accept }),
        ),
      ),
    );

  return [
    {
      id: 'organization',
      label: 'GET organization',
      expectedStatus: 200,
      prepare: fixed(orgs.map((org) => ({ method: 'GET', path: '/api/v1/organization', headers: auth(org) }))),
      check: jsonCheck(200, (json) => (typeof json.organization_id === 'string' ? undefined : 'no organization_id')),
    },
    {
      id: 'branches',
      label: 'GET branches',
      expectedStatus: 200,
      prepare: fixed(orgs.map((org) => ({ method: 'GET', path: '/api/v1/branches', headers: auth(org) }))),
      check: jsonCheck(200, (json) => (Array.isArray(json) && json.length > 0 ? undefined : 'expected a non-empty array of branches')),
    },
    {
      id: 'offer-json',
      label: 'GET offer by id (JSON)',
      expectedStatus: 200,
      prepare: fixed(offerSpecs({})),
      check: jsonCheck(200, offerIdMatches),
    },
    {
      id: 'offer-xml',
      label: 'GET offer by id (XML)',
      expectedStatus: 200,
      prepare: fixed(offerSpecs({ accept: 'application/xml' })),
      check: xmlCheck('offer'),
    },
    {
      id: 'offer-include',
      label: 'GET offer by id ?include=agent,branch',
      expectedStatus: 200,
      prepare: fixed(offerSpecs({}, '?include=agent,branch')),
      check: jsonCheck(200, (json, spec) => {
        const problem = offerIdMatches(json, spec);
        if (problem) return problem;
        if (json.agent === null || typeof json.agent !== 'object') return 'agent was not included';
        if (json.branch === null || typeof json.branch !== 'object') return 'branch was not included';
        return undefined;
      }),
    },
    {
      id: 'list-default',
      label: 'POST offers, default page',
      expectedStatus: 200,
      prepare: fixed(orgs.map((org) => post(org, '/api/v1/offers', { pagination: {} }))),
      check: jsonCheck(200, pageCheck(true, (items) => (items.length === 50 ? undefined : `expected 50 items, got ${items.length}`))),
    },
    {
      // Extension E12: list-default's page in English (a fifth of the catalogue's offers have an
      // English translation, the demo's); the target is at most 10% below list-default.
      id: 'list-lang',
      label: 'POST offers, default page, "lang": "en"',
      expectedStatus: 200,
      prepare: fixed(orgs.map((org) => post(org, '/api/v1/offers', { pagination: {}, lang: 'en' }))),
      check: jsonCheck(200, pageCheck(true, (items) => (items.length === 50 ? undefined : `expected 50 items, got ${items.length}`))),
    },
    {
      id: 'list-filtered',
      label: 'POST offers, filtered + sorted by price',
      expectedStatus: 200,
      prepare: fixed(
        interleave(
          orgs.map((org, i) =>
            searchBodies(org, manifest.cities, settings.filtersPerOrganization, 1000 + i).map((body) => post(org, '/api/v1/offers', body)),
          ),
        ),
      ),
      check: jsonCheck(200, pageCheck(false, matchesSearch)),
    },
    {
      id: 'list-deep',
      label: `POST offers, price range sorted by price, page ${settings.deepPage}`,
      expectedStatus: 200,
      prepare: fixed(
        interleave(orgs.map((org, i) => deepBodies(settings.filtersPerOrganization, settings.deepPage, 2000 + i).map((body) => post(org, '/api/v1/offers', body)))),
      ),
      check: jsonCheck(200, pageCheck(true, matchesSearch)),
    },
    {
      id: 'investment-offers',
      label: 'POST investments/{id}/offers',
      expectedStatus: 200,
      prepare: fixed(interleave(orgs.map((org) => org.investmentIds.map((id) => post(org, `/api/v1/investments/${id}/offers`, { pagination: {} }))))),
      check: jsonCheck(200, pageCheck(false)),
    },
    {
      id: 'revalidate-304',
      label: 'GET offer, If-None-Match → 304',
      expectedStatus: 304,
      prepare: async (origin) => {
        const pool: RequestSpec[] = [];
        for (const spec of offerSpecs({}).slice(0, 500)) {
          const answer = await probe(origin, spec);
          const etag = answer.headers.get('etag');
          if (answer.status !== 200) return { problem: `the offer itself answered ${describeAnswer(answer)}` };
          if (!etag) return { notApplicable: 'n/a (no ETag)' };
          pool.push({ ...spec, headers: { ...spec.headers, 'if-none-match': etag } });
        }
        return { pool };
      },
      check: (answer) => (answer.status === 304 ? undefined : `expected 304, got ${describeAnswer(answer)}`),
    },
    {
      id: 'unauthorized-401',
      label: 'GET organization without a key → 401',
      expectedStatus: 401,
      prepare: fixed([{ method: 'GET', path: '/api/v1/organization', headers: {} }]),
      check: jsonCheck(401, (json) => (json.detail === 'API key is required' ? undefined : `unexpected body ${JSON.stringify(json)}`)),
    },
    {
      id: 'invalid-key-401',
      label: 'GET organization with an unknown key → 401',
      expectedStatus: 401,
      // What a flood of guessed keys looks like: well-formed keys that no website holds, a few
      // hundred of them, each looked up once and then remembered as unknown (src/features/access).
      prepare: fixed(unknownKeys(256).map((key) => ({ method: 'GET', path: '/api/v1/organization', headers: { authorization: key } }))),
      check: jsonCheck(401, (json) => (json.detail === 'Invalid API key' ? undefined : `unexpected body ${JSON.stringify(json)}`)),
    },
    {
      id: 'invalid-key-401-flood',
      label: 'GET organization with a new unknown key each time → 401',
      expectedStatus: 401,
      // Guesses that do not repeat within the key cache's lifetime: 20,000 keys walked in turn, so
      // without the key directory nearly every request would be a database lookup.
      prepare: fixed(unknownKeys(20_000).map((key) => ({ method: 'GET', path: '/api/v1/organization', headers: { authorization: key } }))),
      check: jsonCheck(401, (json) => (json.detail === 'Invalid API key' ? undefined : `unexpected body ${JSON.stringify(json)}`)),
    },
    {
      id: 'page100-json',
      label: 'POST offers, 100 per page, all includes (JSON)',
      expectedStatus: 200,
      prepare: fixed(bigPages('application/json')),
      check: jsonCheck(200, pageCheck(true, (items) => (items.length === 100 ? undefined : `expected 100 items, got ${items.length}`))),
    },
    {
      id: 'search-box',
      label: 'POST offers, search box query',
      expectedStatus: 200,
      prepare: fixed(interleave(orgs.map((org, i) => searchBoxBodies(settings.filtersPerOrganization, 3000 + i).map((body) => post(org, '/api/v1/offers', body))))),
      check: jsonCheck(200, pageCheck(false)),
    },
    {
      id: 'radius',
      label: 'POST offers, within 1-5 km, by distance',
      expectedStatus: 200,
      prepare: fixed(interleave(orgs.map((org, i) => radiusBodies(settings.filtersPerOrganization, 4000 + i).map((body) => post(org, '/api/v1/offers', body))))),
      check: jsonCheck(200, pageCheck(false, (items, _json, spec) => {
        const body = JSON.parse(spec.body!.toString('utf8')) as { sorting: { from: { lat: number; lon: number } } };
        let previous = -1;
        for (const item of items) {
          const data = item.offer_data as Json;
          const d = haversineKm(body.sorting.from, { lat: data.location_latitude as number, lon: data.location_longitude as number });
          if (d + 1e-9 < previous) return 'items are not ordered by distance';
          previous = d;
        }
        return undefined;
      })),
    },
    {
      id: 'facets',
      label: 'POST offers/facets, 4 facets + 2 stats, 3 filters',
      expectedStatus: 200,
      prepare: fixed(
        interleave(orgs.map((org, i) => facetBodies(org, manifest.cities, settings.filtersPerOrganization, 5000 + i).map((body) => post(org, '/api/v1/offers/facets', body)))),
      ),
      check: jsonCheck(200, (json) =>
        typeof json.total === 'number' && json.facets && (json.facets as Json).rooms && json.stats ? undefined : 'not a facets answer',
      ),
    },
    {
      id: 'changes',
      label: 'GET changes, page of 1,000',
      expectedStatus: 200,
      // Walk each website's feed once to collect the cursors of its pages: the pool is every page.
      prepare: async (origin) => {
        const perOrganization: RequestSpec[][] = [];
        for (const org of orgs) {
          const pages: RequestSpec[] = [];
          let since: string | undefined;
          for (let i = 0; i < 200; i++) {
            const path = `/api/v1/changes?limit=1000${since === undefined ? '' : `&since=${encodeURIComponent(since)}`}`;
            const answer = await fetch(origin + path, { headers: auth(org) });
            if (answer.status !== 200) return { problem: `GET ${path} answered ${answer.status}` };
            const json = (await answer.json()) as { changes: unknown[]; next_cursor: string; has_more: boolean };
            if (json.changes.length > 0) pages.push({ method: 'GET', path, headers: auth(org) });
            if (!json.has_more) break;
            since = json.next_cursor;
          }
          perOrganization.push(pages);
        }
        return { pool: interleave(perOrganization) };
      },
      check: jsonCheck(200, (json) =>
        Array.isArray(json.changes) && json.changes.length > 0 && typeof json.next_cursor === 'string' ? undefined : 'not a page of changes',
      ),
    },
    {
      // Extension E13: the default page of list-default with only a listing card's fields; compare its
      // requests/s and bytes per answer with list-default's.
      id: 'list-sparse',
      label: 'POST offers, default page, 6 fields (sparse)',
      expectedStatus: 200,
      prepare: fixed(orgs.map((org) => post(org, '/api/v1/offers', { pagination: {}, fields: SPARSE_CARD_FIELDS }))),
      check: jsonCheck(200, pageCheck(true, (items) => {
        if (items.length !== 50) return `expected 50 items, got ${items.length}`;
        const keys = Object.keys((items[0]!.offer_data ?? {}) as Json);
        return keys.length === SPARSE_CARD_FIELDS.length ? undefined : `expected ${SPARSE_CARD_FIELDS.length} offer_data fields, got ${keys.join(',')}`;
      })),
    },
    {
      id: 'similar',
      label: 'GET offers/{id}/similar, 6 offers, card fields',
      expectedStatus: 200,
      prepare: fixed(offerSpecs({}, `/similar?size=6&fields=${SPARSE_CARD_FIELDS.join(',')}`)),
      check: jsonCheck(200, (json, spec) => {
        const items = json.items as Json[] | undefined;
        if (!Array.isArray(items) || items.length === 0) return 'no similar offers';
        if (items.some((item) => spec.path.includes(String(item.offer_id)))) return 'the offer itself is among its similar offers';
        return items.every((item) => typeof item.score === 'number') ? undefined : 'an item has no score';
      }),
    },
    {
      id: 'clusters-all',
      label: 'POST offers/clusters, all offers in Poland, zoom 5-12',
      expectedStatus: 200,
      prepare: fixed(
        interleave(orgs.map((org) => [5, 6, 7, 8, 9, 10, 11, 12].map((zoom) => post(org, '/api/v1/offers/clusters', { bbox: POLAND, zoom })))),
      ),
      check: jsonCheck(200, (json) => {
        const clusters = json.clusters as { count: number }[] | undefined;
        if (!Array.isArray(clusters) || typeof json.total !== 'number' || json.total === 0) return 'not a clusters answer';
        if (clusters.length > 1000) return `${clusters.length} clusters`;
        return clusters.reduce((n, c) => n + c.count, 0) === json.total ? undefined : 'counts do not add up to total';
      }),
    },
    {
      id: 'photo-variant',
      label: 'GET a cached photo variant (640 WebP, public)',
      expectedStatus: 200,
      // The catalogue's offers show the demo's photos (drawn by the service): wait until an offer's
      // photos are ready, render each one's 640 WebP once, then the pool is those cached variants.
      prepare: async (origin) => {
        const pool: RequestSpec[] = [];
        for (const org of orgs.slice(0, 2)) {
          for (const id of spread(org.activeOfferIds, 2)) {
            let photos: { status: string; variants: { width: number; format: string; url: string }[] }[] = [];
            for (let i = 0; i < 600; i++) {
              const answer = await fetch(`${origin}/api/v1/offers/${id}/photos`, { headers: auth(org) });
              if (answer.status !== 200) return { problem: `GET photos of ${id} answered ${answer.status}` };
              photos = ((await answer.json()) as { photos: typeof photos }).photos;
              if (photos.length > 0 && photos.every((p) => p.status === 'ready')) break;
              await new Promise((resolve) => setTimeout(resolve, 100));
            }
            for (const photo of photos) {
              const variant = photo.variants.find((v) => v.width === 640 && v.format === 'webp');
              if (!variant) return { problem: `offer ${id}: a photo without a 640 WebP variant (${photo.status})` };
              const path = new URL(variant.url).pathname;
              const first = await fetch(origin + path);
              if (first.status !== 200) return { problem: `GET ${path} answered ${first.status}` };
              await first.arrayBuffer();
              pool.push({ method: 'GET', path, headers: {} });
            }
          }
        }
        return { pool };
      },
      check: (answer) =>
        answer.status === 200 && answer.headers.get('content-type') === 'image/webp' && answer.body.length > 0
          ? undefined
          : `expected a WebP image, got ${describeAnswer(answer)}`,
    },
    {
      // Extension E10: today's price-transparency CSV of the organization whose dataset the bench
      // turned on (the first; bench/transparency.ts), asked for gzipped as a harvester would. The
      // file is built once per day and content version and then served from memory.
      id: 'prices-csv',
      label: "GET today's price CSV (10,000 offers, gzip, public)",
      expectedStatus: 200,
      prepare: async (origin) => {
        const spec: RequestSpec = { method: 'GET', path: `/open-data/${orgs[0]!.organization_id}/prices.csv`, headers: { 'accept-encoding': 'gzip' } };
        const started = performance.now();
        const first = await probe(origin, spec);
        const ms = performance.now() - started;
        if (first.status !== 200) return { problem: `GET ${spec.path} answered ${describeAnswer(first)}` };
        const rows = first.body.toString('utf8').split('\r\n').length - 2;
        return { pool: [spec], note: `the first (cold) answer of today's price CSV (${rows.toLocaleString('en-US')} rows, ${Math.round(first.body.length / 1024).toLocaleString('en-US')} KB) took ${Math.round(ms)} ms over HTTP` };
      },
      check: (answer) => {
        if (answer.status !== 200) return `expected 200, got ${describeAnswer(answer)}`;
        if (!(answer.headers.get('content-type') ?? '').startsWith('text/csv')) return `expected CSV, got ${answer.headers.get('content-type')}`;
        if (answer.headers.get('content-encoding') !== 'gzip') return 'the file was not sent gzipped';
        const text = answer.body.toString('utf8');
        if (!text.startsWith('Nazwa dewelopera;')) return "the file does not start with the template's header";
        const rows = text.split('\r\n').length - 2;
        return rows >= 1000 ? undefined : `only ${rows} rows`;
      },
    },
    {
      id: 'page100-xml',
      label: 'POST offers, 100 per page, all includes (XML)',
      expectedStatus: 200,
      prepare: fixed(bigPages('application/xml')),
      check: xmlCheck('offers'),
    },
  ];
}
