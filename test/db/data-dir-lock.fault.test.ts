/**
 * One process at a time in an embedded database's folder (src/db/data-dir-lock.ts), shown with
 * real processes: two services, a service and the command line, kill -9 of the owner and a start
 * right after, several processes breaking one stale lock at once, and processes stopped (SIGSTOP)
 * at the moment their lock or their claim on a stale lock appears, or killed there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LOCK_FILE, lockDataDir, readLockOwner } from '../../src/db/data-dir-lock.js';
import { copyMigratedDataDir } from '../helpers/db.js';
import { KEY_IDS } from '../helpers/fixtures.js';
import { projectRoot, runCliProcess, seedDataDir, startServer, stopServer } from '../helpers/processes.js';
import { scaled } from '../helpers/scale.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-lock-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Races of six processes for one stale lock. */
const RACE_ROUNDS = scaled('LOCK_RACE_ROUNDS', 1, 3);
/** A round takes about a second alone and a few under load (LOCK_RACE_ROUNDS=50 for a long run). */
const RACE_TIMEOUT_MS = 60_000 + RACE_ROUNDS * 15_000;

let folders = 0;
const newDataDir = () => path.join(tmp, `data-${++folders}`);

/** A pid that no process has: a child that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

/**
 * What a racer does, run by `node` from the build (test/global-setup.ts builds dist/; without tsx's
 * start-up the processes reach the lock closer together). It prints `won` and keeps the lock until
 * it is killed, or `lost <why>`. With STOP_AT (a pattern of file names) it first makes every step of
 * the file system its own (writeFileSync is open, write, close, as inside Node) and stops itself
 * (SIGSTOP) right after the step that makes a new file of that name appear in the folder, printing
 * `stopped` first: a process stalled at the worst moment, for as long as the test likes.
 */
const RACER = `
  import fs from 'node:fs';
  import path from 'node:path';
  import { lockDataDir } from './dist/db/data-dir-lock.js';
  const dataDir = process.env.DATA_DIR;
  if (process.env.STOP_AT) {
    const stopAt = new RegExp(process.env.STOP_AT);
    const original = { ...fs };
    const present = () => {
      const found = new Set();
      try {
        for (const name of original.readdirSync(dataDir)) {
          if (stopAt.test(name)) found.add(name + ':' + original.statSync(path.join(dataDir, name)).ino);
        }
      } catch {} // no folder yet, or a file gone between the two looks: the next step looks again
      return found;
    };
    // Looked at after every step (an inode freed by one step may come back in the next).
    let before = present();
    let stopped = false;
    const check = () => {
      if (stopped) return;
      const now = present();
      const appeared = [...now].some((file) => !before.has(file));
      before = now;
      if (!appeared) return;
      stopped = true;
      original.writeSync(1, 'stopped\\n');
      process.kill(process.pid, 'SIGSTOP');
    };
    for (const name of ['openSync', 'writeSync', 'closeSync', 'linkSync', 'renameSync', 'rmSync', 'unlinkSync', 'mkdirSync']) {
      fs[name] = (...args) => { try { return original[name](...args); } finally { check(); } };
    }
    fs.writeFileSync = (file, data, options) => {
      const fd = fs.openSync(file, options?.flag ?? 'w', options?.mode ?? 0o666);
      try { fs.writeSync(fd, data); } finally { fs.closeSync(fd); }
    };
  }
  try { lockDataDir(dataDir, { role: 'command line', doing: 'race' }); console.log('won'); setTimeout(() => {}, 60000); }
  catch (error) { console.log('lost ' + error.message); }`;

interface Racer {
  readonly child: ChildProcess;
  /** Its line `n` (from 0); '' when it ended without printing it. */
  line(n: number): Promise<string>;
  stderr(): string;
}

const racers: Racer[] = [];
afterEach(() => {
  for (const racer of racers.splice(0)) racer.child.kill('SIGKILL');
});

