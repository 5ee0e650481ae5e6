/**
 * Closing the HTTP listener without dropping a request that reached the service (src/server.ts,
 * on SIGTERM / SIGINT). The rules, as docs/operations.md states them for clients:
 *
 * - once closing() is called, every answer carries `Connection: close`, answers already under way
 *   included when their headers have not gone out: a busy kept-alive connection is closed right
 *   after an answer, between two requests, and its client knows not to send another on it;
 * - drain() stops accepting connections and resolves when none is left. A connection ends after
 *   its answer with `Connection: close`; one that carries no request is closed only once no byte
 *   has arrived on it for `idleGraceMs` (counted from closing() at the earliest), and a request that
 *   arrives before that is read and answered.
 *
 * Why not Fastify's close() alone: Node's server.close() (Node 19 and later) destroys at once every
 * connection on which no request is being read. A request the client has already written may be in
 * the kernel's buffer or on the wire: the client then gets a reset or an EOF for it. So the listener
 * is closed with net.Server's close(), which leaves connections alone, and Fastify's close() runs
 * after the last connection has gone (src/server.ts).
 *
 * What remains, and cannot be helped by the process: connections the kernel completed but the
 * service had not accepted yet when the listener closes are reset by the kernel (the service never
 * read them; SHUTDOWN_DELAY_MS, with a load balancer that stops routing meanwhile, avoids them), and
 * a request written at the very moment a connection idle for `idleGraceMs` is closed is not read.
 * Either way the client gets no byte of an answer, and the request was not processed.
 */
import net from 'node:net';
import type { Server } from 'node:http';
import { closeAfterAnswer } from './server-response.js';

/** How often drain() looks for connections that have become quiet. */
const SWEEP_MS = 50;

interface Connection {
  /** socket.bytesRead when last looked at, and since when it has not moved (nor an answer been under way). */
  bytesRead: number;
  quietSince: number;
}

export interface GracefulClose {
  /** From now on every answer closes its connection. */
  closing(): void;
  /** Stops accepting; resolves once every connection has ended. Calls closing() first. */
  drain(options: { idleGraceMs: number }): Promise<void>;
  /** Open connections right now (for tests and logs). */
  readonly size: number;
}

/**
 * Whether an answer is under way on the connection: the response Node is writing there, from the
 * moment a request's head has been read until its answer has finished (answers to requests
 * pipelined behind it wait in line behind it). Node's own closeIdleConnections() reads the same
 * property. Read here at each sweep, instead of counting requests in a listener: that cost every
 * request (src/http/server-response.ts says how much).
 */
function answering(socket: net.Socket): boolean {
  return (socket as net.Socket & { _httpMessage?: unknown })._httpMessage != null;
}

/**
 * Starts tracking the server's connections; call before it listens. The server's responses must
 * be src/http/server-response.ts's (HTTP_SERVER_OPTIONS), which write `Connection: close` once
 * closing() has marked their connection.
 */
export function trackConnections(server: Server): GracefulClose {
  const connections = new Map<net.Socket, Connection>();
  let closingSince: number | undefined;

  // Per connection, not per request.
  server.on('connection', (socket: net.Socket) => {
    connections.set(socket, { bytesRead: socket.bytesRead, quietSince: performance.now() });
    socket.once('close', () => connections.delete(socket));
    if (closingSince !== undefined) closeAfterAnswer(socket);
  });

  const closing = () => {
    if (closingSince !== undefined) return;
    closingSince = performance.now();
    for (const socket of connections.keys()) closeAfterAnswer(socket);
  };

  /** Closes each connection with no answer under way on which no byte has arrived for idleGraceMs. */
  const closeQuiet = (idleGraceMs: number) => {
    const now = performance.now();
    for (const [socket, connection] of connections) {
      if (socket.bytesRead !== connection.bytesRead || answering(socket)) {
        connection.bytesRead = socket.bytesRead;
        connection.quietSince = now;
      } else if (now - Math.max(connection.quietSince, closingSince ?? now) >= idleGraceMs) {
        socket.destroy();
      }
    }
  };

  const drain = ({ idleGraceMs }: { idleGraceMs: number }) =>
    new Promise<void>((resolve) => {
      // The check runs after the event loop's poll phase (setImmediate), so that bytes already in
      // the kernel's buffer have been read, and counted, before a connection is judged quiet.
      const sweep = setInterval(() => setImmediate(() => closeQuiet(idleGraceMs)), SWEEP_MS);
      // net.Server's close: stop accepting, leave open connections alone; the callback comes once
      // the last connection has closed. Before closing(): a client told to close its connection
      // (when there was no delay before) then finds the port refusing, rather than being queued in
      // the kernel as the listener closes, and reset.
      net.Server.prototype.close.call(server, () => {
        clearInterval(sweep);
        resolve();
      });
      closing();
    });

  return {
    closing,
    drain,
    get size() {
      return connections.size;
    },
  };
}
