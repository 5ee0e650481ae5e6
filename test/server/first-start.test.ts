/**
 * The newcomer's path, as a real process: `npm start` on an empty DATA_DIR loads the demo and
 * prints a key that works; a later start prints how to get a key (and, with several websites, the
 * command that lists them); a DATABASE_URL database never gets demo data.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createThrowawayPostgres, onPostgres } from '../helpers/db.js';
import { runCliProcess, startServer as startProcess, stopServer, type ServerProcess } from '../helpers/processes.js';

/** The service as `npm start` runs it (LOG_LEVEL info), once it answers /health and has printed what it prints at start. */
async function startServer(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const server = await startProcess({ LOG_LEVEL: 'info', ...env });
  for (let i = 0; i < 300; i++) {
    const health = await fetch(`http://127.0.0.1:${server.port}/health`).catch(() => undefined);
    if (health?.status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // Give the text written after listen() a moment to arrive.
  await new Promise((r) => setTimeout(r, 200));
  return server;
}

describe('first start', () => {
  it('loads the demo into an empty DATA_DIR, prints a working key and a curl line, and stops cleanly', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-first-start-'));
    try {
      const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: undefined });
      const { output, port } = server;
      const key = /^ {2}(ecs_[A-Za-z0-9_-]{43})$/m.exec(output())?.[1];
      expect(key, output()).toBeDefined();
      expect(output()).toContain(`curl -s -H 'Authorization: ${key}' http://127.0.0.1:${port}/api/v1/organization`);

      const org = await fetch(`http://127.0.0.1:${port}/api/v1/organization`, { headers: { Authorization: key! } });
      expect(org.status).toBe(200);
      const page = await fetch(`http://127.0.0.1:${port}/api/v1/offers`, {
        method: 'POST',
        headers: { Authorization: key!, 'Content-Type': 'application/json' },
        body: JSON.stringify({ pagination: {} }),
      });
      expect(page.status).toBe(200);
      const body = (await page.json()) as { total: number; items: unknown[] };
      expect(body.total).toBeGreaterThan(100);
      expect(body.items).toHaveLength(50);
      expect(await stopServer(server)).toBe(0);

      // A second start on the same folder loads nothing again and prints no key, but how to get one.
      const again = await startServer({ DATA_DIR: dataDir, DATABASE_URL: undefined });
      expect(again.output()).not.toMatch(/ecs_[A-Za-z0-9_-]{43}/);
      const websiteId = /Demo website ([0-9a-f-]{36})/.exec(output())?.[1];
      expect(again.output()).toContain(`Need an API key? In another terminal: npm run cli -- keys create --website ${websiteId} (`);
      expect(await stopServer(again)).toBe(0);

      // With a second website the hint names the command that lists websites, and that command
      // (run by the service, which holds the folder) lists both.
      const env = { DATA_DIR: dataDir, DATABASE_URL: undefined };
      expect((await runCliProcess(['import', 'examples/bundle.ndjson'], env)).code).toBe(0);
      const third = await startServer(env);
      expect(third.output()).toContain('(or another website: npm run cli -- websites list)');
      const listed = await runCliProcess(['websites', 'list', '--json'], env);
      expect(listed.code, listed.stderr).toBe(0);
      expect((JSON.parse(listed.stdout) as Array<{ website_id: string }>).map((w) => w.website_id)).toEqual(
        expect.arrayContaining([websiteId, '0b6f8a2e-51c4-4f7e-8a3d-9c2e1f4b7d02']),
      );
      expect(await stopServer(third)).toBe(0);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.runIf(onPostgres)('never loads demo data into a DATABASE_URL database', async () => {
    const pg = await createThrowawayPostgres();
    try {
      const server = await startServer({ DATABASE_URL: pg.url });
      const { output } = server;
      expect(output()).not.toMatch(/ecs_[A-Za-z0-9_-]{43}/);
      const { default: Client } = await import('pg').then((m) => ({ default: m.default.Client }));
      const c = new Client({ connectionString: pg.url });
      await c.connect();
      const counts = await c.query('select (select count(*) from organizations)::int as o, (select count(*) from offers)::int as f');
      await c.end();
      expect(counts.rows[0]).toEqual({ o: 0, f: 0 });
      expect(await stopServer(server)).toBe(0);
    } finally {
      await pg.drop();
    }
  });
});
