/**
 * Prometheus metrics of the HTTP side: every answer counted and timed by route pattern, method and
 * status (an onResponse hook), and GET /metrics on this listener when METRICS_TOKEN is set, for a
 * scraper that sends `Authorization: Bearer <token>`. Without the token the route does not exist
 * (404): the public listener never serves metrics by default. The metrics listener of its own
 * (METRICS_PORT) is started by src/server.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { METRICS_CONTENT_TYPE, type Metrics } from '../../metrics/metrics.js';
import { bearerMatches, METRICS_PATH, type MetricsText } from '../../metrics/serve.js';
import { JSON_TYPE } from '../content-types.js';
import { routeOf } from './request-log.js';

/** Counts and times one answer; also called for the answers that skip the onResponse hooks. */
export function countRequest(metrics: Metrics, request: FastifyRequest, reply: FastifyReply): void {
  countAnswer(metrics, routeOf(request), request.method, reply.statusCode, reply.elapsedTime);
}

/** Counts and times one answer from plain values (also the early answers', src/http/early-answers.ts). */
export function countAnswer(metrics: Metrics, route: string, method: string, status: number, elapsedMs: number): void {
  const labels = { route, method, status };
  metrics.httpRequests.inc(labels);
  metrics.httpDuration.observe(labels, elapsedMs / 1000);
}

export function registerMetrics(app: FastifyInstance, options: { metrics: Metrics; token: string | undefined; read: MetricsText }): void {
  const { metrics, token } = options;
  app.addHook('onResponse', (request, reply, done) => {
    countRequest(metrics, request, reply);
    done();
  });
  if (token === undefined) return;
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, token)) {
      return reply.code(401).header('www-authenticate', 'Bearer').type(JSON_TYPE).send({ detail: 'Not authenticated' });
    }
    const text = await options.read();
    return reply.header('cache-control', 'no-store').type(METRICS_CONTENT_TYPE).send(text);
  });
}
