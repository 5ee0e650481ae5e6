/**
 * The webhooks commands (in-process, on a test database): URLs that are not http(s) are refused
 * with a clear message, the signing secret is printed once and never listed, and list, remove,
 * test and deliveries answer in text and in JSON.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../../src/cli/run.js';
import { createTestDb, type TestDb } from '../../helpers/db.js';
import { insertFixture, WEBSITE_A1, WEBSITE_A2 } from '../../helpers/fixtures.js';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
  await insertFixture(t.db);
});

class Capture {
  text = '';
  write(chunk: string) {
    this.text += chunk;
    return true;
  }
}

async function cli(args: string[], database: CliIo['database'] = t) {
  const stdout = new Capture();
  const stderr = new Capture();
  const code = await runCli(args, { env: {}, stdout, stderr, database });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

async function add(url: string, website = WEBSITE_A1) {
  const r = await cli(['webhooks', 'add', '--website', website, '--url', url, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { endpoint_id: string; website_id: string; url: string; secret: string };
}

describe('webhooks add', () => {
  it.each([
    ['ftp://example.com/hook', 'webhook URLs must use http or https, got ftp ("ftp://example.com/hook")'],
    ['file:///etc/passwd', 'webhook URLs must use http or https, got file ("file:///etc/passwd")'],
    ['javascript:alert(1)', 'webhook URLs must use http or https, got javascript ("javascript:alert(1)")'],
    ['example.com/hook', '"example.com/hook" is not a URL; give an http:// or https:// URL such as https://www.example.com/hooks/estate'],
    ['https://user:pw@example.com/hook', 'the URL must not hold a user name or password (the signature authenticates the service)'],
  ])('refuses %s with a clear message', async (url, message) => {
    const r = await cli(['webhooks', 'add', '--website', WEBSITE_A1, '--url', url]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: ${message}\n`);
    const json = await cli(['webhooks', 'add', '--website', WEBSITE_A1, '--url', url, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ error: message });
    expect(JSON.parse((await cli(['webhooks', 'list', '--json'])).stdout).filter((e: { url: string }) => e.url === url)).toEqual([]);
  });

  it('accepts any http(s) URL, loopback and private addresses included', async () => {
    for (const url of ['http://127.0.0.1:9999/hooks', 'http://localhost/x', 'https://10.1.2.3/estate?token=abc', 'http://[::1]:8080/']) {
      expect((await add(url)).url).toBe(new URL(url).href);
    }
  });

  it('refuses an unknown website, an id that is not a UUID and a missing option', async () => {
    const unknown = await cli(['webhooks', 'add', '--website', '00000000-0000-4000-8000-000000000000', '--url', 'https://example.com/h']);
    expect(unknown).toMatchObject({ code: 1, stderr: 'error: unknown website 00000000-0000-4000-8000-000000000000\n' });
    const bad = await cli(['webhooks', 'add', '--website', 'nope', '--url', 'https://example.com/h']);
    expect(bad).toMatchObject({ code: 1, stderr: 'error: website id must be a UUID, got "nope"\n' });
    const missing = await cli(['webhooks', 'add', '--website', WEBSITE_A1]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--url <url>' not specified");
  });

  it('prints the signing secret once; no listing shows it', async () => {
    const text = await cli(['webhooks', 'add', '--website', WEBSITE_A2, '--url', 'https://site.example/hooks']);
    expect(text.code).toBe(0);
    const secret = /whsec_[A-Za-z0-9+/=]+/.exec(text.stdout)![0];
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(text.stdout).toMatch(/^Added webhook endpoint [0-9a-f-]{36} for website [0-9a-f-]{36}: https:\/\/site\.example\/hooks\n/);
    expect(text.stdout).toContain('shown only now');

    const json = await add('https://site.example/other', WEBSITE_A2);
    expect(json.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(json.secret).not.toBe(secret);
    await cli(['webhooks', 'test', json.endpoint_id]);

    for (const args of [['webhooks', 'list'], ['webhooks', 'list', '--json'], ['webhooks', 'deliveries'], ['webhooks', 'deliveries', '--json']]) {
      const r = await cli(args);
      expect(r.code).toBe(0);
      expect(r.stdout).not.toContain('whsec_');
    }
  });
});

describe('webhooks list, test, deliveries, remove', () => {
  it('list --json shows each endpoint with its pending and failed counts', async () => {
    const endpoint = await add('https://list.example/hook', WEBSITE_A2);
    const r = await cli(['webhooks', 'list', '--website', WEBSITE_A2, '--json']);
    expect(r.code).toBe(0);
    const listed = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(listed.find((e) => e.endpoint_id === endpoint.endpoint_id)).toEqual({
      endpoint_id: endpoint.endpoint_id,
      website_id: WEBSITE_A2,
      url: 'https://list.example/hook',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      pending: 0,
      failed: 0,
    });
    expect(listed.every((e) => e.website_id === WEBSITE_A2)).toBe(true);
    const text = await cli(['webhooks', 'list', '--website', WEBSITE_A2]);
    expect(text.stdout).toMatch(/^ {2}ENDPOINT ID +WEBSITE +URL +PENDING +FAILED +CREATED\n/);
    expect(text.stdout).toContain('https://list.example/hook');
  });

  it('test queues a webhook.test message that deliveries lists (the service sends it)', async () => {
    const endpoint = await add('https://test.example/hook');
    const queued = await cli(['webhooks', 'test', endpoint.endpoint_id, '--json']);
    expect(queued.code, queued.stderr).toBe(0);
    const { delivery_id } = JSON.parse(queued.stdout) as { delivery_id: string };
    expect(JSON.parse(queued.stdout)).toEqual({ delivery_id, endpoint_id: endpoint.endpoint_id, event_type: 'webhook.test', status: 'pending' });

    const log = await cli(['webhooks', 'deliveries', '--endpoint', endpoint.endpoint_id, '--json']);
    expect(log.code).toBe(0);
    expect(JSON.parse(log.stdout)).toEqual([
      {
        delivery_id,
        endpoint_id: endpoint.endpoint_id,
        website_id: WEBSITE_A1,
        event_type: 'webhook.test',
        status: 'pending',
        attempts: 0,
        next_attempt_at: expect.any(String),
        last_status: null,
        last_error: null,
        last_attempt_at: null,
        created_at: expect.any(String),
        delivered_at: null,
      },
    ]);
    expect(JSON.parse((await cli(['webhooks', 'deliveries', '--failed', '--json'])).stdout)).toEqual([]);
    expect(JSON.parse((await cli(['webhooks', 'list', '--website', WEBSITE_A1, '--json'])).stdout).find((e: { endpoint_id: string }) => e.endpoint_id === endpoint.endpoint_id).pending).toBe(1);
    const text = await cli(['webhooks', 'test', endpoint.endpoint_id]);
    expect(text.stdout).toMatch(/^Queued test message msg_[0-9a-f]{32} for https:\/\/test\.example\/hook\.\n/);
    const table = await cli(['webhooks', 'deliveries', '--limit', '1']);
    expect(table.stdout).toMatch(/^ {2}DELIVERY ID +ENDPOINT +TYPE +STATUS +ATTEMPTS +LAST RESULT +NEXT ATTEMPT +CREATED\n {2}msg_/);
    expect(table.stdout.trimEnd().split('\n')).toHaveLength(2);
  });

  it('remove drops the endpoint and the messages not yet sent to it', async () => {
    const endpoint = await add('https://remove.example/hook');
    await cli(['webhooks', 'test', endpoint.endpoint_id]);
    const removed = await cli(['webhooks', 'remove', endpoint.endpoint_id, '--json']);
    expect(removed.code, removed.stderr).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual({ endpoint_id: endpoint.endpoint_id, removed: true, dropped_pending: 1 });
    const listed = JSON.parse((await cli(['webhooks', 'list', '--json'])).stdout) as Array<{ endpoint_id: string }>;
    expect(listed.map((e) => e.endpoint_id)).not.toContain(endpoint.endpoint_id);
    const again = await cli(['webhooks', 'remove', endpoint.endpoint_id, '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toEqual({ error: `unknown webhook endpoint ${endpoint.endpoint_id}` });
    const text = await cli(['webhooks', 'remove', (await add('https://remove.example/2')).endpoint_id]);
    expect(text.stdout).toMatch(/^Removed webhook endpoint [0-9a-f-]{36}\.\n$/);
  });

  it('answers unknown ids and bad options with one line and exit 1', async () => {
    const unknown = '00000000-0000-4000-8000-000000000001';
    expect(await cli(['webhooks', 'test', unknown])).toMatchObject({ code: 1, stderr: `error: unknown webhook endpoint ${unknown}\n` });
    expect(await cli(['webhooks', 'test', 'x'])).toMatchObject({ code: 1, stderr: 'error: endpoint id must be a UUID, got "x"\n' });
    expect(await cli(['webhooks', 'deliveries', '--limit', '0'])).toMatchObject({ code: 1, stderr: 'error: --limit must be an integer between 1 and 10000, got "0"\n' });
    expect(await cli(['webhooks', 'deliveries', '--endpoint', 'x'])).toMatchObject({ code: 1, stderr: 'error: endpoint id must be a UUID, got "x"\n' });
  });
});
