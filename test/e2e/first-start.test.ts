/**
 * The newcomer's path, as a real process: `npm start` on an empty DATA_DIR loads the demo and
 * prints a key that works; a DATABASE_URL database never gets demo data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createThrowawayPostgres, onPostgres } from '../helpers/db.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = path.join(root, 'node_modules/.bin/tsx');
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** Starts src/server.ts and resolves once it listens, with everything it printed so far. */
function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string; port: number }> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(tsx, ['src/server.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000);
    const poll = setInterval(async () => {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        if (res.status === 200) {
          clearInterval(poll);
          clearTimeout(deadline);
          // Give the welcome text a moment to be flushed after listen().
          setTimeout(() => resolve({ child, output: () => out, port }), 200);
        }
      } catch {
        /* not listening yet */
      }
    }, 200);
    child.on('exit', (code) => {
      clearInterval(poll);
      clearTimeout(deadline);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('first start', () => {
  it('loads the demo into an empty DATA_DIR, prints a working key and a curl line, and stops cleanly', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-first-start-'));
    try {
      const { child, output, port } = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '' });
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
      expect(await stop(child)).toBe(0);

      // A second start on the same folder loads nothing again and prints no key.
      const again = await startServer({ DATA_DIR: dataDir, DATABASE_URL: '' });
      expect(again.output()).not.toMatch(/ecs_[A-Za-z0-9_-]{43}/);
      expect(await stop(again.child)).toBe(0);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.runIf(onPostgres)('never loads demo data into a DATABASE_URL database', async () => {
    const pg = await createThrowawayPostgres();
    try {
      const { child, output } = await startServer({ DATABASE_URL: pg.url });
      expect(output()).not.toMatch(/ecs_[A-Za-z0-9_-]{43}/);
      const { default: Client } = await import('pg').then((m) => ({ default: m.default.Client }));
      const c = new Client({ connectionString: pg.url });
      await c.connect();
      const counts = await c.query('select (select count(*) from organizations)::int as o, (select count(*) from offers)::int as f');
      await c.end();
      expect(counts.rows[0]).toEqual({ o: 0, f: 0 });
      expect(await stop(child)).toBe(0);
    } finally {
      await pg.drop();
    }
  });
});
