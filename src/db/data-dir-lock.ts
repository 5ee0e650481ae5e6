/**
 * One process at a time in an embedded database's folder. PGlite has no protection of its own
 * against a second process (it writes a postmaster.pid with a made-up pid and opens over anyone
 * else's), and two processes writing one folder can corrupt it. So every process of ours that opens
 * DATA_DIR (the service, the command line) first takes `DATA_DIR/ecs.lock`, which names the owner:
 * its pid, its start time (so a recycled pid is not mistaken for the owner), what it is (service or
 * command line), what it does and a random token.
 *
 * - Taken in one step: the owner is written whole to a file of its own (`ecs.lock.new-<token>`),
 *   then hard-linked to `ecs.lock`. link() fails with EEXIST when the name is taken, so of any
 *   number of processes exactly one creates the lock, and nobody ever sees it empty or half written
 *   (writing after an O_EXCL create left a moment when it was, and a process stalled there could
 *   have its lock taken for a stale one while it went on using the folder).
 * - A lock whose process is gone (a crash, kill -9) is stale and taken over: removed, then taken
 *   as above. Removing by name is unsafe by itself (between reading the stale lock and removing it,
 *   another process may have replaced it with a live one), so the removal is guarded by a claim
 *   named after the stale lock's token (`ecs.lock.claim-<digest>`), also made with link(): only the
 *   one process that made the claim may remove that lock, and it looks again under the claim
 *   before it does. Everyone then races for the name with link(), so exactly one wins. A claim
 *   whose maker died is stale in turn and removed the same way, under a claim named after it.
 *   While a live process holds the claim the others wait for it (TAKEOVER_WAIT_MS at most), then
 *   are refused, naming it.
 * - A lock or claim that cannot be read (damaged, or left by an older version that wrote the lock
 *   after creating it) is never judged stale while it is younger than UNREADABLE_STALE_MS.
 * - The winner removes what dead processes left (drafts, claims); every name starts with
 *   `ecs.lock`, which the service's first-start check ignores.
 * - Released only by its owner, only if the file still holds the owner's token.
 *
 * DATA_DIR must be on a file system with hard links (ext4, XFS, Btrfs, APFS, NTFS; not FAT).
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

/** A lock or claim this young that cannot be read is never judged stale (it may still be in the making). */
const UNREADABLE_STALE_MS = 60_000;

/** How long a process waits for another that is taking over the same stale lock before it gives up. */
const TAKEOVER_WAIT_MS = 2_000;

/** Claims under claims: each level means a taker died in the middle; more is not worth waiting for. */
const MAX_CLAIM_DEPTH = 4;

/** What a lock (or claim) file holds when looked at. */
type Seen =
  | { readonly state: 'gone' }
  | { readonly state: 'owner'; readonly owner: LockOwner }
  | { readonly state: 'unreadable'; readonly id: string; readonly ageMs: number };

function parseOwner(text: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(text) as LockOwner;
    return typeof owner === 'object' && owner !== null && typeof owner.pid === 'number' && typeof owner.token === 'string' ? owner : undefined;
  } catch {
    return undefined;
  }
}

function inspect(file: string): Seen {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'gone' };
    throw error;
  }
  try {
    // One open file for both: its identity and its content belong to the same file.
    const stat = fs.fstatSync(fd);
    const owner = parseOwner(fs.readFileSync(fd, 'utf8'));
    if (owner) return { state: 'owner', owner };
    return { state: 'unreadable', id: `unreadable ${stat.dev}:${stat.ino}`, ageMs: Date.now() - stat.mtimeMs };
  } finally {
    fs.closeSync(fd);
  }
}

/** What identifies a stale file: its owner's token, or for an unreadable one, the file itself. */
function identity(seen: Exclude<Seen, { state: 'gone' }>): string {
  return seen.state === 'owner' ? seen.owner.token : seen.id;
}

/** The lock's owner as written, or undefined when there is no lock (or it cannot be read). */
export function readLockOwner(dataDir: string): LockOwner | undefined {
  try {
    const seen = inspect(path.join(dataDir, LOCK_FILE));
    return seen.state === 'owner' ? seen.owner : undefined;
  } catch {
    return undefined;
  }
}

/** Refuses a file that is neither stale nor gone: a live owner, or an unreadable file still young. */
function refuseUnlessStale(dataDir: string, file: string, seen: Exclude<Seen, { state: 'gone' }>): void {
  if (seen.state === 'owner') {
    if (ownerAlive(seen.owner)) throw new DataDirBusyError(dataDir, seen.owner);
  } else if (seen.ageMs < UNREADABLE_STALE_MS) {
    throw new Error(
      `${file} cannot be read (damaged, or being written by an older version); it is taken over once it is ` +
        `${UNREADABLE_STALE_MS / 1000} s old, or remove it if no process uses ${dataDir}`,
    );
  }
}

