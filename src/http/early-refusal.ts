/**
 * The 401 of an /api/v1 request with no key, or with a key no website holds, answered as soon as
 * Node has read the request, before Fastify's request cycle (issue 23).
 *
 * Why: these are the answers an attacker sends by the thousand (a flood of guessed keys), and
 * through Fastify each one paid for its request and reply objects, the hook chains and the reply's
 * serialization: about half again what a bare Fastify server pays for its cheapest answer. Here
 * it costs Node's HTTP parsing, a route look-up, a hash and a map look-up, and the log line.
 *
 * It is a shortcut, never a second behaviour: it answers only where Fastify's path would answer
 * the same 401, byte for byte (status, headers in the same order, body, log line, metrics), and
 * hands anything else to Fastify untouched:
 *
 * - the method and path are those of a keyed route, looked up with find-my-way (Fastify's own
 *   router) built from the app's route table with Fastify's router options, so trailing slashes,
 *   encodings and parameter lengths match exactly as they do there; every /api/v1 route is keyed
 *   (src/routes.ts), and a route this module was not told is keyed is never answered here;
 * - the request is its connection's current one (not pipelined behind an answer under way), on a
 *   connection still open for writing;
 * - the request is plain: no body announced (Content-Length other than 0, Transfer-Encoding), no
 *   `Expect`, no `Upgrade`, a `Host` on HTTP/1.1 (those get the protocol answers of
 *   src/http/plugins/protocol.ts), and no `Origin` when CORS is configured (its headers are
 *   src/http/plugins/cors.ts's);
 * - the key check's verdict is known at once (the access wing's refuseAtOnce(): no key, or a key
 *   the cache freshly knows to be unknown); a key that must be looked up, an inactive key and a
 *   valid key go on.
 *
 * The differential test (test/http/early-refusal.test.ts) sends random requests to the app with and
 * without this module and compares the bytes, the log lines and the counts.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import FindMyWay from 'find-my-way';
import type { FastifyBaseLogger, FastifyServerOptions, RouteOptions } from 'fastify';
import type { Metrics } from '../metrics/metrics.js';
import { JSON_TYPE } from './content-types.js';
import { logAnswer, requestIdOf, writesRequestLines } from './plugins/request-log.js';
import { countAnswer } from './plugins/request-metrics.js';

/** Methods of keyed routes that may be answered here (HEAD is GET's). */
const METHODS = new Set(['GET', 'HEAD', 'POST']);

