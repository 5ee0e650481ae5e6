import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/routes.js';
import { buildTestApp, get, type TestApp } from '../helpers/app.js';

type Doc = {
  openapi: string;
  servers: { url: string }[];
  info: { version: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};
type Operation = {
  operationId: string;
  description?: string;
  security?: unknown;
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: unknown; example?: unknown; examples?: unknown }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
};

/** /api/v1/branches/:branch_id -> /api/v1/branches/{branch_id} */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('GET /openapi.json and /docs', () => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await buildTestApp({ seed: false });
    const res = await get(t, '/openapi.json', { key: null });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(() => t.destroy());

  it('is OpenAPI 3.1, version 1.0.0, with the APIKeyHeader scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.components.securitySchemes).toEqual({ APIKeyHeader: { type: 'apiKey', in: 'header', name: 'Authorization' } });
  });

  it('documents every route of the table (and only those), /api/v1 ones with the key, 401 and 422', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    const expected = ROUTES.filter((r) => !r.hidden).map((r) => `${r.method} ${openApiPath(r.url)}`);
    expect(documented.sort()).toEqual(expected.sort());
    for (const route of ROUTES.filter((r) => r.url.startsWith('/api/v1'))) {
      const op = doc.paths[openApiPath(route.url)]![route.method.toLowerCase()]!;
      expect(op.security, route.url).toEqual([{ APIKeyHeader: [] }]);
      expect(Object.keys(op.responses), route.url).toEqual(expect.arrayContaining(['200', '401', '422']));
      // (The sitemap's `?page=N` addresses one part: past the last, 404.)
      const addressesOne = route.url.includes(':') || route.url === '/api/v1/organization' || route.url === '/api/v1/sitemap.xml';
      expect('404' in op.responses, route.url).toBe(addressesOne);
    }
  });

  it('names its server (relative: this service) and states that public routes need no key', () => {
    expect(doc.servers.map((s) => s.url)).toEqual(['/']);
    for (const route of ROUTES.filter((r) => !r.auth && !r.hidden)) {
      expect(doc.paths[openApiPath(route.url)]![route.method.toLowerCase()]!.security, route.url).toEqual([]);
    }
  });

  it('declares the 400 of an unreadable body on every operation that reads a body', () => {
    for (const route of ROUTES.filter((r) => r.url.startsWith('/api/v1'))) {
      const op = doc.paths[openApiPath(route.url)]![route.method.toLowerCase()]!;
      expect('400' in op.responses, route.url).toBe(route.method === 'POST');
    }
  });

  it('declares XML next to JSON on the three offer operations', () => {
    const offerOps = [
      doc.paths['/api/v1/offers']!.post!,
      doc.paths['/api/v1/offers/{offer_id}']!.get!,
      doc.paths['/api/v1/investments/{investment_id}/offers']!.post!,
    ];
    for (const op of offerOps) expect(Object.keys(op.responses['200']!.content!)).toEqual(['application/json', 'application/xml']);
    expect(Object.keys(doc.paths['/api/v1/branches']!.get!.responses['200']!.content!)).toEqual(['application/json']);
  });

  it('describes path, query and body inputs, with an example search', () => {
    const one = doc.paths['/api/v1/offers/{offer_id}']!.get!;
    expect(one.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ in: 'path', name: 'offer_id', required: true }),
        expect.objectContaining({ in: 'query', name: 'include' }),
      ]),
    );
    const search = doc.paths['/api/v1/offers']!.post!;
    const media = search.requestBody!.content['application/json']!;
    expect(JSON.stringify(media)).toContain('Kraków');
    expect(JSON.stringify(media)).toContain('"between"');
    expect(search.description).toContain('| field type | operators | fields |');
    expect(search.description).toContain('`starts_with`');
    // is_active, and lang (translations, extension E12).
    expect(doc.paths['/api/v1/investments']!.get!.parameters).toEqual([
      expect.objectContaining({ in: 'query', name: 'is_active' }),
      expect.objectContaining({ in: 'query', name: 'lang' }),
    ]);
  });

  it('resolves every $ref to a component schema', () => {
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(doc.components.schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
    }
    for (const name of ['Organization', 'Branch', 'Agent', 'Investment', 'Offer', 'OffersResponse', 'HTTPValidationError', 'ErrorResponse']) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
  });

  it('serves interactive docs at /docs without a key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs' });
    expect([200, 302]).toContain(res.statusCode);
    const page = res.statusCode === 302 ? await t.app.inject({ method: 'GET', url: res.headers.location as string }) : res;
    expect(page.headers['content-type']).toContain('text/html');
  });

  it('sends a browser at the address of the service (GET /) to the docs, without a key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/docs');
    expect(res.json()).toEqual({ detail: 'See /docs' });
    // /api/v1 answers stay as the contract says.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1' })).json()).toEqual({ detail: 'Not Found' });
  });
});

describe('GET /health', () => {
  it('answers {"status":"ok"} without a key when the database answers', async () => {
    const t = await buildTestApp({ seed: false });
    try {
      const res = await get(t, '/health', { key: null });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok' });
      // A wrong key does not matter there.
      expect((await get(t, '/health', { key: 'nonsense' })).statusCode).toBe(200);
    } finally {
      await t.destroy();
    }
  });
});
