/**
 * One place that reads the environment. The server and the command line both call loadConfig(),
 * so they always agree on which database they use.
 */
import path from 'node:path';

export interface Config {
  /** postgres://... for a PostgreSQL server; undefined means embedded PGlite in dataDir. */
  readonly databaseUrl: string | undefined;
  /** Folder of the embedded database (used only without databaseUrl). */
  readonly dataDir: string;
  readonly port: number;
  readonly host: string;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Largest accepted request body, in bytes. */
  readonly bodyLimit: number;
  /** How long a looked-up API key is trusted before it is read again (contract: at most 5 s). */
  readonly keyCacheTtlMs: number;
  /** Per-statement timeout on the server database, in milliseconds. */
  readonly statementTimeoutMs: number;
  /** Largest number of pooled connections to a PostgreSQL server. */
  readonly poolMax: number;
  /** In-process response cache (RESPONSE_CACHE=on|off). */
  readonly responseCache: boolean;
  /** Memory budget of the response cache, in bytes. */
  readonly responseCacheBytes: number;
  /** Memory budget of the offer body cache (offer_data bytes of recently served offers), in bytes; 0 turns it off. */
  readonly offerBodyCacheBytes: number;
  /** Memory budget of the facet columns (organizations' offers as columns, for facet counts), in bytes; 0 turns them off. */
  readonly facetColumnsBytes: number;
  /** How often each instance checks whether an import changed the content, in milliseconds. */
  readonly contentPollMs: number;
  /** Addresses per sitemap part (E12): the protocol's 50,000 at most; smaller for tests. */
  readonly sitemapPageSize: number;
  /** Worker processes (node:cluster); 1 runs in-process. PostgreSQL only. */
  readonly webConcurrency: number;
  /** How long a request may wait for a pooled PostgreSQL connection before a 503, in milliseconds. */
  readonly poolTimeoutMs: number;
  /** Requests per minute per API key; 0 turns rate limiting off (the default; 600 suggested in production). */
  readonly rateLimitPerMinute: number;
  /** redis://... shares the rate-limit budget between instances; undefined keeps it in-process. */
  readonly redisUrl: string | undefined;
  /** Prefix of the rate-limit counters in Redis (one per deployment sharing a Redis). */
  readonly rateLimitRedisPrefix: string;
  /** Browser origins allowed by CORS (exact `scheme://host[:port]`); empty means no CORS headers at all. */
  readonly corsOrigins: readonly string[];
  /** After SIGTERM, keep serving this long (answers close their connections) before closing the listener, so a load balancer can take the instance out first. */
  readonly shutdownDelayMs: number;
  /** Port of the metrics listener (GET /metrics, Prometheus text); undefined: no such listener (the default). */
  readonly metricsPort: number | undefined;
  /** Address the metrics listener binds (default 127.0.0.1: this machine only). */
  readonly metricsHost: string;
  /** Bearer token for /metrics: required on the metrics listener when set, and the only way to open GET /metrics on the main listener. */
  readonly metricsToken: string | undefined;
  /** Webhook delivery by this instance (WEBHOOKS=on|off); the outbox is written either way. */
  readonly webhooks: boolean;
  /** How often the sender looks for due webhook deliveries, in milliseconds. */
  readonly webhookPollMs: number;
  /** How long one webhook request may take before it counts as failed, in milliseconds. */
  readonly webhookTimeoutMs: number;
  /** Webhook requests this instance has under way at most. */
  readonly webhookConcurrency: number;
  /** Wait after a delivery's first failed attempt; each later wait is 6 times longer. */
  readonly webhookRetryFirstMs: number;
  /** Longest wait between two attempts of a delivery. */
  readonly webhookRetryMaxMs: number;
  /** A delivery still not delivered this long after it was written is given up (status failed). */
  readonly webhookGiveUpAfterMs: number;
  /** Change-feed tombstones (deletes) are kept at least this many days; older cursors expire (410). */
  readonly feedRetentionDays: number;
  /** Origins photo sources may be fetched from (IMAGE_SOURCES); empty: nothing is fetched, every photo is unavailable. */
  readonly imageSources: readonly string[];
  /** Where fetched sources and rendered variants are kept (IMAGE_CACHE_DIR, default DATA_DIR/images); instances may share it. */
  readonly imageCacheDir: string;
  /** Signs variant URLs (IMAGE_SIGNING_SECRET); undefined: the secret the database made (photo_settings), shared by its instances. */
  readonly imageSigningSecret: string | undefined;
  /** Variants (and placeholders) this instance renders at once at most; the memory bound of rendering. */
  readonly imageRenderConcurrency: number;
  /** Photo sources this instance fetches at once at most. */
  readonly imageFetchConcurrency: number;
  /** Memory for the bytes of recently served photo variants, in bytes; 0 reads every answer from its file. */
  readonly imageMemoryCacheBytes: number;
  /** How often the photo fetcher looks for queued sources when no import wakes it, in milliseconds. */
  readonly imageFetchPollMs: number;
  /** The service's public base URL (PUBLIC_URL, e.g. https://api.example.pl): variant URLs start with it; undefined: the request's own origin. */
  readonly publicUrl: string | undefined;
}

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['on', 'true', '1', 'yes'].includes(raw)) return true;
  if (['off', 'false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be on or off, got "${env[name]}"`);
}

/** CORS_ORIGINS: a comma-separated list of origins (`https://www.example.com`); `*` is refused, so CORS stays explicit. */
function origins(env: NodeJS.ProcessEnv, name: string): readonly string[] {
  const raw = env[name]?.trim();
  if (!raw) return Object.freeze([]);
  const list = raw.split(',').map((item) => item.trim()).filter((item) => item !== '');
  return Object.freeze(
    list.map((item) => {
      let url: URL | undefined;
      try {
        url = new URL(item);
      } catch {
        url = undefined;
      }
      const bare = url && url.pathname === '/' && !url.search && !url.hash && !url.username && /^https?:$/.test(url.protocol);
      if (!url || !bare) throw new ConfigError(`${name} must list origins such as https://www.example.com, got "${item}"`);
      return url.origin;
    }),
  );
}

/** METRICS_TOKEN: long enough not to be guessed, and sendable in a header as it is. */
function metricsToken(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.METRICS_TOKEN?.trim();
  if (!raw) return undefined;
  if (!/^[\x21-\x7e]{16,256}$/.test(raw)) {
    throw new ConfigError('METRICS_TOKEN must be 16 to 256 printable characters without spaces');
  }
  return raw;
}

/** PUBLIC_URL: an absolute http(s) URL, perhaps with a path prefix; kept without its trailing slash. */
function publicUrl(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.PUBLIC_URL?.trim();
  if (!raw) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username) {
    throw new ConfigError(`PUBLIC_URL must be an absolute URL such as https://api.example.pl, got "${raw}"`);
  }
  return url.href.replace(/\/+$/, '');
}

