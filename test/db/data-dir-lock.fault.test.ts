/**
 * One process at a time in an embedded database's folder (src/db/data-dir-lock.ts), shown with
 * real processes: two services, a service and the command line, kill -9 of the owner and a start
 * right after, and several processes breaking one stale lock at once.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE, lockDataDir, readLockOwner } from '../../src/db/data-dir-lock.js';
import { copyMigratedDataDir } from '../helpers/db.js';
import { projectRoot, runCliProcess, startServer, stopServer } from '../helpers/processes.js';
import { scaled } from '../helpers/scale.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-lock-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Races of six processes for one stale lock. */
const RACE_ROUNDS = scaled('LOCK_RACE_ROUNDS', 1, 3);

let folders = 0;
const newDataDir = () => path.join(tmp, `data-${++folders}`);

/** A pid that no process has: a child that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

function writeLock(dataDir: string, pid: number): void {
  fs.mkdirSync(dataDir, { recursive: true });
  const owner = { pid, started: null, role: 'service', doing: 'serving http://127.0.0.1:1', since: new Date().toISOString(), host: os.hostname(), token: 'stale' };
  fs.writeFileSync(path.join(dataDir, LOCK_FILE), JSON.stringify(owner));
}

describe('the embedded database folder has one owner', () => {
  it('a second service on the same DATA_DIR refuses to start, naming the first, and leaves its lock alone', async () => {
    const dataDir = newDataDir();
    // A migrated folder: what is in it does not matter here, and a first start (the demo) takes long.
    copyMigratedDataDir(dataDir);
    const first = await startServer({ DATA_DIR: dataDir, DATABASE_URL: undefined });
    const owner = readLockOwner(dataDir);
    expect(owner).toMatchObject({ pid: first.child.pid, role: 'service' });

    const second = await startServer({ DATA_DIR: dataDir, DATABASE_URL: undefined }).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(second).toMatch(/server exited \(1\) before listening/);
    expect(second).toContain(`is in use by the service (process ${first.child.pid}`);
    // The first still owns the folder and still answers.
    expect(readLockOwner(dataDir)).toEqual(owner);
    expect(fs.existsSync(path.join(dataDir, 'postmaster.pid'))).toBe(true);
    expect((await fetch(`http://127.0.0.1:${first.port}/health`)).status).toBe(200);
    expect(await stopServer(first)).toBe(0);
    // A clean stop releases the lock.
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  });

  it('the command line reaches the service that holds the folder; a second command line is refused', async () => {
    const dataDir = newDataDir();
    const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: undefined });
    // Run by the service, in its process, on its open database.
    const listed = await runCliProcess(['keys', 'list', '--json'], { DATA_DIR: dataDir, DATABASE_URL: undefined });
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toHaveLength(1); // the demo key
    expect(readLockOwner(dataDir)?.pid).toBe(server.child.pid);
    expect(await stopServer(server)).toBe(0);

    // A folder held by another command line (its import under way) is refused, naming it.
    const lock = lockDataDir(dataDir, { role: 'command line', doing: 'import big.ndjson' });
    try {
      const refused = await runCliProcess(['keys', 'list', '--json'], { DATA_DIR: dataDir, DATABASE_URL: undefined });
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout).error).toContain(`is in use by the command line (process ${process.pid}, import big.ndjson`);
    } finally {
      lock.release();
    }
  });

  it('after kill -9 of the service, the next start takes the stale lock over and serves the same data', async () => {
    const dataDir = newDataDir();
    const first = await startServer({ DATA_DIR: dataDir, DATABASE_URL: undefined });
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    expect(readLockOwner(dataDir)?.pid).toBe(first.child.pid); // left behind

    const second = await startServer({ DATA_DIR: dataDir, DATABASE_URL: undefined });
    expect(readLockOwner(dataDir)?.pid).toBe(second.child.pid);
    // The demo loaded by the first start is still there (a second start loads nothing).
    expect(second.output()).not.toMatch(/ecs_[A-Za-z0-9_-]{43}/);
    expect(await stopServer(second)).toBe(0);

    const listed = await runCliProcess(['keys', 'list', '--json'], { DATA_DIR: dataDir, DATABASE_URL: undefined });
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toHaveLength(1); // the demo key
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
  });

  it('takes over a lock whose process is gone, and refuses one whose process runs', async () => {
    const stale = newDataDir();
    writeLock(stale, await deadPid());
    const lock = lockDataDir(stale, { role: 'command line', doing: 'test' });
    expect(readLockOwner(stale)?.pid).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(path.join(stale, LOCK_FILE))).toBe(false);

    const held = newDataDir();
    writeLock(held, process.ppid); // a process that runs: vitest's own
    expect(() => lockDataDir(held, { role: 'command line', doing: 'test' })).toThrow(`in use by the service (process ${process.ppid}`);
    expect(readLockOwner(held)?.token).toBe('stale');
  });

  it('never releases a lock that is no longer its own', () => {
    const dataDir = newDataDir();
    const lock = lockDataDir(dataDir, { role: 'command line', doing: 'test' });
    writeLock(dataDir, process.ppid); // someone else's now
    lock.release();
    expect(readLockOwner(dataDir)?.pid).toBe(process.ppid);
  });

  it('of several processes taking over one stale lock at once, exactly one wins', async () => {
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const dataDir = newDataDir();
      writeLock(dataDir, await deadPid());
      // The winner keeps its lock until the test ends the race (a racer that started late must
      // still find it held).
      // The built module (test/global-setup.ts builds dist/): without tsx's start-up the six
      // processes reach the lock closer together, and in a fraction of the time.
      const script = `
        import { lockDataDir } from './dist/db/data-dir-lock.js';
        try { lockDataDir(${JSON.stringify(dataDir)}, { role: 'command line', doing: 'race' }); console.log('won'); setTimeout(() => {}, 60000); }
        catch (error) { console.log('lost'); }`;
      const children = Array.from({ length: 6 }, () =>
        spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: projectRoot }),
      );
      const racers = children.map(
        (child) =>
          new Promise<string>((resolve) => {
            let out = '';
            child.stdout.on('data', (d: Buffer) => {
              out += d.toString();
              if (out.includes('\n')) resolve(out.trim());
            });
            child.once('exit', () => resolve(out.trim()));
          }),
      );
      const results = await Promise.all(racers);
      for (const child of children) child.kill('SIGKILL');
      expect(results.filter((r) => r === 'won'), results.join(',')).toHaveLength(1);
      expect(results.filter((r) => r === 'lost')).toHaveLength(5);
    }
  });
});
