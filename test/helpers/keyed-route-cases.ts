/**
 * The cases every keyed (/api/v1) route shares, in one place (as Unkey's runCommonRouteTests): the
 * three 401s and that they come first, the 422 of a malformed id in the path and of a missing or
 * malformed JSON body, that a 422 comes before a 404, and the 404 of an unknown id and of another
 * organization's id, with the resource's own detail. A route's own tests then test only what is
 * its own.
 *
 *   describe.each(keyedRoutes())('%s', (_name, route) => runKeyedRouteCases(() => t, route));
 *
 * A new path parameter must be described in PATH_PARAMETERS (the test fails naming it).
 */
import { expect, it } from 'vitest';
import { ROUTES, type RouteEntry } from '../../src/routes.js';
import type { TestApp } from './app.js';
import { AGENT, BRANCH, INVESTMENT, KEYS, OFFER } from './fixtures.js';

interface PathParameter {
  /** An id of organization A's fixture that the route answers 200 for. */
  readonly ok: string;
  /** An id of organization B's fixture: it must not exist for organization A's key. */
  readonly foreign?: string;
  /** The 404 detail of the resource (absent: the parameter names no resource, e.g. a kind). */
  readonly notFound?: string;
  /** A value that is not one of the parameter's, and the 422 type it gives (default: not-a-uuid, uuid_parsing; null: none). */
  readonly malformed?: { readonly value: string; readonly type: string } | null;
  /** An unknown value (default: an unknown UUID). */
  readonly unknown?: string;
}

export const PATH_PARAMETERS: Readonly<Record<string, PathParameter>> = {
  branch_id: { ok: BRANCH.krakow, foreign: BRANCH.other, notFound: 'Branch not found' },
  agent_id: { ok: AGENT.nowak, foreign: AGENT.other, notFound: 'Agent not found' },
  investment_id: { ok: INVESTMENT.zielone, foreign: INVESTMENT.other, notFound: 'Investment not found' },
  offer_id: { ok: OFFER.krakowFull, foreign: OFFER.otherOrg, notFound: 'Offer not found' },
  // GET /api/v1/slugs/{kind}/{slug} (E12): the fixture's slugs are made from title and city.
  kind: { ok: 'offer', malformed: { value: 'flat', type: 'literal_error' } },
  slug: {
    ok: 'dwupokojowe-mieszkanie-z-balkonem-krakow',
    foreign: 'dwupokojowe-mieszkanie-z-balkonem-poznan',
    unknown: 'no-such-slug',
    notFound: 'Slug not found',
    malformed: null,
  },
};

/** A valid body for every keyed POST route (the lists, facets and their investment forms). */
export const VALID_BODY = '{"pagination":{}}';
/** The map's clusters need a bbox and a zoom (extension E13). */
export const VALID_CLUSTERS_BODY = '{"bbox":{"south":-90,"west":-180,"north":90,"east":180},"zoom":3}';

/** A valid body for a keyed POST route. */
export function validBodyOf(route: RouteEntry): string {
  return route.url.endsWith('/clusters') ? VALID_CLUSTERS_BODY : VALID_BODY;
}
const UNKNOWN_ID = '00000000-0000-4000-8000-00000000dead';

/** The keyed routes of the table, as `describe.each` rows. */
export function keyedRoutes(): (readonly [string, RouteEntry])[] {
  return ROUTES.filter((route) => route.auth).map((route) => [`${route.method} ${route.url}`, route] as const);
}

function parametersOf(route: RouteEntry): string[] {
  return [...route.url.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!);
}

/** The route's URL with each path parameter replaced (by its `ok` id unless given). */
function urlOf(route: RouteEntry, values: Record<string, string> = {}): string {
  return route.url.replace(/:([a-z_]+)/g, (_all, name: string) => values[name] ?? PATH_PARAMETERS[name]!.ok);
}

function send(t: TestApp, route: RouteEntry, options: { url?: string; key?: string | null; body?: string | null } = {}) {
  const key = options.key === undefined ? KEYS.activeA1 : options.key;
  const body = options.body === undefined ? (route.method === 'POST' ? validBodyOf(route) : null) : options.body;
  return t.app.inject({
    method: route.method,
    url: options.url ?? urlOf(route),
    headers: { ...(key === null ? {} : { authorization: key }), ...(body === null ? {} : { 'content-type': 'application/json' }) },
    ...(body === null ? {} : { payload: body }),
  });
}

export function runKeyedRouteCases(app: () => TestApp, route: RouteEntry): void {
  const parameters = parametersOf(route);

  it('describes its path parameters in PATH_PARAMETERS', () => {
    for (const name of parameters) expect(PATH_PARAMETERS[name], `path parameter ${name}`).toBeDefined();
  });

  it('answers 200 to organization A\'s key', async () => {
    const res = await send(app(), route);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('answers the three 401s, as JSON, before anything else is checked', async () => {
    const malformed = Object.fromEntries(parameters.map((name) => [name, 'not-a-uuid']));
    const cases = [
      { key: null, detail: 'API key is required' },
      { key: KEYS.unknown, detail: 'Invalid API key' },
      { key: KEYS.inactiveA1, detail: 'API key is not active' },
      { key: KEYS.expiredA1, detail: 'API key is not active' },
    ];
    for (const { key, detail } of cases) {
      for (const url of [urlOf(route), urlOf(route, malformed)]) {
        const res = await send(app(), route, { key, url, ...(route.method === 'POST' ? { body: '{"pagination":' } : {}) });
        expect(res.statusCode, `${url} with ${String(key)}`).toBe(401);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.json()).toEqual({ detail });
      }
    }
  });

  for (const name of parameters) {
    const parameter = PATH_PARAMETERS[name];
    const malformed = parameter?.malformed === undefined ? { value: 'not-a-uuid', type: 'uuid_parsing' } : parameter.malformed;
    if (malformed !== null) {
      it(`answers 422 ${malformed.type} at ["path", "${name}"] for a malformed value`, async () => {
        const res = await send(app(), route, { url: urlOf(route, { [name]: malformed.value }) });
        expect(res.statusCode).toBe(422);
        const detail = res.json().detail as { type: string; loc: unknown[] }[];
        expect(detail[0]).toMatchObject({ type: malformed.type, loc: ['path', name], input: malformed.value });
      });
    }

    if (parameter?.notFound !== undefined) it(`answers 404 for an unknown ${name} and for another organization's, with the resource's detail`, async () => {
      const detail = PATH_PARAMETERS[name]!.notFound;
      for (const id of [PATH_PARAMETERS[name]!.unknown ?? UNKNOWN_ID, PATH_PARAMETERS[name]!.foreign!]) {
        const res = await send(app(), route, { url: urlOf(route, { [name]: id }) });
        expect(res.statusCode, id).toBe(404);
        expect(res.json()).toEqual({ detail });
      }
    });

    if (route.method === 'POST') {
      it(`answers 422 before 404: an unknown ${name} with a malformed body`, async () => {
        const res = await send(app(), route, { url: urlOf(route, { [name]: UNKNOWN_ID }), body: '[]' });
        expect(res.statusCode).toBe(422);
      });
    }
  }

  if (route.method === 'POST') {
    it('answers 422 for a missing body and for a body that is not JSON', async () => {
      const missing = await send(app(), route, { body: null });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().detail).toEqual([{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }]);

      const broken = await send(app(), route, { body: '{"pagination":' });
      expect(broken.statusCode).toBe(422);
      expect(broken.json().detail[0]).toMatchObject({ type: 'json_invalid', msg: 'JSON decode error' });
    });
  }
}
