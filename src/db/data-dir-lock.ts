/**
 * One process at a time in an embedded database's folder. PGlite has no protection of its own
 * against a second process (it writes a postmaster.pid with a made-up pid and opens over anyone
 * else's), and two processes writing one folder can corrupt it. So every process of ours that opens
 * DATA_DIR (the service, the command line) first takes `DATA_DIR/ecs.lock`:
 *
 * - created atomically (O_EXCL), holding the owner's pid, its start time (so a recycled pid is not
 *   mistaken for the owner), what it is (service or command line) and, for the service, its address;
 * - a lock whose process is gone (a crash, kill -9) is stale: it is removed under a second, short
 *   lock (`ecs.lock.break`) after looking again, so that of two processes doing so at once only one
 *   removes it, and never a lock someone has just taken;
 * - released only by its owner, only if the file still names the owner.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const LOCK_FILE = 'ecs.lock';

export interface LockOwner {
  readonly pid: number;
  /** The owner process's start (Linux: /proc start time; elsewhere only the pid is checked). */
  readonly started: string | null;
  readonly role: 'service' | 'command line';
  /** What the owner is doing, for messages ("serving http://127.0.0.1:8000", "import bundle.ndjson"). */
  readonly doing: string;
  readonly since: string;
  readonly host: string;
  /** A random token: the owner releases only a file that still holds it. */
  readonly token: string;
}

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    super(
      `the embedded database in ${dataDir} is in use by the ${owner.role} (process ${owner.pid}, ${owner.doing}, since ${owner.since}); ` +
        (owner.role === 'service'
          ? 'stop it first, or run the command line against a PostgreSQL database (DATABASE_URL)'
          : 'wait until it has finished'),
    );
  }
}

export interface DataDirLock {
  readonly owner: LockOwner;
  /** Removes the lock if it is still ours. Safe to call twice. */
  release(): void;
}

/** When a process started (Linux), so that a pid reused by another process is not taken for the owner. */
function processStart(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null; // field 22, starttime
  } catch {
    return null;
  }
}

/** Whether the process named by a lock still runs (same pid, and same start where that is known). */
export function ownerAlive(owner: LockOwner): boolean {
  if (owner.host !== os.hostname()) return true; // another machine's process: cannot tell, assume it runs
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: it runs, under another user.
  }
  const started = processStart(owner.pid);
  return owner.started === null || started === null || started === owner.started;
}

/** The lock's owner as written, or undefined when there is no lock (or it cannot be read yet). */
export function readLockOwner(dataDir: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')) as LockOwner;
    return typeof owner.pid === 'number' ? owner : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the folder's lock for this process, or throws DataDirBusyError naming the process that
 * holds it. A stale lock (its process is gone) is taken over.
 */
export function lockDataDir(dataDir: string, who: { role: LockOwner['role']; doing: string }): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  const owner: LockOwner = {
    pid: process.pid,
    started: processStart(process.pid),
    role: who.role,
    doing: who.doing,
    since: new Date().toISOString(),
    host: os.hostname(),
    token: crypto.randomBytes(12).toString('hex'),
  };
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(owner) + '\n', { flag: 'wx', mode: 0o600 });
      return { owner, release: () => releaseIfOurs(file, owner.token) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const current = readLockOwner(dataDir);
    if (current === undefined) {
      // Being written by its owner this very moment, or damaged: look again shortly, then treat
      // an unreadable lock that stays so as stale.
      if (attempt < 5) {
        sleepSync(20);
        continue;
      }
    } else if (ownerAlive(current)) {
      throw new DataDirBusyError(dataDir, current);
    }
    breakStaleLock(file, current?.token);
  }
  const current = readLockOwner(dataDir);
  if (current) throw new DataDirBusyError(dataDir, current);
  throw new Error(`cannot take the lock ${file}`);
}

/** Breaking a stale lock takes this long at most; a break lock older than that was left by a crash. */
const BREAK_TIMEOUT_MS = 10_000;

/**
 * Removes the lock file if it still is the stale one seen (`token`; undefined: unreadable), under
 * the break lock. Returns without doing anything when another process is breaking it.
 */
function breakStaleLock(file: string, token: string | undefined): void {
  const breaker = `${file}.break`;
  try {
    fs.writeFileSync(breaker, String(process.pid), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    try {
      if (Date.now() - fs.statSync(breaker).mtimeMs > BREAK_TIMEOUT_MS) fs.rmSync(breaker, { force: true });
    } catch {
      // Gone meanwhile.
    }
    sleepSync(20);
    return;
  }
  try {
    let current: LockOwner | undefined;
    try {
      current = JSON.parse(fs.readFileSync(file, 'utf8')) as LockOwner;
    } catch {
      current = undefined;
    }
    if (current?.token === token) fs.rmSync(file, { force: true });
  } finally {
    fs.rmSync(breaker, { force: true });
  }
}

function releaseIfOurs(file: string, token: string): void {
  try {
    const current = JSON.parse(fs.readFileSync(file, 'utf8')) as LockOwner;
    if (current.token === token) fs.rmSync(file, { force: true });
  } catch {
    // Gone already, or not ours to judge: leave it.
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
