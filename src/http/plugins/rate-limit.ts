/**
 * Per-key rate limiting of the /api/v1 routes: a fixed window of 60 seconds per API key, counted
 * under the SHA-256 of the key (never the key itself), in Redis when REDIS_URL is set (every
 * instance shares one budget) or in process otherwise.
 *
 * Counting is @fastify/rate-limit's (its in-process LRU store, or its Redis store with an atomic
 * INCR + PEXPIRE script), asked through `createRateLimit()` from our own onRequest hook, because
 * the answers are ours:
 * - headers of draft-ietf-httpapi-ratelimit-headers-07 on every counted response (the plugin writes
 *   the older separate `ratelimit-limit` / `-remaining` / `-reset` headers):
 *     RateLimit-Policy: 600;w=60
 *     RateLimit: limit=600, remaining=599, reset=60
 * - past the budget, 429 {"detail":"Rate limit exceeded"} with Retry-After (the same instant as
 *   `reset`), the contract's error shape;
 * - if the store does not answer (Redis down or slower than 250 ms), the request is served
 *   unlimited (fail open) and a warning is logged at most every 30 s: a cache outage must not take
 *   the API down. The plugin's skipOnError would fail open silently, with a full budget in the headers.
 *
 * Register in the /api/v1 scope after the key check: only authenticated requests are counted, so
 * random keys cannot fill the store and a 401 never costs another website's budget.
 */
import rateLimitPlugin from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { JSON_TYPE } from '../content-types.js';

export const RATE_LIMIT_WINDOW_SECONDS = 60;
const WINDOW_MS = RATE_LIMIT_WINDOW_SECONDS * 1000;
/** Keys counted in process at once (least recently used beyond that are forgotten). */
const LOCAL_KEYS = 100_000;

export interface RateLimitOptions {
  /** Requests per key per window; 0 registers nothing. */
  limit: number;
  /** redis://...; undefined counts in process. */
  redisUrl?: string | undefined;
  /** Prefix of the Redis keys (tests use a unique one). */
  redisPrefix?: string;
  /**
   * What a request is counted under (undefined: not counted). Default: the SHA-256 of its API key.
   * The keyless open-data paths (extension E10) count per client address.
   */
  countedKey?: (request: FastifyRequest) => string | undefined;
  /** How long one Redis round trip may take before the request is served unlimited. */
  redisTimeoutMs?: number;
}

/** The Redis client of the shared counters: fails fast instead of queueing while Redis is away. */
function connectRedis(url: string, timeoutMs: number, log: FastifyBaseLogger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeoutMs,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    lazyConnect: false,
  });
  const warn = warnAtMostEvery(30_000, log);
  // Without a listener ioredis prints every connection error itself.
  redis.on('error', (error: Error) => warn({ err: { message: error.message } }, 'rate limit store (Redis) unavailable'));
  return redis;
}

/** Resolves once connected, or false after `timeoutMs` (requests are served unlimited until then). */
function redisReady(redis: Redis, timeoutMs = 2000): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(value);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.on('ready', onReady);
  });
}

/** A logger call that speaks at most once per interval (an outage must not flood the log). */
function warnAtMostEvery(intervalMs: number, log: FastifyBaseLogger) {
  let last = -Infinity;
  return (fields: object, message: string) => {
    const now = Date.now();
    if (now - last < intervalMs) return;
    last = now;
    log.warn(fields, message);
  };
}

/** `RateLimit` and `RateLimit-Policy` (draft-ietf-httpapi-ratelimit-headers-07). */
export function rateLimitHeaders(limit: number, remaining: number, resetInMs: number): Record<string, string> {
  const reset = Math.max(0, Math.ceil(resetInMs / 1000));
  return {
    'ratelimit-policy': `${limit};w=${RATE_LIMIT_WINDOW_SECONDS}`,
    ratelimit: `limit=${limit}, remaining=${Math.max(0, remaining)}, reset=${reset}`,
  };
}

/**
 * The key a request is counted under: the SHA-256 of its API key, as the key check computed it
 * (undefined: not authenticated).
 */
function countedKey(request: FastifyRequest): string | undefined {
  return request.caller?.keySha256;
}

/**
 * Adds the per-key limit to `scope` (the /api/v1 scope, after the key check). Does nothing when
 * the limit is 0. Closes its Redis client when the app closes.
 */
export async function registerRateLimit(scope: FastifyInstance, options: RateLimitOptions): Promise<void> {
  if (options.limit <= 0) return;
  const counted = options.countedKey ?? countedKey;
  let redis: Redis | undefined;
  if (options.redisUrl) {
    redis = connectRedis(options.redisUrl, options.redisTimeoutMs ?? 250, scope.log);
    if (!(await redisReady(redis))) scope.log.warn('rate limit store (Redis) not reachable yet; serving without a limit until it is');
    const client = redis;
    scope.addHook('onClose', async () => client.disconnect());
  }
  // global: false: the plugin adds no hook of its own; we ask it to count from ours.
  await scope.register(rateLimitPlugin, {
    global: false,
    max: options.limit,
    timeWindow: WINDOW_MS,
    keyGenerator: (request) => counted(request) ?? '',
    skipOnError: false,
    cache: LOCAL_KEYS,
    ...(redis ? { redis, nameSpace: options.redisPrefix ?? 'ecs:ratelimit:' } : {}),
  });
  const count = scope.createRateLimit();
  const warn = warnAtMostEvery(30_000, scope.log);

  scope.addHook('onRequest', async function rateLimit(request: FastifyRequest, reply: FastifyReply) {
    // The key check answered already (401); nothing to count.
    if (counted(request) === undefined) return undefined;
    let state: Awaited<ReturnType<typeof count>>;
    try {
      state = await count(request);
    } catch (error) {
      warn({ err: { message: (error as Error).message } }, 'rate limit store unavailable; serving without a limit');
      return undefined;
    }
    if (state.isAllowed) return undefined;
    reply.headers(rateLimitHeaders(options.limit, state.remaining, state.ttl));
    if (!state.isExceeded) return undefined;
    const retryAfter = Math.max(1, Math.ceil(state.ttl / 1000));
    return reply
      .code(429)
      .header('retry-after', String(retryAfter))
      .type(JSON_TYPE)
      .send({ detail: 'Rate limit exceeded' });
  });
}