/** Links `from` to `to`; false when `to` exists. */
function linkExclusive(from: string, to: string): boolean {
  try {
    fs.linkSync(from, to);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS') {
      throw new Error(`cannot take the lock ${to}: its file system does not allow hard links (${code}); keep DATA_DIR on one that has them (ext4, XFS, APFS, NTFS, ...)`);
    }
    throw error;
  }
}

/**
 * Takes the folder's lock for this process, or throws DataDirBusyError naming the process that
 * holds it (or is taking it over). A stale lock (its process is gone) is taken over.
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
  // Complete before anyone can see it: the lock and any claim are links to this file.
  const draft = path.join(dataDir, `${LOCK_FILE}.new-${owner.token}`);
  fs.writeFileSync(draft, JSON.stringify(owner) + '\n', { flag: 'wx', mode: 0o600 });
  try {
    let waitingSince: number | undefined;
    // Each turn either takes the lock or sees it change hands (or waits for a taker): a bound
    // against a folder that never settles, far above what a real race needs.
    for (let attempt = 0; attempt < 1000; attempt++) {
      if (linkExclusive(draft, file)) {
        removeLeftovers(dataDir, draft);
        return { owner, release: () => releaseIfOurs(file, owner.token) };
      }
      const seen = inspect(file);
      if (seen.state === 'gone') continue; // released or removed meanwhile: race for it again
      refuseUnlessStale(dataDir, file, seen);
      const taker = removeStale(dataDir, draft, file, seen, 0);
      if (taker === undefined) continue;
      // Another process is taking the stale lock over: it will hold it in a moment.
      waitingSince ??= Date.now();
      if (Date.now() - waitingSince > TAKEOVER_WAIT_MS) throw new DataDirBusyError(dataDir, taker);
      sleepSync(10);
    }
    const current = readLockOwner(dataDir);
    if (current) throw new DataDirBusyError(dataDir, current);
    throw new Error(`cannot take the lock ${file}`);
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

/**
 * Removes `target` (the lock, or a claim) if it is still the stale file seen, under the claim
 * named after it. Returns the live process that holds that claim when there is one (it is taking
 * the same file over), else undefined: done, or the caller should look again.
 */
function removeStale(dataDir: string, draft: string, target: string, seen: Exclude<Seen, { state: 'gone' }>, depth: number): LockOwner | undefined {
  const id = identity(seen);
  const claim = path.join(dataDir, `${LOCK_FILE}.claim-${crypto.createHash('sha256').update(id).digest('hex').slice(0, 32)}`);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (linkExclusive(draft, claim)) {
      try {
        // Only the claim's maker removes `target`, and it still holds what was judged stale:
        // nobody but this process can have replaced it since.
        const now = inspect(target);
        if (now.state !== 'gone' && identity(now) === id) fs.rmSync(target, { force: true });
      } finally {
        fs.rmSync(claim, { force: true });
      }
      return undefined;
    }
    const holder = inspect(claim);
    if (holder.state === 'gone') continue;
    if (holder.state === 'owner' && ownerAlive(holder.owner)) return holder.owner;
    refuseUnlessStale(dataDir, claim, holder);
    // Its maker died in the middle of the takeover: that claim is stale, and goes the same way.
    if (depth >= MAX_CLAIM_DEPTH) throw new Error(`cannot take the lock of ${dataDir}: remove the ${LOCK_FILE}.claim-* files left there`);
    const taker = removeStale(dataDir, draft, claim, holder, depth + 1);
    if (taker) return taker;
  }
  return undefined;
}

/** The drafts and claims of processes that died while taking the lock: the winner clears them. */
function removeLeftovers(dataDir: string, ownDraft: string): void {
  for (const name of fs.readdirSync(dataDir)) {
    if (!name.startsWith(`${LOCK_FILE}.new-`) && !name.startsWith(`${LOCK_FILE}.claim-`)) continue;
    const file = path.join(dataDir, name);
    if (file === ownDraft) continue;
    const seen = inspect(file);
    // A claim's target is gone for good now that this process holds the lock (tokens never come
    // back), so a dead process's claim guards nothing; a live one's is left to its maker.
    const stale = seen.state === 'owner' ? !ownerAlive(seen.owner) : seen.state === 'unreadable' && seen.ageMs >= UNREADABLE_STALE_MS;
    if (stale) fs.rmSync(file, { force: true });
  }
}

function releaseIfOurs(file: string, token: string): void {
  try {
    const current = inspect(file);
    if (current.state === 'owner' && current.owner.token === token) fs.rmSync(file, { force: true });
  } catch {
    // Not ours to judge: leave it.
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