/** IMAGE_SIGNING_SECRET: long enough not to be guessed. */
function signingSecret(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.IMAGE_SIGNING_SECRET?.trim();
  if (!raw) return undefined;
  if (raw.length < 32) throw new ConfigError('IMAGE_SIGNING_SECRET must have at least 32 characters');
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_URL must start with redis:// or rediss://');
  }
  const logLevel = (env.LOG_LEVEL?.trim() || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }
  const port = int(env, 'PORT', 8000, 0, 65535);
  const metricsPort = env.METRICS_PORT?.trim() ? int(env, 'METRICS_PORT', 0, 1, 65535) : undefined;
  if (metricsPort !== undefined && metricsPort === port) throw new ConfigError('METRICS_PORT must differ from PORT');
  const dataDir = path.resolve(env.DATA_DIR?.trim() || './data');
  return Object.freeze({
    databaseUrl,
    dataDir,
    port,
    host: env.HOST?.trim() || '127.0.0.1',
    logLevel,
    bodyLimit: int(env, 'BODY_LIMIT', 1024 * 1024, 1024, 64 * 1024 * 1024),
    keyCacheTtlMs: int(env, 'KEY_CACHE_TTL_MS', 2000, 0, 5000),
    statementTimeoutMs: int(env, 'DB_STATEMENT_TIMEOUT_MS', 5000, 100, 600_000),
    poolMax: int(env, 'DB_POOL_MAX', 10, 1, 1000),
    responseCache: flag(env, 'RESPONSE_CACHE', true),
    responseCacheBytes: int(env, 'RESPONSE_CACHE_MB', 256, 0, 64 * 1024) * 1024 * 1024,
    offerBodyCacheBytes: int(env, 'OFFER_CACHE_MB', 128, 0, 64 * 1024) * 1024 * 1024,
    facetColumnsBytes: int(env, 'FACET_COLUMNS_MB', 256, 0, 64 * 1024) * 1024 * 1024,
    contentPollMs: int(env, 'CONTENT_POLL_MS', 1000, 50, 60_000),
    sitemapPageSize: int(env, 'SITEMAP_PAGE_SIZE', 50_000, 1, 50_000),
    webConcurrency: int(env, 'WEB_CONCURRENCY', 1, 1, 256),
    poolTimeoutMs: int(env, 'DB_POOL_TIMEOUT_MS', 5000, 100, 600_000),
    rateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 0, 0, 10_000_000),
    redisUrl,
    rateLimitRedisPrefix: env.RATE_LIMIT_REDIS_PREFIX?.trim() || 'ecs:ratelimit:',
    corsOrigins: origins(env, 'CORS_ORIGINS'),
    shutdownDelayMs: int(env, 'SHUTDOWN_DELAY_MS', 0, 0, 600_000),
    metricsPort,
    metricsHost: env.METRICS_HOST?.trim() || '127.0.0.1',
    metricsToken: metricsToken(env),
    webhooks: flag(env, 'WEBHOOKS', true),
    webhookPollMs: int(env, 'WEBHOOK_POLL_MS', 1000, 10, 600_000),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 600_000),
    webhookConcurrency: int(env, 'WEBHOOK_CONCURRENCY', 8, 1, 1000),
    webhookRetryFirstMs: int(env, 'WEBHOOK_RETRY_FIRST_MS', 5000, 10, 86_400_000),
    webhookRetryMaxMs: int(env, 'WEBHOOK_RETRY_MAX_MS', 3_600_000, 10, 86_400_000),
    webhookGiveUpAfterMs: int(env, 'WEBHOOK_GIVE_UP_AFTER_MS', 86_400_000, 1000, 30 * 86_400_000),
    feedRetentionDays: int(env, 'FEED_RETENTION_DAYS', 30, 1, 36_500),
    imageSources: origins(env, 'IMAGE_SOURCES'),
    imageCacheDir: path.resolve(env.IMAGE_CACHE_DIR?.trim() || path.join(dataDir, 'images')),
    imageSigningSecret: signingSecret(env),
    imageRenderConcurrency: int(env, 'IMAGE_RENDER_CONCURRENCY', 2, 1, 64),
    imageFetchConcurrency: int(env, 'IMAGE_FETCH_CONCURRENCY', 4, 1, 64),
    imageFetchPollMs: int(env, 'IMAGE_FETCH_POLL_MS', 1000, 10, 600_000),
    imageMemoryCacheBytes: int(env, 'IMAGE_MEMORY_CACHE_MB', 32, 0, 64 * 1024) * 1024 * 1024,
    publicUrl: publicUrl(env),
  });
}
