/**
 * Child processes of the benchmark: start them, wait until they answer, read their memory from
 * /proc, and stop every one of them at the end, also when the run fails or is interrupted.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  readonly pid: number;
  /** The last lines the child wrote to stdout and stderr, for error messages. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) when the child has ended. */
  readonly exited: Promise<number | string>;
  stop(): Promise<void>;
}

const running = new Set<Child>();

/**
 * Starts a child with piped output (kept in a small ring for diagnostics, never echoed). With
 * `stdoutFile`, its stdout goes straight to that file instead (the service's request log: a pipe
 * read by this process would make the benchmark pay for the service's logging twice).
 */
export function startChild(
  name: string,
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; echo?: boolean; stdoutFile?: string },
): Child {
  const stdoutFd = options.stdoutFile === undefined ? undefined : fs.openSync(options.stdoutFile, 'w');
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', stdoutFd ?? 'pipe', 'pipe'] });
  if (stdoutFd !== undefined) fs.closeSync(stdoutFd);
  if (child.pid === undefined) throw new Error(`could not start ${name} (${command})`);
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    if (options.echo) process.stderr.write(text);
    lines.push(...text.split('\n').filter((l) => l.length > 0));
    if (lines.length > 60) lines.splice(0, lines.length - 60);
  };
  child.stdout?.on('data', keep);
  child.stderr!.on('data', keep);
  let ended = false;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      ended = true;
      resolve(code ?? signal ?? 'unknown');
    });
    child.once('error', (error) => {
      ended = true;
      lines.push(String(error));
      resolve('spawn error');
    });
  });
  const handle: Child = {
    name,
    process: child,
    pid: child.pid,
    output: () => [...lines, ...(options.stdoutFile ? tailOf(options.stdoutFile, 30) : [])].join('\n'),
    exited,
    stop: async () => {
      if (!ended) {
        child.kill('SIGTERM');
        const result = await Promise.race([exited, sleep(10_000).then(() => 'timeout' as const)]);
        if (result === 'timeout') {
          child.kill('SIGKILL');
          await exited;
        }
      }
      running.delete(handle);
    },
  };
  running.add(handle);
  void exited.then(() => running.delete(handle));
  return handle;
}

/** The last `count` lines of a file (the end of a log written by a child), or none. */
function tailOf(file: string, count: number): string[] {
  try {
    const size = fs.statSync(file).size;
    const fd = fs.openSync(file, 'r');
    try {
      const length = Math.min(size, 64 * 1024);
      const buffer = Buffer.alloc(length);
      fs.readSync(fd, buffer, 0, length, size - length);
      return buffer.toString('utf8').split('\n').filter((l) => l.length > 0).slice(-count);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return [];
  }
}

/** Stops every child still running (the end of a run, or an interruption). */
export async function stopAllChildren(): Promise<void> {
  await Promise.all([...running].map((child) => child.stop().catch(() => {})));
}

/** Last resort on a hard exit: signal every child synchronously. */
export function killAllChildrenNow(): void {
  for (const child of running) child.process.kill('SIGKILL');
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls url until it answers 200, the child exits, or the time is up. */
export async function waitForHttp(url: string, child: Child, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: number | string | undefined;
  void child.exited.then((code) => (exited = code));
  let lastProblem = '';
  while (Date.now() < deadline) {
    if (exited !== undefined) {
      throw new Error(`${child.name} exited (${exited}) before answering ${url}:\n${child.output()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
      lastProblem = `status ${response.status}`;
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    await sleep(100);
  }
  throw new Error(`${child.name} did not answer ${url} within ${timeoutMs / 1000} s (${lastProblem}):\n${child.output()}`);
}

/** A field of /proc/<pid>/status in kB (VmRSS, VmHWM), or undefined when the process is gone. */
export function procStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux the benchmark has met). */
let ticksPerSecond: number | undefined;

/**
 * CPU time a process has used so far, user + system, all its threads, in seconds (/proc/<pid>/stat);
 * undefined without /proc or when the process is gone.
 */
export function procCpuSeconds(pid: number): number | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    ticksPerSecond ??= clockTicks();
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

function clockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

/** pid and all its descendants (a clustered service forks workers). */
function processTree(pid: number): number[] {
  const result = [pid];
  for (let i = 0; i < result.length; i++) {
    try {
      const tasks = fs.readdirSync(`/proc/${result[i]}/task`);
      for (const task of tasks) {
        const children = fs.readFileSync(`/proc/${result[i]}/task/${task}/children`, 'utf8').trim();
        if (children) result.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // the process ended between two reads
    }
  }
  return result;
}

/** Resident memory of a process and its descendants, in kB (0 when none is left). */
export function treeRssKb(pid: number): number {
  return processTree(pid).reduce((sum, p) => sum + (procStatusKb(p, 'VmRSS') ?? 0), 0);
}

/** Samples the resident memory of a process tree every intervalMs and keeps the peak. */
export class RssSampler {
  private timer: NodeJS.Timeout | undefined;
  peakKb = 0;

  constructor(
    private readonly pid: number,
    private readonly intervalMs = 100,
  ) {}

  start(): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    return this;
  }

  sample(): number {
    const kb = treeRssKb(this.pid);
    if (kb > this.peakKb) this.peakKb = kb;
    return kb;
  }

  stop(): number {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.sample();
    return this.peakKb;
  }
}

/**
 * Runs a command to its end, measuring wall time and peak resident memory (the kernel's
 * high-water mark, VmHWM, polled until the process is gone).
 */
export async function runMeasured(
  name: string,
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ code: number | string; seconds: number; peakRssKb: number; stdout: string; stderr: string }> {
  const started = process.hrtime.bigint();
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`could not start ${name}`);
  const pid = child.pid;
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr.push(chunk);
    // keep only the tail of a chatty progress display
    if (stderr.length > 200) stderr.splice(0, stderr.length - 200);
  });
  let peakRssKb = 0;
  const poll = () => {
    const hwm = procStatusKb(pid, 'VmHWM');
    if (hwm !== undefined && hwm > peakRssKb) peakRssKb = hwm;
  };
  const timer = setInterval(poll, 20);
  const tracked: Child = {
    name,
    process: child,
    pid,
    output: () => Buffer.concat(stderr).toString('utf8'),
    exited: new Promise(() => {}),
    stop: async () => {
      child.kill('SIGKILL');
    },
  };
  running.add(tracked);
  const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
  const code = await new Promise<number | string>((resolve) => {
    child.once('exit', (exitCode, signal) => resolve(exitCode ?? signal ?? 'unknown'));
    child.once('error', () => resolve('spawn error'));
  });
  clearTimeout(killer);
  clearInterval(timer);
  running.delete(tracked);
  return {
    code,
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    peakRssKb,
    stdout: Buffer.concat(stdout).toString('utf8'),
    stderr: Buffer.concat(stderr).toString('utf8'),
  };
}

/** Runs a command to its end with its output passed through (the build). */
export async function runInherited(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number | string> {
  const child = startChild(command, command, args, { ...options, echo: true });
  return child.exited;
}
