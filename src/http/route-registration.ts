/**
 * Binds the route table's operations to Fastify: their schemas (for /openapi.json), their readers
 * (as Fastify's validators, validation/compat-validation.ts), the response-cache hooks of every
 * /api/v1 read, their serializers, and the handler with its context. The key check is a hook of
 * the /api/v1 scope (src/app.ts), so a keyed handler always has its caller.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import { createResponseCaching } from './caching/response-caching.js';
import { ResponseCache } from './caching/response-cache.js';
import type { Caller, KeyedContext, Operation, OperationInput, PublicContext } from './operation.js';
import type { CompatValidation } from './validation/compat-validation.js';

export interface RouteEntry {
  readonly method: 'GET' | 'POST';
  /** Fastify syntax: `:name` is a path parameter. */
  readonly url: string;
  /** Requires an API key (a keyed operation; it names the APIKeyHeader security scheme in the docs). */
  readonly auth: boolean;
  /** Left out of /openapi.json. */
  readonly hidden?: boolean;
  /**
   * Never answered from the response cache (ETags, 304 and compression still apply): the change
   * feed must show an import from the moment it commits, and its pages differ per website.
   */
  readonly uncached?: boolean;
  readonly operation: Operation;
}

/** A route of the table; whether it needs a key is the operation's own (keyedOperation / publicOperation). */
export function route(method: RouteEntry['method'], url: string, operation: Operation, options: { hidden?: boolean; uncached?: boolean } = {}): RouteEntry {
  return { method, url, auth: operation.auth === 'key', operation, ...options };
}

/** The caller the key check set; a keyed route never runs without it. */
function callerOf(request: FastifyRequest): Caller {
  if (request.caller === null) throw new Error(`keyed route ${request.routeOptions.url} ran without its key check`);
  return request.caller;
}

/** The media type of the answer's Content-Type, e.g. application/xml. */
function mediaTypeOf(reply: FastifyReply): string {
  return String(reply.getHeader('content-type') ?? 'application/json').split(';')[0]!.trim();
}

export interface RouteDependencies {
  readonly services: Services;
  readonly validation: CompatValidation;
}

/** Registers the routes in `scope` (the /api/v1 scope for keyed ones, the root for the rest). */
export function registerRoutes(scope: FastifyInstance, entries: readonly RouteEntry[], { services, validation }: RouteDependencies): void {
  // Routes marked `uncached` (the change feed) store nothing: they read the database every time.
  const noStore = new ResponseCache({ enabled: false, maxBytes: 0 });
  for (const entry of entries) {
    const { operation } = entry;
    // Every /api/v1 operation is a read: cached, revalidated with ETags, compressed.
    const caching = entry.auth
      ? createResponseCaching({
          cache: entry.uncached ? noStore : services.responseCache,
          version: services.contentVersion,
          negotiates: 'application/xml' in ((operation.responses[200] as { content?: object } | undefined)?.content ?? {}),
          metrics: services.metrics,
        })
      : undefined;
    const serializers = operation.serializers;
    scope.route({
      method: entry.method,
      url: entry.url,
      schema: {
        operationId: operation.operationId,
        summary: operation.summary,
        ...(operation.description ? { description: operation.description } : {}),
        tags: [...operation.tags],
        ...validation.partsOf(entry.url, operation),
        response: operation.responses,
        // Public routes say so (an empty list) rather than leaving security unstated.
        security: entry.auth ? [{ APIKeyHeader: [] }] : [],
        ...(entry.hidden ? { hide: true } : {}),
      },
      // The scope's key check runs first; a GET is looked up at once, a POST once its body is read
      // (before its readers: only answers to valid requests are stored).
      ...(caching && entry.method === 'GET' ? { onRequest: caching.lookupGet } : {}),
      ...(caching && entry.method === 'POST' ? { preValidation: caching.lookupPost } : {}),
      ...(caching ? { onSend: caching.finish } : {}),
      handler: async (request, reply) => {
        const input = { params: request.params, query: request.query, body: request.body } as OperationInput<unknown, unknown, unknown>;
        const ctx: PublicContext | KeyedContext = entry.auth
          ? { db: services.readDb, services, caller: callerOf(request), request, reply }
          : { db: services.readDb, services, request, reply };
        const payload = await operation.handle(input, ctx);
        // The operation's own writer of this media type, through Fastify's reply serializer (for
        // JSON and XML alike: Fastify applies route serializers to JSON media types only).
        const serialize = payload !== reply && serializers?.[mediaTypeOf(reply)];
        // (Typed as returning a string; Fastify sends a Buffer as it is, which the JSON fast paths give.)
        if (serialize) reply.serializer(((data: unknown) => serialize(data, services)) as (payload: unknown) => string);
        return payload;
      },
    });
  }
}
