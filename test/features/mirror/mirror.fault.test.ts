/**
 * mirror against a source that misbehaves: a proxy (node:http) in front of this service answers 429
 * and 5xx now and then or drops the connection (the mirror still succeeds), sends a malformed page
 * or never answers (the mirror stops with a message naming the URL, and the target is unchanged),
 * or refuses the key.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS } from '../../helpers/fixtures.js';
import { closeAfterFile } from '../../helpers/teardown.js';
import { dumpDatabase } from '../../import/helpers.js';
import { answersOf, createTarget, FAST, idsOf, mirror, startSource, targetApp, withoutVersions } from '../../helpers/mirror-world.js';

type Fault = 'pass' | 'reset' | 'hang' | { status: number; headers?: Record<string, string>; body: string };

interface Seen {
  n: number;
  method: string;
  url: string;
  body: string;
}

let source: Awaited<ReturnType<typeof startSource>>;
beforeAll(async () => {
  source = await startSource();
});
afterAll(() => source.destroy());

const KEY = KEYS.activeA1;

/** A proxy in front of the source; `plan` decides what each request (numbered from 1) gets. */
async function proxy(plan: (seen: Seen) => Fault): Promise<{ url: string; seen: Seen[] }> {
  const target = new URL(source.url);
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const entry = { n: seen.length + 1, method: req.method!, url: req.url!, body };
      seen.push(entry);
      const fault = plan(entry);
      if (fault === 'reset') return void req.socket.destroy();
      if (fault === 'hang') return;
      if (fault !== 'pass') {
        res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
        return void res.end(fault.body);
      }
      const forward = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        },
      );
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeAfterFile(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const isOffersPage = (s: Seen, page: number) => s.method === 'POST' && s.url.startsWith('/api/v1/offers') && JSON.parse(s.body).pagination.page === page;

describe('a source that fails now and then', () => {
  it('answers 429, 500, 503 and drops connections: retried with backoff, and the copy is exact', async () => {
    // Every request fails its first try (alternately 429 with Retry-After, 500, a dropped
    // connection, 503), and every third one its second try too.
    const tries = new Map<string, number>();
    const faults: Fault[] = [
      { status: 429, headers: { 'retry-after': '1' }, body: '{"detail":"Rate limit exceeded"}' },
      { status: 500, body: '{"detail":"Internal Server Error"}' },
      'reset',
      { status: 503, body: '{"detail":"Service Unavailable"}' },
    ];
    let distinct = 0;
    const { url, seen } = await proxy((s) => {
      const id = `${s.method} ${s.url} ${s.body}`;
      const n = (tries.get(id) ?? 0) + 1;
      tries.set(id, n);
      if (n === 1) distinct += 1;
      if (n === 1 || (n === 2 && distinct % 3 === 0)) return faults[(distinct + n) % faults.length]!;
      return 'pass';
    });
    const target = await createTarget();
    const run = await mirror(target, ['--from', url, '--key', KEY, '--json', '--page-size', '2', ...FAST]);
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.offers.created).toBe(6);
    expect(doc.mirror.retries).toBe(seen.length - distinct);
    expect(doc.mirror.retries).toBeGreaterThanOrEqual(distinct);
    expect(doc.mirror.requests).toBe(seen.length);

    const ids = await idsOf(source.app, KEY);
    const want = await answersOf(source.app, KEY, ids);
    const got = await answersOf(await targetApp(target), KEY, ids);
    expect(got.map((a) => withoutVersions(a.body))).toEqual(want.map((a) => withoutVersions(a.body)));
  });

  it('says on stderr what it retries, without the key', async () => {
    let first = true;
    const { url } = await proxy(() => {
      if (!first) return 'pass';
      first = false;
      return { status: 502, body: '<html>Bad Gateway</html>' };
    });
    const target = await createTarget();
    const run = await mirror(target, ['--from', url, '--key', KEY, ...FAST]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(new RegExp(`^GET ${url}/api/v1/organization: 502; trying again in \\d+\\.\\d s \\(2 of 6\\)\\n`));
    expect(run.stdout + run.stderr).not.toContain(KEY);
  });

  it('gives up after --attempts tries, naming the URL and the last failure', async () => {
    const { url, seen } = await proxy(() => ({ status: 503, body: '{"detail":"Service Unavailable"}' }));
    const target = await createTarget();
    const before = await dumpDatabase(target.db);
    const run = await mirror(target, ['--from', url, '--key', KEY, '--attempts', '3', '--json', ...FAST]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({ error: `GET ${url}/api/v1/organization failed 3 times; the last time: 503 Service Unavailable` });
    expect(seen).toHaveLength(3);
    expect(await dumpDatabase(target.db)).toEqual(before);
  });

  it('gives up on a source that never answers (--timeout)', async () => {
    const { url } = await proxy(() => 'hang');
    const target = await createTarget();
    const run = await mirror(target, ['--from', url, '--key', KEY, '--attempts', '2', '--timeout', '1', ...FAST]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error: GET ${url}/api/v1/organization failed 2 times; the last time: no answer in time\n`);
  });
});

describe('a malformed answer or a refused key stops the mirror; the target is unchanged', () => {
  /** A target that holds a first mirror already, so "unchanged" means something. */
  async function mirroredTarget() {
    const target = await createTarget();
    expect((await mirror(target, ['--from', source.url, '--key', KEY, '--json', ...FAST])).code).toBe(0);
    return { target, before: await dumpDatabase(target.db) };
  }

  it('a page of the wrong shape', async () => {
    const { target, before } = await mirroredTarget();
    const { url } = await proxy((s) => {
      if (!isOffersPage(s, 2)) return 'pass';
      const page = { items: [{ offer_id: '0ffa0000-0000-4000-8000-000000000009', external_id: 'X', created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z', version: 1, offer_data: { price: 'cheap' } }], page: 2, size: 2, total: 6, pages: 3 };
      return { status: 200, body: JSON.stringify(page) };
    });
    const run = await mirror(target, ['--from', url, '--key', KEY, '--page-size', '2', '--prune', '--json', ...FAST]);
    expect(run.code).toBe(1);
    const { error } = JSON.parse(run.stdout) as { error: string };
    expect(error).toMatch(new RegExp(`^malformed answer from POST ${url}/api/v1/offers\\?include=agent,branch,investment \\(page 2\\): items\\[0\\]\\.offer_data\\.price: `));
    expect(await dumpDatabase(target.db)).toEqual(before);
  });

  it('a page that is not JSON', async () => {
    const { target, before } = await mirroredTarget();
    const { url } = await proxy((s) => (isOffersPage(s, 3) ? { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>maintenance</html>' } : 'pass'));
    const run = await mirror(target, ['--from', url, '--key', KEY, '--page-size', '2', '--prune', ...FAST]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error: malformed answer from POST ${url}/api/v1/offers?include=agent,branch,investment: not JSON (text/html, 24 bytes)\n`);
    expect(await dumpDatabase(target.db)).toEqual(before);
  });

  it('a list that is not a list', async () => {
    const { target, before } = await mirroredTarget();
    const { url } = await proxy((s) => (s.url === '/api/v1/branches' ? { status: 200, body: '{"items":[]}' } : 'pass'));
    const run = await mirror(target, ['--from', url, '--key', KEY, '--json', ...FAST]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).error).toMatch(new RegExp(`^malformed answer from GET ${url}/api/v1/branches: the answer: `));
    expect(await dumpDatabase(target.db)).toEqual(before);
  });

  it('a key the source refuses (401), at once and without retrying', async () => {
    const { target, before } = await mirroredTarget();
    const { url, seen } = await proxy(() => 'pass');
    const run = await mirror(target, ['--from', url, '--key', KEYS.inactiveA1, '--json', ...FAST]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({ error: `the source refused the key: 401 API key is not active (GET ${url}/api/v1/organization)` });
    expect(seen).toHaveLength(1);
    expect(await dumpDatabase(target.db)).toEqual(before);
  });

  it('a key refused halfway (403 on a later page)', async () => {
    const { target, before } = await mirroredTarget();
    const { url } = await proxy((s) => (isOffersPage(s, 2) ? { status: 403, body: '{"detail":"Forbidden"}' } : 'pass'));
    const run = await mirror(target, ['--from', url, '--key', KEY, '--page-size', '2', ...FAST]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error: the source refused the key: 403 Forbidden (POST ${url}/api/v1/offers?include=agent,branch,investment)\n`);
    expect(await dumpDatabase(target.db)).toEqual(before);
  });
});
