/**
 * The mirror's HTTP client and reader against small hand-made sources (node:http): waits are
 * recorded instead of slept, so Retry-After and the backoff are checked exactly and quickly.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { backoffMs, derivedWebsiteId, retryAfterMs, SourceClient, sourceBase } from '../../../src/features/mirror/index.js';
import { readSource } from '../../../src/features/mirror/crawl.js';
import { closeAfterFile } from '../../helpers/teardown.js';

type Handler = (req: { method: string; url: string; body: string }) => { status: number; headers?: Record<string, string>; body: unknown };

async function fakeSource(handler: Handler): Promise<string> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const answer = handler({ method: req.method!, url: req.url!, body });
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeAfterFile(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function recorder() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe('retries', () => {
  it('honours Retry-After (seconds), capped', async () => {
    let n = 0;
    const url = await fakeSource(() => (++n <= 2 ? { status: 429, headers: { 'retry-after': n === 1 ? '7' : '120' }, body: { detail: 'Rate limit exceeded' } } : { status: 200, body: [] }));
    const { waits, sleep } = recorder();
    const client = new SourceClient(sourceBase(url), 'key', { sleep, retryAfterCapMs: 60_000 });
    expect(await client.get('/api/v1/branches')).toEqual([]);
    expect(waits).toEqual([7_000, 60_000]);
    expect(client.stats).toEqual({ requests: 3, retries: 2 });
  });

  it('backs off exponentially with jitter on 5xx, up to the largest step', async () => {
    const url = await fakeSource(() => ({ status: 500, body: { detail: 'Internal Server Error' } }));
    const { waits, sleep } = recorder();
    const client = new SourceClient(sourceBase(url), 'key', { sleep, random: () => 0.999999, attempts: 6, baseDelayMs: 100, maxDelayMs: 500 });
    await expect(client.get('/api/v1/organization')).rejects.toThrow(`GET ${url}/api/v1/organization failed 6 times; the last time: 500 Internal Server Error`);
    expect(waits).toEqual([100, 200, 400, 500, 500]);
    const low = recorder();
    const jittered = new SourceClient(sourceBase(url), 'key', { sleep: low.sleep, random: () => 0, attempts: 3, baseDelayMs: 100 });
    await expect(jittered.get('/api/v1/organization')).rejects.toThrow();
    expect(low.waits).toEqual([50, 100]); // at least half of each step
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs('Wed, 21 Oct 2037 07:28:10 GMT', Date.parse('Wed, 21 Oct 2037 07:28:00 GMT'))).toBe(10_000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT')).toBe(0);
    expect(backoffMs(1, { baseDelayMs: 500, maxDelayMs: 30_000 }, () => 0.5)).toBe(375);
  });

  it('stops at once on another 4xx, with the detail', async () => {
    const url = await fakeSource(() => ({ status: 404, body: { detail: 'Organization not found' } }));
    const client = new SourceClient(sourceBase(url), 'key', recorder());
    await expect(client.get('/api/v1/organization')).rejects.toThrow(`GET ${url}/api/v1/organization answered 404 Organization not found`);
    expect(client.stats.requests).toBe(1);
  });

  it('does not follow a redirect with the key', async () => {
    let hits = 0;
    const elsewhere = await fakeSource(() => ((hits += 1), { status: 200, body: [] }));
    const url = await fakeSource(() => ({ status: 301, headers: { location: `${elsewhere}/api/v1/branches` }, body: '' }));
    const client = new SourceClient(sourceBase(url), 'key', recorder());
    await expect(client.get('/api/v1/branches')).rejects.toThrow(
      `GET ${url}/api/v1/branches redirects to ${elsewhere}/api/v1/branches (301); give --from the address it redirects to (the key is never sent on)`,
    );
    expect(hits).toBe(0);
  });
});

describe('the source address', () => {
  it('accepts the service address or its /api/v1 prefix, http(s) only', () => {
    expect(sourceBase('https://old.example.com/').href).toBe('https://old.example.com/');
    expect(sourceBase('https://old.example.com/content/api/v1/').href).toBe('https://old.example.com/content');
    expect(() => sourceBase('old.example.com')).toThrow('--from: not a URL');
    expect(() => sourceBase('https://old.example.com/?key=1')).toThrow('query');
  });

  it('derives the same website id from the same address and key', () => {
    const a = derivedWebsiteId('https://old.example.com', 'a'.repeat(64));
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(derivedWebsiteId('https://old.example.com', 'a'.repeat(64))).toBe(a);
    expect(derivedWebsiteId('https://old.example.com', 'b'.repeat(64))).not.toBe(a);
  });
});

describe('reading a source that is not quite this service', () => {
  const ORG = '11111111-1111-4111-8111-111111111111';
  const BRANCH = '22222222-2222-4222-8222-222222222222';
  const HIDDEN_BRANCH = '22222222-2222-4222-8222-999999999999';
  const AGENT = '33333333-3333-4333-8333-333333333333';
  const LINKED_AGENT = '33333333-3333-4333-8333-444444444444';
  const LINKED_BRANCH = '22222222-2222-4222-8222-444444444444';
  const INVESTMENT = '44444444-4444-4444-8444-444444444444';
  const INVESTMENT2 = '44444444-4444-4444-8444-555555555555';
  const offer = (n: number, extra: Record<string, unknown> = {}) => ({
    offer_id: `55555555-5555-4555-8555-${String(n).padStart(12, '0')}`,
    external_id: `X-${n}`,
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-02T00:00:00Z',
    version: 4,
    offer_data: { price: 100 + n, legacy_field: 'x' },
    ...extra,
  });

  it('takes what the interface allows: absent optional fields, paged investments, its own page size; says what it changed', async () => {
    const url = await fakeSource(({ method, url, body }) => {
      if (url === '/api/v1/organization') return { status: 200, body: { organization_id: ORG, name: 'Old Agency', extra: 1 } };
      if (url === '/api/v1/branches') return { status: 200, body: [{ branch_id: BRANCH, webpage_id: BRANCH, organization_id: ORG, name: 'B' }] };
      if (url === `/api/v1/branches/${BRANCH}/agents`) return { status: 200, body: [{ agent_id: AGENT, branch_id: HIDDEN_BRANCH, last_name: 'Nowak' }] };
      if (url === '/api/v1/agents') return { status: 200, body: [{ agent_id: AGENT, branch_id: HIDDEN_BRANCH, last_name: 'Nowak' }] };
      if (url === '/api/v1/investments') return { status: 200, body: { items: [{ investment_id: INVESTMENT2, name: 'H' }], page: 1, pages: 2 } };
      if (url === '/api/v1/investments?page=2') return { status: 200, body: { items: [{ investment_id: INVESTMENT, name: 'I', is_active: false }], page: 2, pages: 2 } };
      if (method === 'POST' && url.startsWith('/api/v1/offers?include=')) {
        const { pagination } = JSON.parse(body) as { pagination: { page: number; size?: number } };
        if (pagination.size !== undefined) return { status: 422, body: { detail: [{ type: 'less_than_equal', loc: ['body', 'pagination', 'size'] }] } };
        // Pages of 2 (its default); offer 2 shows up on both pages, as when the source changes meanwhile.
        const items = pagination.page === 1 ? [offer(1), offer(2, { agent: { agent_id: LINKED_AGENT, last_name: 'Linked' } })] : [offer(2), offer(3, { branch: { branch_id: LINKED_BRANCH, webpage_id: LINKED_BRANCH, organization_id: ORG, name: 'Linked B' } })];
        return { status: 200, body: { items, page: pagination.page, size: 2, total: 4, pages: 2 } };
      }
      return { status: 404, body: { detail: 'Not Found' } };
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-mirror-read-'));
    try {
      const content = await readSource(new SourceClient(sourceBase(url), 'key', recorder()), dir);
      expect(content.entities.organizations).toEqual([{ type: 'organization', organization_id: ORG, name: 'Old Agency' }]);
      expect(content.entities.investments).toEqual([{ type: 'investment', investment_id: INVESTMENT2, name: 'H', organization_id: ORG }, { type: 'investment', investment_id: INVESTMENT, name: 'I', is_active: false, organization_id: ORG }]);
      expect(content.entities.agents).toEqual([
        { type: 'agent', agent_id: AGENT, branch_id: null, last_name: 'Nowak', organization_id: ORG },
        { type: 'agent', agent_id: LINKED_AGENT, last_name: 'Linked', organization_id: ORG },
      ]);
      const offers = fs.readFileSync(content.offersFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(offers.map((o) => o.external_id)).toEqual(['X-1', 'X-2', 'X-3']);
      expect(offers[1]).toEqual({
        type: 'offer',
        offer_id: offer(2).offer_id,
        organization_id: ORG,
        external_id: 'X-2',
        agent_id: LINKED_AGENT,
        branch_id: null,
        investment_id: null,
        created_at: '2025-01-01T00:00:00Z',
        offer_data: { price: 102 },
      });
      expect(content.warnings).toEqual([
        'the source refused a page size of 100; read 2 a page (its default)',
        '1 offer appeared on two pages (the source changed while it was read); each was kept once',
        'the source counted 4 offers but 3 offers were read (it changed while it was read); mirror again for an exact copy',
        'offer_data fields this service does not know were left out: legacy_field',
        '1 agent linked from offers but missing from the lists; taken from the offers',
        '1 branch linked from offers but missing from the lists; taken from the offers',
        `agent ${AGENT} names branch ${HIDDEN_BRANCH}, which the key does not see; stored without a branch`,
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
