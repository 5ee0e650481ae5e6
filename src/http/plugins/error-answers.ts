/**
 * Every error answer is JSON (CONTRACT 3): 422 with every problem for a request that failed
 * validation (validation/compat-validation.ts), 404 for an unknown route, 405 (with Allow) for a
 * known path with another method (and for CONNECT), 413 for a body over the limit, 503 when the
 * database is unreachable, 500 with no details for anything else (logged with the request id).
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { JSON_TYPE } from '../content-types.js';
import { isDatabaseUnavailable } from '../db-errors.js';
import { RequestProblems, type CompatValidation } from '../validation/compat-validation.js';
import { echoRequestId } from './request-log.js';

/** Retry-After of a 503 (database unreachable, statement timeout, no pooled connection in time). */
const RETRY_AFTER_SECONDS = 5;

function sendError(reply: FastifyReply, status: number, detail: string): FastifyReply {
  return reply.code(status).type(JSON_TYPE).send({ detail });
}

/** 405 with Allow (empty when no method is allowed at the target). */
function methodNotAllowed(reply: FastifyReply, allowed: readonly string[]): FastifyReply {
  reply.header('allow', allowed.join(', '));
  return sendError(reply, 405, 'Method Not Allowed');
}

interface KnownRoute {
  method: string;
  pattern: RegExp;
}

/** A Fastify route URL as a regular expression over request paths (trailing slash optional). */
function routePattern(url: string): RegExp {
  const body = url
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*';
      if (segment.startsWith(':')) return '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${body}/?$`);
}

/** The methods registered for a request path, e.g. ["GET", "HEAD"]. */
function allowedMethods(routes: readonly KnownRoute[], url: string): string[] {
  const path = url.split('?')[0]!;
  return [...new Set(routes.filter((route) => route.pattern.test(path)).map((route) => route.method))];
}

/**
 * Installs the not-found and error handlers. Call before any route is registered: it learns the
 * routes (for 405) from the onRoute hook.
 */
export function handleErrors(app: FastifyInstance, validation: Pick<CompatValidation, 'answerProblems'>): void {
  const routes: KnownRoute[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routes.push({ method: String(method).toUpperCase(), pattern: routePattern(route.url ?? route.path) });
  });

  app.setNotFoundHandler((request, reply) => {
    const allowed = allowedMethods(routes, request.url);
    // Fastify answers 404 for a known path with an unknown method; FastAPI answers 405. CONNECT
    // (this is no proxy) is a 405 wherever it points; Allow is empty when the target is none of
    // our paths (RFC 9110: no method is allowed there).
    if ((allowed.length > 0 && !allowed.includes(request.method)) || request.method === 'CONNECT') return methodNotAllowed(reply, allowed);
    return sendError(reply, 404, 'Not Found');
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof RequestProblems) return validation.answerProblems(error, request, reply);
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
      return sendError(reply, 413, 'Request body too large');
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      // A hint for clients and proxies: the database usually answers again within seconds.
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return sendError(reply, 503, 'Service Unavailable');
    }
    const status = error.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      // Fastify's own client errors (malformed Content-Length, aborted body, ...).
      request.log.info({ err: error }, 'client error');
      return sendError(reply, status, STATUS_CODES[status] ?? 'Bad Request');
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 500, 'Internal Server Error');
  });
}

/**
 * Fastify's router errors (an undecodable URL, or a target that is no path: the router refuses
 * anything but `/…`, `*` and an absolute URL) never reach the error handler; this answers them.
 */
export function frameworkError(_error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // This reply skips the onSend hooks, so the security header and the request id are set here.
  reply.header('x-content-type-options', 'nosniff');
  echoRequestId(request, reply);
  // CONNECT is a 405 wherever it points, as in the not-found handler; its usual target
  // (host:port) is no path of ours, so no method is allowed there.
  void (request.method === 'CONNECT' ? methodNotAllowed(reply, []) : sendError(reply, 400, 'Bad Request'));
}

/** What the parser's errors are answered (anything else it refuses is a 400). */
const CLIENT_ERROR_STATUS: Readonly<Record<string, number>> = {
  HPE_HEADER_OVERFLOW: 431,
  // The headers (or the whole request) did not arrive within Node's headersTimeout / requestTimeout.
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/**
 * The method of the request the parser refused, when it can be known: the request whose headers
 * were read (an error in its body), else the request line at the start of the refused bytes.
 */
function refusedMethod(error: Error & { rawPacket?: unknown }, socket: Socket): string | undefined {
  const incoming = (socket as Socket & { parser?: { incoming?: { method?: string; complete?: boolean } | null } }).parser?.incoming;
  if (incoming && incoming.complete === false) return incoming.method;
  const raw = error.rawPacket;
  if (!Buffer.isBuffer(raw)) return undefined;
  return /^([A-Z]+) /.exec(raw.subarray(0, 16).toString('latin1'))?.[1];
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers over 16 KiB, malformed
 * request lines, headers that do not arrive within the headers timeout): answered in the
 * contract's {"detail": ...} shape instead of Node's empty body, then the connection is closed.
 * A HEAD request gets the same status and headers without the body.
 */
export function clientError(error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = CLIENT_ERROR_STATUS[error.code ?? ''] ?? 400;
  const body = JSON.stringify({ detail: STATUS_CODES[status] });
  const head =
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n`;
  socket.end(refusedMethod(error, socket) === 'HEAD' ? head : head + body);
}
