/**
 * `npm start` stopped the way a newcomer or a process manager stops it: by npm's process id.
 *
 * npm runs the script through `sh -c`; dash (Debian's sh) does not replace itself with the command,
 * and npm forwards SIGTERM to its child, the shell, which dies of it. The server used to go on
 * serving, orphaned, holding the port and DATA_DIR's lock. Now the script is `exec node ...`, and
 * the server also stops when npm, its parent, has gone (src/parent-watch.ts).
 *
 * Each case starts `npm start` on a migrated embedded folder and a free port, finds the server's
 * process id in the folder's lock file, signals, and checks that within a few seconds the server
 * process is gone, the port refuses connections, the lock file is released, and the service said
 * once that it was shutting down. Ctrl-C is SIGINT to the whole process group (npm, and the server
 * once more through npm's forwarding): it must still shut down once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyMigratedDataDir } from '../helpers/db.js';
import { freePort, waitForPort } from '../helpers/net.js';
import { projectRoot } from '../helpers/processes.js';
import { closeAfterFile } from '../helpers/teardown.js';

/** How long the service may take to be gone after the signal (its own shutdown takes about 1 s). */
const GONE_WITHIN_MS = 8_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The process exists and is not a zombie waiting for its parent to collect it. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return fs.existsSync(`/proc/${pid}`) || process.platform !== 'linux';
  }
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

interface NpmStart {
  npm: ChildProcess;
  serverPid: number;
  port: number;
  dataDir: string;
  output(): string;
  npmExited: Promise<number | string | null>;
}

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

/** `npm start` in a process group of its own, resolved once the server listens and has taken the lock. */
async function npmStart(): Promise<NpmStart> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-npm-start-'));
  folders.push(dataDir);
  copyMigratedDataDir(dataDir);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' };
  delete env.DATABASE_URL;
  // detached: its own process group, as a terminal gives a foreground job (for the Ctrl-C case).
  const npm = spawn('npm', ['start'], { cwd: projectRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  npm.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  npm.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const npmExited = new Promise<number | string | null>((resolve) => npm.once('exit', (code, signal) => resolve(code ?? signal)));
  let serverPid: number | undefined;
  closeAfterFile(() => {
    try {
      process.kill(-npm.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    if (serverPid !== undefined && running(serverPid)) process.kill(serverPid, 'SIGKILL');
  });
  const failed = npmExited.then((code) => {
    throw new Error(`npm start exited (${code}) before listening:\n${out}`);
  });
  await Promise.race([waitForPort(port, 60_000), failed]);
  failed.catch(() => {});
  const lock = JSON.parse(fs.readFileSync(path.join(dataDir, 'ecs.lock'), 'utf8')) as { pid: number };
  serverPid = lock.pid;
  expect(serverPid).not.toBe(npm.pid);
  expect(fs.readFileSync(`/proc/${serverPid}/cmdline`, 'utf8')).toContain('dist/server.js');
  return { npm, serverPid, port, dataDir, output: () => out, npmExited };
}

/** Waits until the server process is gone, the port refuses and the lock file is removed; what is left otherwise. */
async function waitUntilStopped(run: NpmStart): Promise<string[]> {
  const deadline = Date.now() + GONE_WITHIN_MS;
  for (;;) {
    const left: string[] = [];
    if (running(run.serverPid)) left.push(`server process ${run.serverPid} still running`);
    if (!(await refused(run.port))) left.push(`port ${run.port} still accepts connections`);
    if (fs.existsSync(path.join(run.dataDir, 'ecs.lock'))) left.push('ecs.lock still there');
    if (left.length === 0 || Date.now() > deadline) return left;
    await sleep(100);
  }
}

const shutdownLines = (output: string) => output.split('\n').filter((line) => line.includes('shutting down'));

describe.runIf(process.platform === 'linux')('npm start stopped by its process id', () => {
  it('SIGTERM to npm stops the server: process gone, port closed, lock released, one clean shutdown', async () => {
    const run = await npmStart();
    // The service answers before the signal.
    expect((await fetch(`http://127.0.0.1:${run.port}/health`)).status).toBe(200);
    process.kill(run.npm.pid!, 'SIGTERM');
    expect(await waitUntilStopped(run), run.output().slice(-2000)).toEqual([]);
    expect(await run.npmExited).toBe(0);
    const lines = shutdownLines(run.output());
    expect(lines, run.output().slice(-2000)).toHaveLength(1);
    expect(lines[0]).toContain('"signal":"SIGTERM"');
  });

  it('Ctrl-C (SIGINT to the whole process group) shuts down once, cleanly', async () => {
    const run = await npmStart();
    process.kill(-run.npm.pid!, 'SIGINT');
    expect(await waitUntilStopped(run), run.output().slice(-2000)).toEqual([]);
    expect(await run.npmExited).toBe(0);
    const lines = shutdownLines(run.output());
    expect(lines, run.output().slice(-2000)).toHaveLength(1);
    expect(lines[0]).toContain('"signal":"SIGINT"');
    expect(run.output()).not.toContain('error during shutdown');
  });

  it('npm killed with SIGKILL (no signal can be passed on): the server notices and stops gracefully', async () => {
    const run = await npmStart();
    process.kill(run.npm.pid!, 'SIGKILL');
    expect(await waitUntilStopped(run), run.output().slice(-2000)).toEqual([]);
    const lines = shutdownLines(run.output());
    expect(lines, run.output().slice(-2000)).toHaveLength(1);
    expect(lines[0]).toContain('"signal":"SIGTERM"');
  });
});
