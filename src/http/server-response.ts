/**
 * The response Node's server makes for every request here: Node's own ServerResponse, given to the
 * server as its class (the `ServerResponse` option of http.createServer, in HTTP_SERVER_OPTIONS),
 * with one rule added where the head is written. An answer says `Connection: close`, and so ends
 * its connection, when
 *
 * - its request asked for an `Upgrade`: no protocol is offered, and after such a request Node's
 *   parser stops reading the connection (src/http/plugins/protocol.ts), so the connection must not
 *   outlive the answer;
 * - its connection was marked by closeAfterAnswer(): the server is shutting down
 *   (src/http/graceful-close.ts), and every answer whose head has not gone out yet closes its
 *   connection, an answer to a pipelined request included.
 *
 * Why a class and not a 'request' listener: a listener runs, and allocates, on every request; the
 * shutdown's bookkeeping alone, done that way before, cost a bare server answering the 401's bytes
 * 6–13 % (docs/performance.md, the key check). Every way a head is written goes through writeHead():
 * Fastify's reply, the early answers, Node's own answers and a head written implicitly by
 * write() or end().
 */
import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

/** Connections whose answers close them from now on. */
const closingSockets = new WeakSet<Socket>();
/** Whether any connection was ever marked: nearly always false, and then no look-up is made. */
let anyClosing = false;

/** From now on every answer on this connection whose head has not been written closes it. */
export function closeAfterAnswer(socket: Socket): void {
  anyClosing = true;
  closingSockets.add(socket);
}

export class ServiceResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  override writeHead(
    statusCode: number,
    statusMessageOrHeaders?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    const request = this.req;
    if (!this.headersSent && (request.headers.upgrade !== undefined || (anyClosing && closingSockets.has(request.socket)))) {
      // Set before the head's own headers, as a listener on the request did: it comes first.
      this.setHeader('connection', 'close');
    }
    return super.writeHead(statusCode, statusMessageOrHeaders as string | undefined, headers);
  }
}
