/**
 * buildApp(): the whole HTTP service as a Fastify instance, not listening (src/server.ts listens;
 * tests call inject()). Order matters: error handling first (it learns the routes for 405), then
 * the OpenAPI plugin (it collects the routes), then the route table.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { ContentVersion } from './cache/content-version.js';
import { OfferBodyCache } from './cache/offer-body-cache.js';
import { OfferColumnsCache } from './cache/offer-columns-cache.js';
import { ResponseCache } from './cache/response-cache.js';
import type { Config } from './config.js';
import { listenForChanges } from './db/change-notifications.js';
import type { DbHandle } from './db/connect.js';
import { ApiKeyCache } from './http/auth/key-cache.js';
import { KeyUsageRecorder } from './http/auth/key-usage.js';
import { createAuthenticator } from './http/auth/authenticate.js';
import { createResponseCaching } from './http/caching/response-caching.js';
import type { OperationContext } from './http/operation.js';
import { clientError, frameworkError, handleErrors } from './http/plugins/errors.js';
import { registerOpenApi } from './http/plugins/openapi.js';
import { guardProtocol, HTTP_SERVER_OPTIONS } from './http/plugins/protocol.js';
import { keepRawBodies } from './http/plugins/raw-body.js';
import { registerCors } from './http/plugins/cors.js';
import { registerRateLimit } from './http/plugins/rate-limit.js';
import { addSecurityHeaders } from './http/plugins/security-headers.js';
import { countRequest, registerMetrics } from './http/plugins/metrics.js';
import { logRequest, logRequests, maskKeys, quietRequestLogging, requestIdOf } from './http/plugins/request-log.js';
import { ROUTES, type RouteEntry } from './http/routes.js';
import { SCHEMA_REGISTRY } from './http/schemas/shared.js';
import { createInputHook } from './http/validation/input-hook.js';
import { findApiKeyByHash, touchApiKeyLastUsed } from './queries/api-keys.js';
import { readContentVersion } from './queries/content-state.js';
import { FragmentCache } from './xml/fragment-cache.js';
import { OFFER_DATA_FRAGMENT_CHARS } from './xml/offer-xml.js';
import { OfferReader } from './queries/offers.js';
import type { ReadDb } from './queries/readonly.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import type { MetricsText } from './metrics/serve.js';
import { WebhookSender } from './webhooks/sender.js';

export interface BuildAppOptions {
  config: Config;
  db: DbHandle;
  /** Fastify logger options; false for none. Default: enabled at config.logLevel. */
  logger?: FastifyServerOptions['logger'] | boolean;
  /**
   * Where this app counts (src/metrics/metrics.ts). Default: a registry of its own when
   * METRICS_TOKEN or METRICS_PORT is set, none otherwise (then nothing is counted).
   */
  metrics?: Metrics;
  /** What GET /metrics answers (the cluster's sum in a worker). Default: this app's registry. */
  metricsText?: MetricsText;
}

/** Header values that must never reach a log line. */
const REDACTED_PATHS = ['req.headers.authorization', 'request.headers.authorization', 'headers.authorization'];

