/**
 * buildApp(): the whole HTTP service as a Fastify instance, not listening (src/server.ts listens;
 * tests call inject()): the services (src/services.ts), the plugins, then the route table. Order
 * matters: validation and error handling first (the error handler learns the routes for 405),
 * then the OpenAPI plugin (it collects the routes), then the routes, the /api/v1 ones behind the
 * key check and the rate limit.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import type { DbHandle } from './db/connect.js';
import { admitAtOnce, countAdmission, countRefusal, createAuthenticator, refuseAtOnce, visibilityKeyOf } from './features/access/http.js';
import { earlyHit } from './http/caching/early-hit.js';
import { createEarlyAnswers, type EarlyAnswersContext } from './http/early-answers.js';
import { guardProtocol, HTTP_SERVER_OPTIONS } from './http/plugins/protocol.js';
import { registerCors } from './http/plugins/cors.js';
import { clientError, frameworkError, handleErrors } from './http/plugins/error-answers.js';
import { registerOpenApi } from './http/plugins/openapi.js';
import { registerRateLimit } from './http/plugins/rate-limit.js';
import { countRequest, registerMetrics } from './http/plugins/request-metrics.js';
import { loggerOptions, logRequest, logRequests, quietRequestLogging, requestIdOf, requestLoggerFactory } from './http/plugins/request-log.js';
import { addSecurityHeaders } from './http/plugins/security-headers.js';
import { registerRoutes } from './http/route-registration.js';
import { SCHEMA_REGISTRY } from './http/schemas/schema-registry.js';
import { registerCompatValidation } from './http/validation/compat-validation.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import type { MetricsText } from './metrics/serve.js';
import { ROUTES } from './routes.js';
import { createServices, type Services } from './services.js';

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
  /** false: every request goes through Fastify (tests compare the two). Default: on. */
  earlyAnswers?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's services (src/services.ts). */
    services: Services;
    /** The content version this instance serves; refresh() after changing content in-process. */
    contentVersion: Services['contentVersion'];
    /** This instance's webhook sender (undefined with WEBHOOKS=off); wake() it after writing to the outbox in-process. */
    webhookSender: Services['webhookSender'];
  }
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const metrics = options.metrics ?? (config.metricsToken !== undefined || config.metricsPort !== undefined ? createMetrics() : undefined);
  // The 401 of a missing or unknown key and cached answers, given before Fastify's request cycle
  // when listening (inject() goes straight to Fastify): src/http/early-answers.ts.
  const early = createEarlyAnswers();
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logger),
    // One line per request, written by logRequests(), with the caller's sane X-Request-Id.
    logController: quietRequestLogging(),
    genReqId: requestIdOf,
    childLoggerFactory: requestLoggerFactory,
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
    ...(options.earlyAnswers === false ? {} : { serverFactory: early.serverFactory }),
  });
  // Answers are built in table order by the mappers and renderers (or by an operation's own
  // serializers), so plain JSON.stringify writes the rest: no schema-driven reordering.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.decorateRequest('caller', null);

  const services = createServices(config, options.db, { log: app.log, metrics });
  app.decorate('services', services);
  app.decorate('contentVersion', services.contentVersion);
  app.decorate('webhookSender', services.webhookSender);
  await services.start();
  app.addHook('onReady', async () => services.startSending());
  app.addHook('onClose', async () => services.stop());

  app.addHook('onRoute', early.learnRoute);
  const cors = config.corsOrigins.length > 0;
  app.addHook('onReady', async () =>
    early.start({
      refuse: (request) => refuseAtOnce(services.keys, request),
      refused: (detail) => countRefusal(detail, metrics),
      // A rate limit and CORS add to every answer through Fastify's hooks: then Fastify answers.
      cached: config.rateLimitPerMinute > 0 || cors ? undefined : cachedAnswers(services, metrics),
      metrics,
      log: app.log,
      cors,
    }),
  );

  const validation = registerCompatValidation(app, SCHEMA_REGISTRY);
  logRequests(app);
  if (metrics) registerMetrics(app, { metrics, token: config.metricsToken, read: options.metricsText ?? (() => metrics.registry.metrics()) });
  addSecurityHeaders(app);
  guardProtocol(app);
  registerCors(app, config.corsOrigins);
  handleErrors(app, validation);
  await registerOpenApi(app);

  const dependencies = { services, validation };
  const openData = (r: (typeof ROUTES)[number]) => r.url.startsWith('/open-data/');
  registerRoutes(app, ROUTES.filter((r) => !r.auth && !openData(r)), dependencies);
  // The public price-transparency files (extension E10): no key, so counted per client address,
  // with the API's budget and answers.
  await app.register(async (open) => {
    await registerRateLimit(open, {
      limit: config.rateLimitPerMinute,
      redisUrl: config.redisUrl,
      redisPrefix: `${config.rateLimitRedisPrefix}open:`,
      countedKey: (request) => `address:${request.ip}`,
    });
    registerRoutes(open, ROUTES.filter((r) => !r.auth && openData(r)), dependencies);
  });
  // The key check is an onRequest hook of the /api/v1 scope: it runs before the body is read.
  await app.register(async (api) => {
    api.addHook('onRoute', early.learnKeyedRoute);
    api.addHook('onRequest', createAuthenticator(services.keys, services.keyUsage, metrics));
    // Counted per key after the key check, before the response cache: a cached answer still counts.
    await registerRateLimit(api, { limit: config.rateLimitPerMinute, redisUrl: config.redisUrl, redisPrefix: config.rateLimitRedisPrefix });
    registerRoutes(api, ROUTES.filter((r) => r.auth), dependencies);
  });
  return app;
}

/** The early answers' cached answer: a key admitted at once, then the response cache (src/http/caching/early-hit.ts). */
function cachedAnswers(services: Services, metrics: Metrics | undefined): NonNullable<EarlyAnswersContext['cached']> {
  return (request) => {
    const record = admitAtOnce(request, Date.now());
    if (record === undefined) return undefined;
    const hit = earlyHit(services.responseCache, services.contentVersion, visibilityKeyOf(record), request);
    if (hit === undefined) return undefined;
    return {
      hit,
      websiteId: record.website_id,
      count: () => {
        countAdmission(record, services.keyUsage, metrics);
        metrics?.responseCacheLookups.inc({ result: 'hit' });
      },
    };
  };
}
