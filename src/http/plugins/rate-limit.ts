/**
 * Per-key rate limiting of the /api/v1 routes: a fixed window of 60 seconds per API key, counted
 * under the SHA-256 of the key (never the key itself), in Redis when REDIS_URL is set (every
 * instance shares one budget) or in process otherwise.
 *
 * Headers follow draft-ietf-httpapi-ratelimit-headers-07 on every counted response:
 *   RateLimit-Policy: 600;w=60
 *   RateLimit: limit=600, remaining=599, reset=60
 * and a request over the budget gets 429 {"detail":"Rate limit exceeded"} with Retry-After (the
 * same instant as `reset`).
 *
 * Register in the /api/v1 scope after the key check: only authenticated requests are counted, so
 * random keys cannot fill the store and a 401 never costs another website's budget.
 * If Redis does not answer, requests are served unlimited (fail open) and a warning is logged:
 * a cache outage must not take the API down.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { hashKey } from '../../domain/api-keys.js';
import { presentedKey } from '../auth/authenticate.js';

export const RATE_LIMIT_WINDOW_SECONDS = 60;
const WINDOW_MS = RATE_LIMIT_WINDOW_SECONDS * 1000;

export interface RateLimitOptions {
  /** Requests per key per window; 0 registers nothing. */
  limit: number;
  /** redis://...; undefined counts in process. */
  redisUrl?: string | undefined;
  /** Prefix of the Redis keys (tests use a unique one). */
  redisPrefix?: string;
  /** How long one Redis round trip may take before the request is served unlimited. */
  redisTimeoutMs?: number;
}

/** One counted request: how many requests the key made in its window, and when the window ends. */
export interface WindowCount {
  count: number;
  resetInMs: number;
}

export interface RateLimitStore {
  /** Counts one request of `key`; rejects when the store cannot answer. */
  hit(key: string): Promise<WindowCount>;
  close(): Promise<void>;
}

/** Counters in this process; expired windows are swept once a window. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), WINDOW_MS);
    this.sweeper.unref();
  }

  async hit(key: string): Promise<WindowCount> {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + WINDOW_MS };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetInMs: window.endsAt - now };
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }

  get size(): number {
    return this.windows.size;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.windows.clear();
  }
}

/** INCR and start the window on the first request, atomically: every instance sees one counter. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

type RedisWithHit = Redis & { rateLimitHit(key: string, windowMs: number): Promise<[number, number]> };

/** Counters in Redis, shared by every instance that uses the same REDIS_URL and prefix. */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: RedisWithHit;

  constructor(
    url: string,
    private readonly prefix: string,
    log: FastifyBaseLogger,
    timeoutMs = 250,
  ) {
    const redis = new Redis(url, {
      // Fail fast instead of queueing while Redis is away; the request is then served unlimited.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: timeoutMs,
      connectTimeout: 2000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      lazyConnect: false,
    });
    redis.defineCommand('rateLimitHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    const warn = warnAtMostEvery(30_000, log);
    // Without a listener ioredis prints every connection error itself.
    redis.on('error', (error: Error) => warn({ err: { message: error.message } }, 'rate limit store (Redis) unavailable'));
    this.redis = redis as RedisWithHit;
  }

  /** Resolves once connected, or after `timeoutMs` (requests are served unlimited until then). */
  async ready(timeoutMs = 2000): Promise<boolean> {
    if (this.redis.status === 'ready') return true;
    return new Promise((resolve) => {
      const done = (value: boolean) => {
        clearTimeout(timer);
        this.redis.off('ready', onReady);
        resolve(value);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.redis.on('ready', onReady);
    });
  }

  async hit(key: string): Promise<WindowCount> {
    const [count, ttl] = await this.redis.rateLimitHit(this.prefix + key, WINDOW_MS);
    return { count: Number(count), resetInMs: Number(ttl) };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
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
export function rateLimitHeaders(limit: number, count: number, resetInMs: number): Record<string, string> {
  const reset = Math.max(0, Math.ceil(resetInMs / 1000));
  return {
    'ratelimit-policy': `${limit};w=${RATE_LIMIT_WINDOW_SECONDS}`,
    ratelimit: `limit=${limit}, remaining=${Math.max(0, limit - count)}, reset=${reset}`,
  };
}

/** The onRequest hook that counts a request against its key and answers 429 past the limit. */
export function createRateLimitHook(store: RateLimitStore, limit: number, log: FastifyBaseLogger) {
  const warn = warnAtMostEvery(30_000, log);
  return async function rateLimit(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const key = presentedKey(request.headers.authorization);
    // The key check answered already (401); nothing to count.
    if (key === undefined || request.caller === null) return undefined;
    let window: WindowCount;
    try {
      window = await store.hit(hashKey(key));
    } catch (error) {
      warn({ err: { message: (error as Error).message } }, 'rate limit store unavailable; serving without a limit');
      return undefined;
    }
    reply.headers(rateLimitHeaders(limit, window.count, window.resetInMs));
    if (window.count <= limit) return undefined;
    const retryAfter = Math.max(1, Math.ceil(window.resetInMs / 1000));
    return reply
      .code(429)
      .header('retry-after', String(retryAfter))
      .type('application/json; charset=utf-8')
      .send({ detail: 'Rate limit exceeded' });
  };
}

/**
 * Adds the per-key limit to `scope` (the /api/v1 scope, after the key check). Does nothing when
 * the limit is 0. Closes its store when the app closes.
 */
export async function registerRateLimit(scope: FastifyInstance, options: RateLimitOptions): Promise<RateLimitStore | undefined> {
  if (options.limit <= 0) return undefined;
  let store: RateLimitStore;
  if (options.redisUrl) {
    const redis = new RedisRateLimitStore(options.redisUrl, options.redisPrefix ?? 'ecs:ratelimit:', scope.log, options.redisTimeoutMs);
    if (!(await redis.ready())) scope.log.warn('rate limit store (Redis) not reachable yet; serving without a limit until it is');
    store = redis;
  } else {
    store = new MemoryRateLimitStore();
  }
  scope.addHook('onRequest', createRateLimitHook(store, options.limit, scope.log));
  scope.addHook('onClose', async () => store.close());
  return store;
}
