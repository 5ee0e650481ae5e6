/**
 * The service's Prometheus metrics: one registry and the metric objects in it, created once per
 * process by createMetrics() and handed explicitly to whoever counts something (the app's hooks,
 * the response cache lookup, the key check, the control socket). Nothing registers itself behind
 * the scenes: every metric is a line of createMetrics(), so a new one (webhook deliveries, say) is
 * one line here and one `metrics?.name.inc(...)` where it happens.
 *
 * Names start with `estate_`, not with the key prefix `ecs_`, so that no metric name looks like a
 * leaked API key to a secret scanner. Labels are bounded: a route pattern (never the raw URL),
 * a method, a status code, an outcome.
 */
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What a database pool reports (pg.Pool's totalCount, idleCount, waitingCount). */
export interface PoolUsage {
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
  readonly max: number;
}

/** Route label of a request that matched no route (404, 405): bounded, whatever the URL was. */
export const UNMATCHED_ROUTE = '(unmatched)';

/** Latency buckets, in seconds: a cached answer takes well under a millisecond. */
const HTTP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Render durations, in seconds: a small source takes milliseconds, a 12-megapixel JPEG about 0.2 s. */
const RENDER_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Import durations, in seconds: a small bundle takes a second, a whole agency minutes. */
const IMPORT_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];

export interface MetricsOptions {
  /**
   * Also collect Node's process metrics (CPU, memory, event loop lag, GC, handles): once per
   * process, by the server. Tests leave it off (it installs process-wide observers).
   */
  processMetrics?: boolean;
  /**
   * A cluster worker: its registry answers the primary's collection requests (prom-client's
   * AggregatorRegistry), and the primary serves the sum of every worker's figures.
   */
  clusterWorker?: boolean;
}

export function createMetrics(options: MetricsOptions = {}) {
  // An AggregatorRegistry is a Registry that also answers the primary's requests in a worker.
  const registry: Registry = options.clusterWorker ? (new AggregatorRegistry() as unknown as Registry) : new Registry();
  if (options.clusterWorker) AggregatorRegistry.setRegistries([registry]);
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const pools: Array<() => PoolUsage | undefined> = [];
  let photoQueue: (() => Promise<number>) | undefined;
  let photosInFlight: (() => number) | undefined;
  const poolGauge = (name: string, help: string, field: keyof PoolUsage) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        let sum = 0;
        for (const read of pools) sum += read()?.[field] ?? 0;
        this.set(sum);
      },
    });

  const metrics = {
    registry,
    httpRequests: new Counter({
      name: 'estate_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status code.',
      labelNames: ['route', 'method', 'status'] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: 'estate_http_request_duration_seconds',
      help: 'Time from receiving a request to sending its answer, by route pattern, method and status code.',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: HTTP_BUCKETS,
      registers,
    }),
    responseCacheLookups: new Counter({
      name: 'estate_response_cache_lookups_total',
      help: 'Response cache lookups of /api/v1 reads (result: hit or miss); none while RESPONSE_CACHE is off.',
      labelNames: ['result'] as const,
      registers,
    }),
    keyCacheLookups: new Counter({
      name: 'estate_key_cache_lookups_total',
      help: 'API key checks answered from memory, the key directory or a remembered lookup (hit), or that waited for a read from the database (miss).',
      labelNames: ['result'] as const,
      registers,
    }),
    contentChanges: new Counter({
      name: 'estate_content_changes_total',
      help: 'Content version changes this process noticed (an import that changed content, run by any process), each emptying its response cache.',
      registers,
    }),
    importRuns: new Counter({
      name: 'estate_import_runs_total',
      help: 'Imports run inside this process (through the control socket of the embedded service), by command (import or mirror) and result (ok or failed).',
      labelNames: ['command', 'result'] as const,
      registers,
    }),
    importDuration: new Histogram({
      name: 'estate_import_duration_seconds',
      help: 'Duration of the imports run inside this process, by command (import or mirror) and result (ok or failed).',
      labelNames: ['command', 'result'] as const,
      buckets: IMPORT_BUCKETS,
      registers,
    }),
    webhookAttempts: new Counter({
      name: 'estate_webhook_attempts_total',
      help: 'Webhook requests this process made, by result: delivered (2xx), retry (failed, tried again later), failed (failed for good: the retry period has passed).',
      labelNames: ['result'] as const,
      registers,
    }),
    photoFetches: new Counter({
      name: 'estate_photo_fetches_total',
      help: 'Photo source fetches this process finished, by outcome: ready (kept, variants can be rendered), unavailable (refused, failed or not an image; the reason is on the photo), released (the instance stopped mid-fetch; the source is due again at once).',
      labelNames: ['outcome'] as const,
      registers,
    }),
    photoVariantLookups: new Counter({
      name: 'estate_photo_variant_lookups_total',
      help: 'Requests for a variant URL the service signed, by where its bytes came from: memory (IMAGE_MEMORY_CACHE_MB), file (IMAGE_CACHE_DIR), miss (not rendered yet: rendered now, or its source is gone).',
      labelNames: ['result'] as const,
      registers,
    }),
    photoRenderDuration: new Histogram({
      name: 'estate_photo_render_duration_seconds',
      help: 'Variants this process rendered and how long each took (inside the render gate, so waiting for a free slot is not counted); the _count is the number of renders.',
      buckets: RENDER_BUCKETS,
      registers,
    }),
    photoQueueDepth: new Gauge({
      name: 'estate_photo_queue_sources',
      help: 'Photo sources waiting to be fetched (pending: due now, leased by a fetcher, or waiting for a retry), read from the database at each scrape; the same for every instance of one database.',
      registers,
      // Every worker of a cluster reads the same table: the primary reports one reading, not their sum.
      aggregator: 'max',
      async collect() {
        if (photoQueue) this.set(await photoQueue());
      },
    }),
    photoFetchesInFlight: new Gauge({
      name: 'estate_photo_fetches_in_flight',
      help: 'Photo sources this process is fetching right now (at most IMAGE_FETCH_CONCURRENCY).',
      registers,
      collect() {
        if (photosInFlight) this.set(photosInFlight());
      },
    }),
    databaseInfo: new Gauge({
      name: 'estate_database_info',
      help: 'Always 1; the kind label says which database this process uses (postgres or pglite).',
      labelNames: ['kind'] as const,
      registers,
    }),
    poolConnections: poolGauge('estate_db_pool_connections', 'Open connections of the PostgreSQL pool (busy and idle).', 'total'),
    poolIdle: poolGauge('estate_db_pool_idle_connections', 'Idle connections of the PostgreSQL pool.', 'idle'),
    poolWaiting: poolGauge('estate_db_pool_waiting_requests', 'Queries waiting for a pooled PostgreSQL connection.', 'waiting'),
    poolMax: poolGauge('estate_db_pool_max_connections', 'Largest number of connections of the PostgreSQL pool (DB_POOL_MAX).', 'max'),

    /**
     * Reports the photo fetcher on every scrape: the sources waiting (a database read; a failed read
     * keeps the last figure rather than failing the scrape) and this process's fetches under way.
     */
    watchPhotos(queued: () => Promise<number>, inFlight: () => number): void {
      let last = 0;
      photoQueue = () => queued().then((n) => (last = n), () => last);
      photosInFlight = inFlight;
    },

    /** Reports a database on every scrape: its kind, and its pool's usage when it has one. */
    watchDatabase(kind: string, usage: (() => PoolUsage | undefined) | undefined): void {
      metrics.databaseInfo.set({ kind }, 1);
      if (usage) pools.push(usage);
    },
  };
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The content type of the text exposition format (what registry.metrics() writes). */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;