function loggerOptions(config: Config, logger: BuildAppOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === false) return false;
  const base = typeof logger === 'object' && logger !== null ? logger : {};
  const redact = (base as { redact?: unknown }).redact;
  const extraPaths = Array.isArray(redact) ? (redact as string[]) : [];
  return {
    level: config.logLevel,
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

declare module 'fastify' {
  interface FastifyInstance {
    /** The content version this instance serves; refresh() after changing content in-process. */
    contentVersion: ContentVersion;
    /** This instance's webhook sender (undefined with WEBHOOKS=off); wake() it after writing to the outbox in-process. */
    webhookSender: WebhookSender | undefined;
  }
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const metrics = options.metrics ?? (config.metricsToken !== undefined || config.metricsPort !== undefined ? createMetrics() : undefined);
  const app = Fastify({
    logger: loggerOptions(config, options.logger),
    // One line per request, written by logRequests(), with the caller's sane X-Request-Id.
    logController: quietRequestLogging(),
    genReqId: requestIdOf,
    bodyLimit: config.bodyLimit,
    // Long path parameters still reach validation (a 422, as FastAPI) instead of the router's 414.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 65_536 },
    frameworkErrors: (error, request, reply) => {
      frameworkError(error, request, reply);
      // These answers skip every hook: logged and counted here.
      logRequest(request, reply);
      if (metrics) countRequest(metrics, request, reply);
    },
    clientErrorHandler: clientError,
    // An HTTP/1.1 request without Host gets our 400 (src/http/plugins/protocol.ts), not Node's empty one.
    http: HTTP_SERVER_OPTIONS,
    // While closing, requests still in flight or arriving on open connections are answered
    // normally; Fastify's own 503 would not have the {"detail": ...} shape of the contract.
    return503OnClosing: false,
  });

  // Requests are validated by our preValidation hook (pydantic-style 422s); responses are
  // built in table order by the mappers and renderers, so plain JSON.stringify writes them.
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.decorateRequest('caller', null);
  app.decorateRequest('apiInput', null);

  metrics?.watchDatabase(options.db.kind, options.db.poolUsage);

  keepRawBodies(app);
  logRequests(app);
  if (metrics) registerMetrics(app, { metrics, token: config.metricsToken, read: options.metricsText ?? (() => metrics.registry.metrics()) });
  addSecurityHeaders(app);
  guardProtocol(app);
  registerCors(app, config.corsOrigins);
  handleErrors(app);
  await registerOpenApi(app);

  // The HTTP side reads through a read-only handle; recording key use is its one write.
  const readDb: ReadDb = options.db.db;
  const keys = new ApiKeyCache((hash) => findApiKeyByHash(readDb, hash), config.keyCacheTtlMs);
  const usage = new KeyUsageRecorder((keyId) => touchApiKeyLastUsed(options.db.db, keyId), app.log);
  app.addHook('onClose', async () => usage.drain());
  const authenticate = createAuthenticator(keys, usage, metrics);

  // Whole responses are cached per organization and content version; every instance polls the
  // version, so an import empties every instance's cache within one poll interval.
  const contentVersion = new ContentVersion(() => readContentVersion(readDb), config.contentPollMs);
  const responseCache = new ResponseCache({ enabled: config.responseCache, maxBytes: config.responseCacheBytes });
  contentVersion.onChange(() => {
    responseCache.clear();
    keys.clear(); // an import may add, change or deactivate keys
    metrics?.contentChanges.inc();
  });
  // Routes marked `uncached` (the change feed) store nothing: they read the database every time.
  const noStore = new ResponseCache({ enabled: false, maxBytes: 0 });
  await contentVersion.start();
  app.addHook('onClose', async () => contentVersion.stop());
  // PostgreSQL tells every instance at once when an import commits (extension E8).
  if (options.db.kind === 'postgres' && config.databaseUrl) {
    const listener = listenForChanges({
      url: config.databaseUrl,
      onChange: (payload) => (payload === '' ? keys.clear() : contentVersion.observe(payload)),
      onConnect: () => void contentVersion.refresh(),
      onError: (error) => app.log.warn({ err: error.message }, 'change notifications interrupted; polling meanwhile'),
    });
    app.addHook('onClose', async () => listener.stop());
  }
  // Whoever changes content in this process (the control socket's commands) refreshes it at once.
  app.decorate('contentVersion', contentVersion);
  // Offer bodies are kept by row version (never stale), whatever RESPONSE_CACHE says.
  const xmlFragments = new FragmentCache(OFFER_DATA_FRAGMENT_CHARS);
  // Webhooks written to the outbox (by imports, anywhere) are sent by every running instance's
  // sender, each by exactly one of them. It runs beside the requests, never in their way.
  const webhookSender = config.webhooks
    ? new WebhookSender({
        db: options.db.db,
        log: app.log.child({ component: 'webhooks' }),
        pollMs: config.webhookPollMs,
        timeoutMs: config.webhookTimeoutMs,
        concurrency: config.webhookConcurrency,
        schedule: { firstDelayMs: config.webhookRetryFirstMs, maxDelayMs: config.webhookRetryMaxMs, giveUpAfterMs: config.webhookGiveUpAfterMs },
        ...(metrics ? { onAttempt: (result) => metrics.webhookAttempts.inc({ result }) } : {}),
      })
    : undefined;
  app.decorate('webhookSender', webhookSender);
  if (webhookSender) {
    // An import that changed content may have written messages: look at once (on PostgreSQL every
    // instance learns of it by notification), not at the next poll.
    contentVersion.onChange(() => webhookSender.wake());
    app.addHook('onReady', async () => webhookSender.start());
    app.addHook('onClose', async () => webhookSender.stop());
  }
  const offers = new OfferReader(readDb, config.offerBodyCacheBytes > 0 ? new OfferBodyCache(config.offerBodyCacheBytes) : undefined);
  // Facet counts from in-memory columns, read at the database's current content version (never stale).
  const facetColumns = config.facetColumnsBytes > 0 ? new OfferColumnsCache(config.facetColumnsBytes) : undefined;

  const register = (scope: FastifyInstance, entry: RouteEntry) => {
    const { operation } = entry;
    const inputHook = createInputHook(operation, SCHEMA_REGISTRY);
    // Every /api/v1 operation is a read: cached, revalidated with ETags, compressed.
    const caching = entry.auth
      ? createResponseCaching({
          cache: entry.uncached ? noStore : responseCache,
          version: contentVersion,
          negotiates: 'application/xml' in ((operation.responses[200] as { content?: object } | undefined)?.content ?? {}),
          metrics,
        })
      : undefined;
    scope.route({
      method: entry.method,
      url: entry.url,
      schema: {
        operationId: operation.operationId,
        summary: operation.summary,
        ...(operation.description ? { description: operation.description } : {}),
        tags: [...operation.tags],
        ...(operation.params ? { params: operation.params } : {}),
        ...(operation.query ? { querystring: operation.query } : {}),
        ...(operation.body ? { body: operation.body } : {}),
        response: operation.responses,
        // Public routes say so (an empty list) rather than leaving security unstated.
        security: entry.auth ? [{ APIKeyHeader: [] }] : [],
        ...(entry.hidden ? { hide: true } : {}),
      },
      // The scope's key check runs first; a GET is looked up at once, a POST once its body is read.
      ...(caching && entry.method === 'GET' ? { onRequest: caching.lookupGet } : {}),
      preValidation: caching && entry.method === 'POST' ? [caching.lookupPost, inputHook] : inputHook,
      ...(caching ? { onSend: caching.finish } : {}),
      handler: async (request, reply) => {
        const context: OperationContext = { db: readDb, offers, facetColumns, xmlFragments, caller: request.caller, request, reply };
        return operation.handle(request.apiInput, context);
      },
    });
  };

  for (const entry of ROUTES.filter((r) => !r.auth)) register(app, entry);
  // The key check is an onRequest hook of the /api/v1 scope: it runs before the body is read.
  await app.register(async (api) => {
    api.addHook('onRequest', authenticate);
    // Counted per key after the key check, before the response cache: a cached answer still counts.
    await registerRateLimit(api, { limit: config.rateLimitPerMinute, redisUrl: config.redisUrl, redisPrefix: config.rateLimitRedisPrefix });
    for (const entry of ROUTES.filter((r) => r.auth)) register(api, entry);
  });

  return app;
}