function racer(dataDir: string, stopAt?: string): Racer {
  const child = spawn(process.execPath, ['--input-type=module', '-e', RACER], {
    cwd: projectRoot,
    env: { ...process.env, DATA_DIR: dataDir, STOP_AT: stopAt ?? '' },
  });
  let out = '';
  let err = '';
  let closed = false;
  let wake: Array<() => void> = [];
  const wakeAll = () => {
    for (const resolve of wake) resolve();
    wake = [];
  };
  child.stdout.on('data', (data: Buffer) => {
    out += data.toString();
    wakeAll();
  });
  child.stderr.on('data', (data: Buffer) => (err += data.toString()));
  // 'close', not 'exit': at 'exit' the last of its output may not have been read yet (a loser
  // exits right after printing), and would be taken for none.
  child.once('close', () => {
    closed = true;
    wakeAll();
  });
  const line = async (n: number): Promise<string> => {
    for (;;) {
      const lines = out.split('\n');
      if (lines.length > n + 1) return lines[n]!;
      if (closed) return '';
      await new Promise<void>((resolve) => wake.push(resolve));
    }
  };
  const started: Racer = { child, line, stderr: () => err };
  racers.push(started);
  return started;
}

/** Waits until the process is stopped (Linux: its state in /proc is T). */
async function untilStopped(pid: number): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('T')) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`process ${pid} did not stop`);
}

/** Answers for a failure message: what a racer that printed nothing wrote to stderr. */
function describeAnswers(answers: readonly string[], of: readonly Racer[]): string {
  return answers.map((answer, i) => `${of[i]!.child.pid}: ${answer || `nothing; stderr: ${of[i]!.stderr()}`}`).join('\n');
}

/**
 * The services below start on a folder seeded with the test fixture, not an empty one: a first
 * start (migrations and the demo, several seconds of CPU) is first-start.test.ts's subject.
 */
