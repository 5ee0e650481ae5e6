#!/usr/bin/env node
/**
 * Entry point of the command line (package bin, and `npm run cli -- COMMAND`). When the embedded
 * database of DATA_DIR belongs to a running service, the command is run by that service
 * (src/cli/remote.ts); otherwise here.
 */
import { loadConfig } from '../config.js';
import { runInService, runningServiceSocket } from './remote.js';
import { runCli } from './run.js';

const argv = process.argv.slice(2);
const io = { env: process.env, stdout: process.stdout, stderr: process.stderr };

// A reader that goes away early (`estate-content keys list --json | head -c 100`) makes writes fail
// with EPIPE, an 'error' event that would end the process with a stack trace. What is left of that
// output has nowhere to go: it is dropped, and the command finishes what it was doing (an import
// has committed by the time it prints; the embedded database is closed properly) and exits with
// its own status.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

/** The control socket of the running service that owns DATA_DIR, if one does (embedded database only). */
function serviceSocket(): string | undefined {
  try {
    const config = loadConfig(process.env);
    return config.databaseUrl ? undefined : runningServiceSocket(config.dataDir);
  } catch {
    return undefined; // a configuration error is reported by runCli
  }
}

const socket = serviceSocket();
if (socket) {
  try {
    process.exitCode = await runInService(socket, { argv, cwd: process.cwd(), stderrTTY: Boolean(process.stderr.isTTY) }, io);
  } catch (error) {
    const message =
      `the service that holds the embedded database does not answer on ${socket} (${(error as Error).message}); ` +
      'wait until it has started, or stop it';
    if (argv.includes('--json')) process.stdout.write(JSON.stringify({ error: message }, null, 2) + '\n');
    process.stderr.write(`error: ${message}\n`);
    process.exitCode = 1;
  }
} else {
  process.exitCode = await runCli(argv, io);
}
