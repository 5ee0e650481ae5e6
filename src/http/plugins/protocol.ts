/**
 * HTTP/1.1 edges that Node's server would answer on its own, before Fastify sees the request, in
 * its own shape (an empty body, or no answer at all). Here they go through Fastify like any other
 * request, so that they get the contract's {"detail": ...} body, the request id, the log line and
 * the count (the decisions are in docs/api.md, Errors):
 *
 * - `Expect` other than 100-continue: 417 {"detail":"Expectation Failed"}, connection closed
 *   (Node: 417 with an empty body);
 * - HTTP/1.1 without `Host`: 400 {"detail":"Bad Request"}, connection closed (Node: 400 with an
 *   empty body; RFC 9112 requires the 400);
 * - `CONNECT`: 405 {"detail":"Method Not Allowed"} with Allow (Node: the connection closed with
 *   no answer); the 405 itself is src/http/plugins/error-answers.ts's not-found handler;
 * - a request with `Upgrade` (no protocol is offered): served as a plain request, with
 *   Connection: close. After such a request Node's parser stops reading the connection (a request
 *   pipelined behind it is dropped, a malformed one waits for the keep-alive timeout), so the
 *   connection must not outlive its answer.
 *
 * Errors of the parser itself (headers too large, a malformed request, the headers timeout) are
 * answered by clientError() in src/http/plugins/errors.ts.
 */
import { ServerResponse, STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { JSON_TYPE } from '../content-types.js';
import { ServiceResponse } from '../server-response.js';

/** How long a CONNECT connection may take to go away after its answer before it is cut. */
const CONNECT_LINGER_MS = 5_000;

/**
 * Node's server options for these rules, to pass as `http` to Fastify(): the Host rule is ours, and
 * the responses are ServiceResponse (src/http/server-response.ts), which closes the connection of
 * an answer to an `Upgrade` request (and, during a shutdown, of every answer).
 */
export const HTTP_SERVER_OPTIONS = { requireHostHeader: false, ServerResponse: ServiceResponse } as const;

function closeWith(reply: FastifyReply, status: number): FastifyReply {
  return reply
    .code(status)
    .header('connection', 'close')
    .type(JSON_TYPE)
    .send({ detail: STATUS_CODES[status] });
}

/**
 * Hands a CONNECT request, which Node gives up as a tunnel request, back to Fastify with a
 * response of its own on the raw socket; the answer closes the connection. Bytes the client sends
 * meanwhile are read and dropped, so that closing does not reset the connection under the answer.
 */
function answerConnect(app: FastifyInstance, request: IncomingMessage, socket: Duplex): void {
  const response = new ServerResponse(request);
  response.shouldKeepAlive = false;
  response.assignSocket(socket as Socket);
  socket.resume();
  response.once('finish', () => {
    socket.end();
    setTimeout(() => socket.destroy(), CONNECT_LINGER_MS).unref();
  });
  app.server.emit('request', request, response);
}

export function guardProtocol(app: FastifyInstance): void {
  // Requests Node would have answered 417 on its own ("checkExpectation" replaces that answer).
  const failedExpectations = new WeakSet<IncomingMessage>();
  app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    failedExpectations.add(request);
    app.server.emit('request', request, response);
  });
  app.server.on('connect', (request: IncomingMessage, socket: Duplex) => answerConnect(app, request, socket));

  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    if (failedExpectations.has(raw)) {
      closeWith(reply, 417);
      return;
    }
    if (raw.httpVersionMajor === 1 && raw.httpVersionMinor === 1 && raw.headers.host === undefined) {
      closeWith(reply, 400);
      return;
    }
    done();
  });
}