export interface EarlyRefusalContext {
  /**
   * The key check's refusal of this request when known at once (the 401's detail), else undefined:
   * refuseAtOnce() of the access wing, given by the app.
   */
  refuse: (request: IncomingMessage) => string | undefined;
  /** Called for each refusal answered here (the access wing's countRefusal(), given by the app). */
  refused: (detail: string) => void;
  metrics: Metrics | undefined;
  /** The app's logger. */
  log: FastifyBaseLogger;
  /** CORS_ORIGINS is set: every answer varies by Origin, and requests with one go to Fastify. */
  cors: boolean;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
type ServerFactory = NonNullable<FastifyServerOptions['serverFactory']>;

export interface EarlyRefusal {
  /** Fastify's serverFactory: Node's server as Fastify makes it, with this check before Fastify's handler. */
  serverFactory: ServerFactory;
  /** An onRoute hook for the root (every route) and one for the keyed scope. */
  learnRoute(route: RouteOptions): void;
  learnKeyedRoute(route: RouteOptions): void;
  /** Starts answering (once every route is known: the app's onReady). */
  start(context: EarlyRefusalContext): void;
}

/** Per server made by a serverFactory: how many requests it answered early. */
const answeredCounts = new WeakMap<object, () => number>();

/** How many requests this server has answered here (0 for a server without the early refusal): for tests. */
export function answeredEarly(server: object): number {
  return answeredCounts.get(server)?.() ?? 0;
}

interface KnownRoute {
  url: string;
  keyed: boolean;
}

export function createEarlyRefusal(): EarlyRefusal {
  const routes: { method: string; url: string }[] = [];
  const keyed = new Set<string>();
  let routerOptions: FindMyWay.Config<FindMyWay.HTTPVersion.V1> = {};
  let answer: ((request: IncomingMessage, response: ServerResponse) => boolean) | undefined;
  let answered = 0;

  const serverFactory: ServerFactory = (handler: Handler, options) => {
    const fastifyOptions = options as FastifyServerOptions & { http?: http.ServerOptions; routerOptions?: Record<string, unknown> };
    // Fastify's router options as it built them, without its own fallbacks (a miss here is a
    // hand-over, never a 404).
    const { defaultRoute: _default, onBadUrl: _badUrl, onMaxParamLength: _tooLong, ...rest } = fastifyOptions.routerOptions ?? {};
    routerOptions = rest as FindMyWay.Config<FindMyWay.HTTPVersion.V1>;
    // What Fastify does without a factory (fastify/lib/server.js), with the check in front.
    const server = http.createServer(fastifyOptions.http ?? {}, (request, response) => {
      if (answer === undefined || !answer(request, response)) handler(request, response);
    });
    server.keepAliveTimeout = fastifyOptions.keepAliveTimeout ?? 72_000;
    server.requestTimeout = fastifyOptions.requestTimeout ?? 0;
    server.setTimeout(fastifyOptions.connectionTimeout ?? 0);
    if ((fastifyOptions.maxRequestsPerSocket ?? 0) > 0) server.maxRequestsPerSocket = fastifyOptions.maxRequestsPerSocket!;
    answeredCounts.set(server, () => answered);
    return server as ReturnType<ServerFactory>;
  };

  const methodsOf = (route: RouteOptions) => (Array.isArray(route.method) ? route.method : [route.method]).map((m) => String(m).toUpperCase());

  function start(context: EarlyRefusalContext): void {
    const router = FindMyWay<FindMyWay.HTTPVersion.V1>(routerOptions);
    for (const { method, url } of routes) {
      // Every route, keyed or not: a path must find the same route here as in Fastify's router.
      router.on(method as FindMyWay.HTTPMethod, url, () => undefined, { url, keyed: keyed.has(`${method} ${url}`) } satisfies KnownRoute);
    }
    const { refuse, refused, metrics, log, cors } = context;
    const lines = writesRequestLines(log);
    // The bodies, as Fastify's reply serializes them (JSON.stringify), by detail.
    const bodies = new Map<string, string>();
    answer = (request, response) => {
      const method = request.method!;
      // A pipelined request behind an answer still under way waits for it (no socket yet), and a
      // request read after an answer that closed the connection (no longer writable) is never
      // answered: Fastify's path then neither logs nor counts it. Left to Fastify, so it stays so.
      if (!METHODS.has(method) || response.socket === null || !response.socket.writable) return false;
      const headers = request.headers;
      if (
        (headers['content-length'] !== undefined && headers['content-length'] !== '0') ||
        headers['transfer-encoding'] !== undefined ||
        headers.expect !== undefined ||
        headers.upgrade !== undefined ||
        (headers.host === undefined && request.httpVersion === '1.1') ||
        (cors && headers.origin !== undefined)
      ) {
        return false;
      }
      const started = performance.now();
      // The key first: a request with a valid key (nearly all) goes on without a route look-up,
      // and its key's hash is left for the key check.
      const detail = refuse(request);
      if (detail === undefined) return false;
      const route = router.find(method as FindMyWay.HTTPMethod, request.url!)?.store as KnownRoute | undefined;
      if (route === undefined || !route.keyed) return false;
      refused(detail);

      const requestId = requestIdOf(request);
      let body = bodies.get(detail);
      if (body === undefined) bodies.set(detail, (body = JSON.stringify({ detail })));
      // The headers in the order Fastify's path sets them: the reply's type, then the onSend hooks
      // (request id, nosniff, CORS's Vary), then the length. Literals of one shape each.
      const length = Buffer.byteLength(body);
      const head = cors
        ? { 'content-type': JSON_TYPE, 'x-request-id': requestId, 'x-content-type-options': 'nosniff', vary: 'Origin', 'content-length': length }
        : { 'content-type': JSON_TYPE, 'x-request-id': requestId, 'x-content-type-options': 'nosniff', 'content-length': length };
      response.writeHead(401, head);
      response.end(body);
      answered++;
      const elapsedMs = performance.now() - started;
      if (lines) logAnswer(log, requestId, method, route.url, request.url!, 401, elapsedMs, null);
      if (metrics) countAnswer(metrics, route.url, method, 401, elapsedMs);
      return true;
    };
  }

  return {
    serverFactory,
    learnRoute(route) {
      for (const method of methodsOf(route)) routes.push({ method, url: route.url });
    },
    learnKeyedRoute(route) {
      for (const method of methodsOf(route)) keyed.add(`${method} ${route.url}`);
    },
    start,
  };
}
