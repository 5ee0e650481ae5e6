/**
 * One JSON line per request, at info, written when the answer has gone out (Fastify's own two
 * lines, "incoming request" and "request completed", are turned off in src/app.ts):
 *
 *   {"level":30,...,"reqId":"4f1c...","method":"GET","route":"/api/v1/offers/:offer_id",
 *    "url":"/api/v1/offers/...","status":200,"durationMs":1.42,"websiteId":"...","msg":"request"}
 *
 * The request id comes from the caller's X-Request-Id when it is sane (1 to 128 of
 * A-Z a-z 0-9 . _ : -, and not shaped like an API key), else it is a new UUID; every answer
 * carries it back in X-Request-Id, errors included, and every log line of the request has it as
 * reqId. The key never appears: the line has no headers, and a key pasted into the URL is masked.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'fastify/types/logger.js';
import { UNMATCHED_ROUTE } from '../../metrics/metrics.js';
import { writeRequestLine } from './request-line.js';

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** A key in a text (keys carry the ecs_ prefix precisely so that they can be found and masked). */
const KEY_IN_TEXT = /ecs_[A-Za-z0-9_-]{16,}/g;
const LOOKS_LIKE_KEY = /ecs_[A-Za-z0-9_-]{16,}/;
/** URLs in the log are cut here; the route and the status say what the request was. */
const MAX_LOGGED_URL = 2048;

/** Masks anything shaped like an API key. */
export function maskKeys(text: string): string {
  // Nearly every text has no key: a search for the prefix is cheaper than the replacement.
  return text.includes('ecs_') ? text.replace(KEY_IN_TEXT, 'ecs_[redacted]') : text;
}

/** Fastify's genReqId: the caller's X-Request-Id when sane, else a new UUID. */
export function requestIdOf(raw: IncomingMessage): string {
  const header = raw.headers[REQUEST_ID_HEADER];
  // A repeated header arrives joined with ", ", which the pattern refuses.
  if (typeof header === 'string' && SANE_REQUEST_ID.test(header) && !LOOKS_LIKE_KEY.test(header)) return header;
  return randomUUID();
}

/** The route pattern a request matched (`/api/v1/offers/:offer_id`), never its URL. */
export function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? UNMATCHED_ROUTE;
}

/** Echoes the request id; also called by the answers that skip the onSend hooks (src/http/plugins/error-answers.ts). */
export function echoRequestId(request: FastifyRequest, reply: FastifyReply): void {
  reply.header(REQUEST_ID_HEADER, request.id);
}

/**
 * A request's logger, made only when something logs through it.
 *
 * Fastify gives every request a pino child logger carrying its reqId. Making one costs more than
 * the request line itself (pino serializes the bindings at once), and nearly every request logs
 * nothing but that line, which logRequest() writes through the parent with the same reqId. So
 * the child is made on the first call to one of its methods (an error, a warning, a handler's own
 * line) and every later call goes to it: those lines read exactly as before.
 */
class RequestLogger {
  private made: FastifyBaseLogger | undefined;
  constructor(
    readonly parent: FastifyBaseLogger,
    /** What Fastify binds to the request's child: its id, under Fastify's request-id label. */
    readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get real(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }
  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }
  set level(level: string) {
    this.real.level = level;
  }
  // Methods on the prototype, not arrow properties: a request's logger is one small object.
  fatal(...args: Parameters<FastifyBaseLogger['fatal']>): void {
    this.real.fatal(...args);
  }
  error(...args: Parameters<FastifyBaseLogger['error']>): void {
    this.real.error(...args);
  }
  warn(...args: Parameters<FastifyBaseLogger['warn']>): void {
    this.real.warn(...args);
  }
  info(...args: Parameters<FastifyBaseLogger['info']>): void {
    this.real.info(...args);
  }
  debug(...args: Parameters<FastifyBaseLogger['debug']>): void {
    this.real.debug(...args);
  }
  trace(...args: Parameters<FastifyBaseLogger['trace']>): void {
    this.real.trace(...args);
  }
  silent(...args: Parameters<FastifyBaseLogger['silent']>): void {
    this.real.silent(...args);
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
}

/** Fastify's childLoggerFactory: each request's logger, made lazily (RequestLogger). */
export function requestLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}

