/**
 * createServices(): the composition root. Every long-lived collaborator of a running instance is
 * built here, once, from the configuration and the database: the caches (keys, responses, offer
 * bodies, offer columns, XML fragments), the content version it serves (polled, and on PostgreSQL
 * also notified), the offer reader and the webhook sender. buildApp hands them to the HTTP side;
 * nothing else keeps a registry of its own. start() and stop() bound their background work.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { DbHandle } from './db/connect.js';
import type { ReadDb } from './db/readonly.js';
import { ApiKeyCache, findApiKeyByHash, readKeyDirectory, KeyUsageRecorder, touchApiKeyLastUsed } from './features/access/index.js';
import { ContentVersion, listenForChanges, readContentVersion } from './features/content-version/index.js';
import { OfferBodyCache, OfferColumnsCache, OfferColumnsWarmer, OfferReader, OFFER_DATA_FRAGMENT_CHARS } from './features/offers/index.js';
import { WebhookSender } from './features/webhooks/index.js';
import { PhotoService } from './features/photos/index.js';
import { TransparencyFileCache } from './features/transparency/index.js';
import { ResponseCache } from './http/caching/response-cache.js';
import type { Metrics } from './metrics/metrics.js';
import { FragmentCache } from './xml/fragment-cache.js';

export interface Services {
  readonly db: DbHandle;
  /** The HTTP side reads through this handle: a write on it fails to compile. */
  readonly readDb: ReadDb;
  /** API key lookups, trusted for KEY_CACHE_TTL_MS (at most 5 s). */
  readonly keys: ApiKeyCache;
  /** Records api_keys.last_used_at in the background, the one write of the HTTP side. */
  readonly keyUsage: KeyUsageRecorder;
  /** The content version this instance serves; refresh() after changing content in-process. */
  readonly contentVersion: ContentVersion;
  /** Whole responses per organization and content version (RESPONSE_CACHE). */
  readonly responseCache: ResponseCache;
  /** The offer reads, with this process's offer body cache (OFFER_CACHE_MB). */
  readonly offers: OfferReader;
  /** Organizations' offer columns for facet counts; undefined when FACET_COLUMNS_MB is 0. */
  readonly facetColumns: OfferColumnsCache | undefined;
  /** Rendered <offer_data> elements (XML answers). */
  readonly xmlFragments: FragmentCache;
  /** This instance's webhook sender; undefined with WEBHOOKS=off. wake() it after writing to the outbox in-process. */
  readonly webhookSender: WebhookSender | undefined;
  /** Photos (E11): the signer, the image store and render gate, the background fetcher (with IMAGE_SOURCES). */
  readonly photos: PhotoService;
  /** PUBLIC_URL: where variant URLs start; undefined: the request's origin. */
  readonly publicUrl: string | undefined;
  /** The price-transparency dataset's built files (extension E10), per organization, day and content version. */
  readonly transparencyFiles: TransparencyFileCache;
  readonly metrics: Metrics | undefined;
  /** Addresses per sitemap part (SITEMAP_PAGE_SIZE, E12). */
  readonly sitemapPageSize: number;
  /** Reads the content version, then starts listening and polling. */
  start(): Promise<void>;
  /** Starts the background work of a serving instance: the webhook sender, the photo fetcher, loading the offer columns. */
  startSending(): void;
  /** Stops the background work and waits for what is under way. */
  stop(): Promise<void>;
}

export interface ServiceOptions {
  /** Where background work logs (the app's logger). */
  log: FastifyBaseLogger;
  metrics?: Metrics | undefined;
}

