/**
 * The command line of a running embedded service. The service owns its DATA_DIR while it runs
 * (src/db/data-dir-lock.ts), so a command for that folder is not run here but sent over the
 * service's control socket (`DATA_DIR/ecs.sock`, which only the folder's owner can open) and run
 * by the service in its own process, on its open database: same commands, same all-or-nothing
 * imports, same output (progress and --json included), same exit status.
 *
 * The protocol, one JSON document per line: the command line sends a RemoteCommand; the service
 * answers with output chunks ({"stream": "stdout" | "stderr", "data": ...}) and ends with
 * {"exit": status}.
 */
import net from 'node:net';
import path from 'node:path';
import { ownerAlive, readLockOwner } from '../db/data-dir-lock.js';
import type { Output } from './context.js';

export const CONTROL_SOCKET = 'ecs.sock';

export interface RemoteCommand {
  readonly argv: string[];
  /** The command line's working directory (relative file names). */
  readonly cwd: string;
  /** Whether the command line's stderr is a terminal (a progress bar rather than lines). */
  readonly stderrTTY: boolean;
}

export type RemoteMessage = { stream: 'stdout' | 'stderr'; data: string } | { exit: number };

/** The control socket of the live service that holds `dataDir`, if one does. */
export function runningServiceSocket(dataDir: string): string | undefined {
  const owner = readLockOwner(dataDir);
  if (!owner || owner.role !== 'service' || !ownerAlive(owner)) return undefined;
  return path.join(dataDir, CONTROL_SOCKET);
}

/** Runs a command in the service behind `socketPath`; resolves with its exit status. */
export function runInService(socketPath: string, command: RemoteCommand, io: { stdout: Output; stderr: Output }): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let buffered = '';
    let status: number | undefined;
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(JSON.stringify(command) + '\n'));
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const message = JSON.parse(line) as RemoteMessage;
        if ('exit' in message) status = message.exit;
        else (message.stream === 'stdout' ? io.stdout : io.stderr).write(message.data);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => {
      if (status === undefined) reject(new Error('the service closed the control socket before the command ended'));
      else resolve(status);
    });
  });
}
