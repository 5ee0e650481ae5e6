/**
 * Two answers given as soon as Node has read the request, before Fastify's request cycle (issue 23):
 *
 * - the 401 of an /api/v1 request with no key, or with a key no website holds;
 * - a GET or HEAD answered from the response cache, for a key the key cache admits at once
 *   (src/http/caching/early-hit.ts), when no rate limit counts requests and no CORS origins are
 *   configured (both add to every answer through Fastify's hooks).
 *
 * Why: the first are what an attacker sends by the thousand (a flood of guessed keys), the second
 * the service's cheapest 200, and through Fastify each paid for its request and reply objects, the
 * hook chains and the reply's send: more than the answer itself. Here a refusal costs Node's HTTP
 * parsing, a hash and a map look-up, a route look-up and the log line; a hit, one more look-up.
 *
 * It is a shortcut, never a second behaviour: it answers only where Fastify's path would give the
 * same answer, byte for byte (status, headers in the same order, body, log line, metrics), and
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
 *   the cache freshly knows to be unknown; admitAtOnce(): a key it freshly knows to be valid); a
 *   key that must be looked up and an inactive key go on.
 *
 * The differential test (test/http/early-answers.test.ts) sends random requests to the app with and
 * without this module and compares the bytes, the log lines and the counts.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import FindMyWay from 'find-my-way';
import type { FastifyBaseLogger, FastifyServerOptions, RouteOptions } from 'fastify';
import type { Metrics } from '../metrics/metrics.js';
import type { EarlyHit } from './caching/early-hit.js';
import { JSON_TYPE } from './content-types.js';
import { logAnswer, requestIdOf, writesRequestLines } from './plugins/request-log.js';
import { countAnswer } from './plugins/request-metrics.js';

/** Methods of keyed routes that may be answered here (HEAD is GET's). */
const METHODS = new Set(['GET', 'HEAD', 'POST']);

/** A cached answer found for a request whose key was admitted at once, with what to count when it is sent. */
export interface AdmittedHit {
  readonly hit: EarlyHit;
  /** The caller's website, for the log line. */
  readonly websiteId: string;
  /** Counts what Fastify's path counts for it (the key check's admission, the cache's hit). */
  count(): void;
}

export interface EarlyAnswersContext {
  /**
   * The key check's refusal of this request when known at once (the 401's detail), else undefined:
   * refuseAtOnce() of the access wing, given by the app.
   */
  refuse: (request: IncomingMessage) => string | undefined;
  /** Called for each refusal answered here (the access wing's countRefusal(), given by the app). */
  refused: (detail: string) => void;
  /**
   * The cached answer to a GET or HEAD that refuse() let through, when its key is admitted at once
   * and the cache holds the answer; undefined to leave it to Fastify. Not given (no cached
   * answers here) when a rate limit or CORS is configured.
   */
  cached?: ((request: IncomingMessage) => AdmittedHit | undefined) | undefined;
  metrics: Metrics | undefined;
  /** The app's logger. */
  log: FastifyBaseLogger;
  /** CORS_ORIGINS is set: every answer varies by Origin, and requests with one go to Fastify. */
  cors: boolean;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
type ServerFactory = NonNullable<FastifyServerOptions['serverFactory']>;

export interface EarlyAnswers {
  /** Fastify's serverFactory: Node's server as Fastify makes it, with these answers before Fastify's handler. */
  serverFactory: ServerFactory;
  /** An onRoute hook for the root (every route) and one for the keyed scope. */
  learnRoute(route: RouteOptions): void;
  learnKeyedRoute(route: RouteOptions): void;
  /** Starts answering (once every route is known: the app's onReady). */
  start(context: EarlyAnswersContext): void;
}

/** Per server made by a serverFactory: how many requests it answered early. */
const answeredCounts = new WeakMap<object, () => number>();

/** How many requests this server has answered here (0 for a server without the early answers): for tests. */
export function answeredEarly(server: object): number {
  return answeredCounts.get(server)?.() ?? 0;
}

interface KnownRoute {
  url: string;
  keyed: boolean;
}

export function createEarlyAnswers(): EarlyAnswers {
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

  function start(context: EarlyAnswersContext): void {
    const router = FindMyWay<FindMyWay.HTTPVersion.V1>(routerOptions);
    for (const { method, url } of routes) {
      // Every route, keyed or not: a path must find the same route here as in Fastify's router.
      router.on(method as FindMyWay.HTTPMethod, url, () => undefined, { url, keyed: keyed.has(`${method} ${url}`) } satisfies KnownRoute);
    }
    const { refuse, refused, cached, metrics, log, cors } = context;
    const lines = writesRequestLines(log);
    const keyedRoute = (method: string, url: string): KnownRoute | undefined => {
      const route = router.find(method as FindMyWay.HTTPMethod, url)?.store as KnownRoute | undefined;
      return route?.keyed ? route : undefined;
    };
    const answerFromCache = (request: IncomingMessage, response: ServerResponse, started: number, find: NonNullable<typeof cached>): boolean => {
      const method = request.method!;
      const found = find(request);
      if (found === undefined) return false;
      const route = keyedRoute(method, request.url!);
      if (route === undefined) return false;
      found.count();
      const { hit } = found;
      const requestId = requestIdOf(request);
      response.writeHead(hit.status, hit.headers(requestId));
      // Node sends no body after a HEAD or a 304 in any case.
      if (hit.body === undefined || method === 'HEAD') response.end();
      else response.end(hit.body);
      answered++;
      const elapsedMs = performance.now() - started;
      if (lines) logAnswer(log, requestId, method, route.url, request.url!, hit.status, elapsedMs, found.websiteId);
      if (metrics) countAnswer(metrics, route.url, method, hit.status, elapsedMs);
      return true;
    };
    // The bodies, as Fastify's reply serializes them (JSON.stringify), and their lengths, by detail.
    const bodies = new Map<string, { text: string; length: number }>();
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
      if (detail === undefined) return cached !== undefined && method !== 'POST' && answerFromCache(request, response, started, cached);
      const route = keyedRoute(method, request.url!);
      if (route === undefined) return false;
      refused(detail);

      const requestId = requestIdOf(request);
      let body = bodies.get(detail);
      if (body === undefined) {
        const text = JSON.stringify({ detail });
        bodies.set(detail, (body = { text, length: Buffer.byteLength(text) }));
      }
      // The headers in the order Fastify's path sets them: the reply's type, then the onSend hooks
      // (request id, nosniff, CORS's Vary), then the length. Literals of one shape each.
      const { text, length } = body;
      const head = cors
        ? { 'content-type': JSON_TYPE, 'x-request-id': requestId, 'x-content-type-options': 'nosniff', vary: 'Origin', 'content-length': length }
        : { 'content-type': JSON_TYPE, 'x-request-id': requestId, 'x-content-type-options': 'nosniff', 'content-length': length };
      response.writeHead(401, head);
      response.end(text);
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