export function createServices(config: Config, db: DbHandle, options: ServiceOptions): Services {
  const { log, metrics } = options;
  const readDb: ReadDb = db.db;
  const keys = new ApiKeyCache({
    load: (hash) => findApiKeyByHash(readDb, hash),
    readDirectory: (limit) => readKeyDirectory(readDb, limit),
    ttlMs: config.keyCacheTtlMs,
  });
  const keyUsage = new KeyUsageRecorder((keyId) => touchApiKeyLastUsed(db.db, keyId), log);
  // Whole responses are cached per organization and content version; every instance polls the
  // version, so an import empties every instance's cache within one poll interval.
  const contentVersion = new ContentVersion(() => readContentVersion(readDb), config.contentPollMs);
  const responseCache = new ResponseCache({ enabled: config.responseCache, maxBytes: config.responseCacheBytes });
  contentVersion.onChange(() => {
    responseCache.clear();
    keys.clear(); // an import may add, change or deactivate keys
    metrics?.contentChanges.inc();
  });
  // Webhook messages written to the outbox (by imports, anywhere) are sent by every running
  // instance's sender, each by exactly one of them, beside the requests, never in their way.
  const webhookSender = config.webhooks
    ? new WebhookSender({
        db: db.db,
        log: log.child({ component: 'webhooks' }),
        pollMs: config.webhookPollMs,
        timeoutMs: config.webhookTimeoutMs,
        concurrency: config.webhookConcurrency,
        schedule: { firstDelayMs: config.webhookRetryFirstMs, maxDelayMs: config.webhookRetryMaxMs, giveUpAfterMs: config.webhookGiveUpAfterMs },
        ...(metrics ? { onAttempt: (result) => metrics.webhookAttempts.inc({ result }) } : {}),
      })
    : undefined;
  // An import that changed content may have written messages: look at once, not at the next poll.
  if (webhookSender) contentVersion.onChange(() => webhookSender.wake());

  // Offers noted by an import (anywhere) have their sources queued, and fetched, by every running
  // instance's fetcher, each by one of them; an import that committed may have noted some: look at once.
  const photos = new PhotoService({
    db: db.db,
    readDb,
    log: log.child({ component: 'photos' }),
    allowed: config.imageSources,
    cacheDir: config.imageCacheDir,
    secret: config.imageSigningSecret,
    renderConcurrency: config.imageRenderConcurrency,
    fetchConcurrency: config.imageFetchConcurrency,
    pollMs: config.imageFetchPollMs,
    memoryCacheBytes: config.imageMemoryCacheBytes,
    ...(metrics
      ? {
          observer: {
            fetched: (outcome) => metrics.photoFetches.inc({ outcome }),
            variantLookup: (result) => metrics.photoVariantLookups.inc({ result }),
            rendered: (seconds) => metrics.photoRenderDuration.observe(seconds),
          },
        }
      : {}),
  });
  metrics?.watchPhotos(() => photos.pendingSources(), () => photos.fetcher.fetching);
  contentVersion.onChange(() => photos.wake());

  // Read at the database's current content version (never stale).
  const facetColumns = config.facetColumnsBytes > 0 ? new OfferColumnsCache(config.facetColumnsBytes) : undefined;
  // Loaded at start and after each import, so that no request pays the load. On PostgreSQL only:
  // the embedded database has one connection, which a load of every body would hold for seconds
  // in front of every request and the webhook sender; there the first call that needs them loads.
  const columnsWarmer = facetColumns && db.kind === 'postgres' ? new OfferColumnsWarmer(readDb, facetColumns, log.child({ component: 'offer-columns' })) : undefined;
  if (columnsWarmer) contentVersion.onChange((version) => columnsWarmer.contentChanged(version));

  let listener: { stop(): Promise<void> } | undefined;
  return {
    db,
    readDb,
    keys,
    keyUsage,
    contentVersion,
    responseCache,
    // Offer bodies are kept by row version (never stale), whatever RESPONSE_CACHE says.
    offers: new OfferReader(readDb, config.offerBodyCacheBytes > 0 ? new OfferBodyCache(config.offerBodyCacheBytes) : undefined, facetColumns),
    facetColumns,
    xmlFragments: new FragmentCache(OFFER_DATA_FRAGMENT_CHARS),
    transparencyFiles: new TransparencyFileCache(),
    webhookSender,
    photos,
    publicUrl: config.publicUrl,
    metrics,
    sitemapPageSize: config.sitemapPageSize,
    async start() {
      metrics?.watchDatabase(db.kind, db.poolUsage);
      await photos.start();
      await contentVersion.start();
      // PostgreSQL tells every instance at once when an import commits (extension E8).
      if (db.kind === 'postgres' && config.databaseUrl) {
        listener = listenForChanges({
          url: config.databaseUrl,
          onChange: (payload) => (payload === '' ? keys.clear() : contentVersion.observe(payload)),
          onConnect: () => void contentVersion.refresh(),
          onError: (error) => log.warn({ err: error.message }, 'change notifications interrupted; polling meanwhile'),
        });
      }
    },
    startSending() {
      columnsWarmer?.start();
      webhookSender?.start();
      photos.startFetching();
    },
    async stop() {
      await columnsWarmer?.stop();
      await webhookSender?.stop();
      await photos.stop();
      await listener?.stop();
      contentVersion.stop();
      await keyUsage.drain();
    },
  };
}
