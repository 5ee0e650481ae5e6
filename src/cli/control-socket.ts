/**
 * The embedded service's control socket (`DATA_DIR/ecs.sock`): while the service owns its
 * DATA_DIR, the command line sends its commands here (src/cli/remote.ts) and the service runs
 * them in its own process on its open database, one at a time, then refreshes its view of the
 * content (so the next request after a command that changed content sees the change).
 *
 * Only the folder's owner can open the socket: it is created with mode 0600. A command runs with
 * the service's configuration; file names are read relative to the command line's directory.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { CONTROL_SOCKET, type RemoteCommand, type RemoteMessage } from './remote.js';
import { runCli } from './run.js';
import type { DbHandle } from '../db/connect.js';
import type { Metrics } from '../metrics/metrics.js';

/** Longest request line accepted (a command and its arguments). */
const MAX_REQUEST_BYTES = 64 * 1024;
/** Commands counted as imports (estate_import_runs_total, estate_import_duration_seconds). */
const IMPORT_COMMANDS = new Set(['import', 'mirror']);
/** Unix socket paths are limited to about 107 bytes. */
const MAX_SOCKET_PATH = 100;

export interface ControlSocket {
  readonly path: string;
  close(): Promise<void>;
}

function parseCommand(line: string): RemoteCommand | undefined {
  try {
    const value = JSON.parse(line) as Partial<RemoteCommand>;
    if (!Array.isArray(value.argv) || !value.argv.every((a) => typeof a === 'string')) return undefined;
    if (typeof value.cwd !== 'string' || !path.isAbsolute(value.cwd)) return undefined;
    return { argv: value.argv, cwd: value.cwd, stderrTTY: value.stderrTTY === true };
  } catch {
    return undefined;
  }
}

/** A stream whose writes travel to the command line as messages. */
function forward(socket: net.Socket, stream: 'stdout' | 'stderr', isTTY: boolean): Writable & { isTTY: boolean } {
  const writable = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      const message: RemoteMessage = { stream, data: typeof chunk === 'string' ? chunk : chunk.toString('utf8') };
      if (!socket.destroyed) socket.write(JSON.stringify(message) + '\n');
      done();
    },
  });
  return Object.assign(writable, { isTTY });
}

/**
 * Listens on DATA_DIR/ecs.sock (the caller owns the folder's lock, so a socket file left there is
 * stale). Resolves with undefined when the path is too long for a Unix socket.
 */
export async function serveControlSocket(options: {
  dataDir: string;
  database: DbHandle;
  /** Runs after every command, before its status is sent (refresh caches). */
  afterCommand: () => Promise<void>;
  log: FastifyBaseLogger;
  /** Counts the imports run here: the only ones this process sees (a command line on PostgreSQL runs its own). */
  metrics?: Metrics | undefined;
}): Promise<ControlSocket | undefined> {
  const socketPath = path.join(options.dataDir, CONTROL_SOCKET);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    options.log.warn({ socketPath }, 'DATA_DIR is too deep for a control socket; the command line cannot reach this service');
    return undefined;
  }
  fs.rmSync(socketPath, { force: true });
  let queue: Promise<unknown> = Promise.resolve();

  const server = net.createServer((socket) => {
    socket.setEncoding('utf8');
    let buffered = '';
    const onData = (chunk: string) => {
      buffered += chunk;
      const newline = buffered.indexOf('\n');
      if (newline < 0) {
        if (Buffer.byteLength(buffered) > MAX_REQUEST_BYTES) socket.destroy();
        return;
      }
      socket.off('data', onData);
      const command = parseCommand(buffered.slice(0, newline));
      if (!command) {
        socket.end(JSON.stringify({ stream: 'stderr', data: 'error: malformed request on the control socket\n' }) + '\n' + JSON.stringify({ exit: 2 }) + '\n');
        return;
      }
      // One command at a time: they share the service's one embedded database connection.
      queue = queue.then(() => run(socket, command)).catch((error: unknown) => options.log.error({ err: error }, 'control socket command failed'));
    };
    socket.on('data', onData);
    socket.on('error', () => {});
  });

  async function run(socket: net.Socket, command: RemoteCommand): Promise<void> {
    options.log.info({ command: command.argv.slice(0, 2).join(' ') }, 'running a command line command');
    const name = command.argv[0] ?? '';
    const timer = IMPORT_COMMANDS.has(name) ? options.metrics?.importDuration.startTimer({ command: name }) : undefined;
    let status = 1;
    try {
      status = await runCli(command.argv, {
        env: process.env,
        stdout: forward(socket, 'stdout', false),
        stderr: forward(socket, 'stderr', command.stderrTTY),
        database: options.database,
        cwd: command.cwd,
      });
    } finally {
      if (timer) {
        const result = status === 0 ? 'ok' : 'failed';
        timer({ result });
        options.metrics?.importRuns.inc({ command: name, result });
      }
    }
    await options.afterCommand();
    if (!socket.destroyed) socket.end(JSON.stringify({ exit: status } satisfies RemoteMessage) + '\n');
  }

  // Created with mode 0600 (umask), then checked: only the owner of the folder may connect.
  const previousUmask = process.umask(0o177);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
  } finally {
    process.umask(previousUmask);
  }
  fs.chmodSync(socketPath, 0o600);
  server.on('error', (error) => options.log.error({ err: error }, 'control socket error'));
  return {
    path: socketPath,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queue;
      fs.rmSync(socketPath, { force: true });
    },
  };
}