/** Levels at which the request line is not written: then it is not even put together. */
const ABOVE_INFO = new Set(['warn', 'error', 'fatal', 'silent']);

/** The request's one log line; also called for the answers that skip the onResponse hooks. */
export function logRequest(request: FastifyRequest, reply: FastifyReply): void {
  const log = request.log;
  if (!writesRequestLines(log)) return;
  const route = routeOf(request);
  const websiteId = request.caller?.websiteId ?? null;
  // Through the parent with the child's binding first (reqId, Fastify's default label, which the
  // app keeps): the same bytes the child would write, without making it.
  if (log instanceof RequestLogger) logAnswer(log.parent, request.id, request.method, route, request.url, reply.statusCode, reply.elapsedTime, websiteId);
  else log.info({ method: request.method, route, url: loggedUrl(request.url), status: reply.statusCode, durationMs: roundedMs(reply.elapsedTime), websiteId }, 'request');
}

/** Whether a logger at this level writes the request line. */
export function writesRequestLines(logger: { level: string }): boolean {
  return !ABOVE_INFO.has(logger.level);
}

/**
 * The request line of an answer, from plain values: logRequest()'s, and the early answers'
 * (src/http/early-answers.ts), which has no Fastify request. `logger` is the app's logger; the
 * caller has checked writesRequestLines().
 */
export function logAnswer(logger: FastifyBaseLogger, reqId: string, method: string, route: string, rawUrl: string, status: number, elapsedMs: number, websiteId: string | null): void {
  // A literal, not a spread of the bindings: V8 made a new hidden class for each spread object,
  // which cost more than the rest of the line (docs/performance.md, the key check).
  writeRequestLine(logger, { reqId, method, route, url: loggedUrl(rawUrl), status, durationMs: roundedMs(elapsedMs), websiteId });
}

/** The URL as logged: any key masked, cut at MAX_LOGGED_URL. */
function loggedUrl(rawUrl: string): string {
  const masked = maskKeys(rawUrl);
  return masked.length > MAX_LOGGED_URL ? `${masked.slice(0, MAX_LOGGED_URL)}...` : masked;
}

function roundedMs(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/**
 * Fastify's own request lines turned off (its "incoming request" and "request completed"); the
 * other lines it may write (a stream that fails mid-answer, say) stay.
 */
export function quietRequestLogging(): LogController {
  return new LogController({ disableRequestLogging: true });
}

export function logRequests(app: FastifyInstance): void {
  // Callback style: no promise per response.
  app.addHook('onSend', (request, reply, payload, done) => {
    echoRequestId(request, reply);
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    logRequest(request, reply);
    done();
  });
}

/** Header values that must never reach a log line. */
const REDACTED_PATHS = ['req.headers.authorization', 'request.headers.authorization', 'headers.authorization'];

/** The app's logger options: the level, our request serializer, the Authorization header redacted; a caller's own options (tests) on top. */
export function loggerOptions(level: string, logger: FastifyServerOptions['logger'] | boolean | undefined): FastifyServerOptions['logger'] {
  if (logger === false) return false;
  const base = typeof logger === 'object' && logger !== null ? logger : {};
  const redact = (base as { redact?: unknown }).redact;
  const extraPaths = Array.isArray(redact) ? (redact as string[]) : [];
  return {
    level,
    ...base,
    // A caller's own serializers (tests) win; ours masks keys pasted into URLs.
    serializers: { req: serializeRequest, ...(base as { serializers?: Record<string, unknown> }).serializers },
    redact: { paths: [...REDACTED_PATHS, ...extraPaths], censor: '[redacted]' },
  };
}

/** A key pasted into a URL by mistake is masked before the URL reaches the log (keys carry the ecs_ prefix for this). */
function serializeRequest(request: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) {
  return {
    method: request.method,
    url: maskKeys(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