const FIXTURE_KEY_IDS = Object.values(KEY_IDS).sort();
const keyIds = (stdout: string) => (JSON.parse(stdout) as Array<{ key_id: string }>).map((k) => k.key_id).sort();

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
    await seedDataDir(dataDir);
    const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: undefined });
    // Run by the service, in its process, on its open database.
    const listed = await runCliProcess(['keys', 'list', '--json'], { DATA_DIR: dataDir, DATABASE_URL: undefined });
    expect(listed.code, listed.stderr).toBe(0);
    expect(keyIds(listed.stdout)).toEqual(FIXTURE_KEY_IDS);
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
    await seedDataDir(dataDir);
    const first = await startServer({ DATA_DIR: dataDir, DATABASE_URL: undefined });
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    expect(readLockOwner(dataDir)?.pid).toBe(first.child.pid); // left behind

    const second = await startServer({ DATA_DIR: dataDir, DATABASE_URL: undefined });
    expect(readLockOwner(dataDir)?.pid).toBe(second.child.pid);
    // Not taken for a first start: no demo loaded, no key printed.
    expect(second.output()).not.toMatch(/ecs_[A-Za-z0-9_-]{43}/);
    expect(await stopServer(second)).toBe(0);

    // The data the killed service had open is all there.
    const listed = await runCliProcess(['keys', 'list', '--json'], { DATA_DIR: dataDir, DATABASE_URL: undefined });
    expect(listed.code, listed.stderr).toBe(0);
    expect(keyIds(listed.stdout)).toEqual(FIXTURE_KEY_IDS);
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
      // The winner keeps its lock until the round ends (a racer that started late must still find it held).
      const round6 = Array.from({ length: 6 }, () => racer(dataDir));
      const answers = await Promise.all(round6.map((r) => r.line(0)));
      const described = `round ${round + 1}:\n${describeAnswers(answers, round6)}`;
      expect(answers.filter((answer) => answer === 'won'), described).toHaveLength(1);
      expect(answers.filter((answer) => answer.startsWith('lost the embedded database')), described).toHaveLength(5);
      expect(readLockOwner(dataDir)?.pid, described).toBe(round6[answers.indexOf('won')]!.child.pid);
      // Nothing of the race is left beside the lock: no drafts, no claims.
      expect(fs.readdirSync(dataDir), described).toEqual([LOCK_FILE]);
      for (const r of round6) r.child.kill('SIGKILL');
    }
  }, RACE_TIMEOUT_MS);

  it('a winner stopped the moment its lock appears keeps it: the others see it whole and lose', async () => {
    const dataDir = newDataDir();
    writeLock(dataDir, await deadPid());
    const first = racer(dataDir, `^${LOCK_FILE.replace('.', '\\.')}$`);
    expect(await first.line(0), first.stderr()).toBe('stopped');
    await untilStopped(first.child.pid!);
    // It stays stopped while five others start and finish: far longer than any wait of theirs.
    const others = Array.from({ length: 5 }, () => racer(dataDir));
    const answers = await Promise.all(others.map((r) => r.line(0)));
    const refused = `lost the embedded database in ${dataDir} is in use by the command line (process ${first.child.pid}, race`;
    for (const answer of answers) expect(answer, describeAnswers(answers, others)).toContain(refused);
    expect(readLockOwner(dataDir)?.pid).toBe(first.child.pid);

    first.child.kill('SIGCONT');
    expect(await first.line(1)).toBe('won');
    expect(readLockOwner(dataDir)?.pid).toBe(first.child.pid);
  });

  it('a process stopped while it takes a stale lock over: the others wait for it, then are refused naming it; it wins when it goes on', async () => {
    const dataDir = newDataDir();
    writeLock(dataDir, await deadPid());
    const taker = racer(dataDir, `^${LOCK_FILE.replace('.', '\\.')}\\.claim-`);
    expect(await taker.line(0), taker.stderr()).toBe('stopped');
    await untilStopped(taker.child.pid!);
    const others = Array.from({ length: 3 }, () => racer(dataDir));
    const answers = await Promise.all(others.map((r) => r.line(0)));
    const refused = `lost the embedded database in ${dataDir} is in use by the command line (process ${taker.child.pid}, race`;
    for (const answer of answers) expect(answer, describeAnswers(answers, others)).toContain(refused);
    expect(readLockOwner(dataDir)?.token).toBe('stale'); // nobody removed it meanwhile

    taker.child.kill('SIGCONT');
    expect(await taker.line(1)).toBe('won');
    expect(readLockOwner(dataDir)?.pid).toBe(taker.child.pid);
    expect(fs.readdirSync(dataDir)).toEqual([LOCK_FILE]);
  });

  it('a process killed in the middle of a takeover leaves a claim that the next one clears', async () => {
    const dataDir = newDataDir();
    writeLock(dataDir, await deadPid());
    const taker = racer(dataDir, `^${LOCK_FILE.replace('.', '\\.')}\\.claim-`);
    expect(await taker.line(0), taker.stderr()).toBe('stopped');
    taker.child.kill('SIGKILL');
    expect(await taker.line(1)).toBe('');
    // Its draft and its claim are left; their names start with the lock's, which the service's
    // first-start check (an empty folder but the lock) ignores.
    const left = fs.readdirSync(dataDir);
    expect(left.length).toBeGreaterThan(1);
    expect(left.every((name) => name.startsWith(LOCK_FILE))).toBe(true);

    const lock = lockDataDir(dataDir, { role: 'command line', doing: 'test' });
    expect(readLockOwner(dataDir)?.pid).toBe(process.pid);
    expect(fs.readdirSync(dataDir)).toEqual([LOCK_FILE]);
    lock.release();
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('a lock that cannot be read is not taken for stale while it is young (its writer may be stalled); an old one is', () => {
    const dataDir = newDataDir();
    fs.mkdirSync(dataDir);
    const file = path.join(dataDir, LOCK_FILE);
    // What a writer that creates the file, then writes it, leaves while it is stopped in between.
    for (const content of ['', '{"pid": 12']) {
      fs.writeFileSync(file, content);
      expect(() => lockDataDir(dataDir, { role: 'command line', doing: 'test' })).toThrow(`${file} cannot be read`);
      expect(fs.readFileSync(file, 'utf8')).toBe(content);
    }
    // Damaged an hour ago: no writer is still on its way.
    const anHourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(file, anHourAgo, anHourAgo);
    const lock = lockDataDir(dataDir, { role: 'command line', doing: 'test' });
    expect(readLockOwner(dataDir)?.pid).toBe(process.pid);
    lock.release();
  });
});
