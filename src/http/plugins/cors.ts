/**
 * CORS for the browser origins named in CORS_ORIGINS, and nothing for anyone else: without the
 * setting no response carries an Access-Control-* header, so other origins' pages cannot read the
 * API. Written out (instead of @fastify/cors) because its catch-all OPTIONS route would turn every
 * unknown path into a 405 in our error handler, and its refusals are text/plain, not JSON.
 *
 * Behaves as Starlette's CORSMiddleware does: a preflight (OPTIONS with Origin and
 * Access-Control-Request-Method) from an allowed origin is answered here, 204; any other request
 * from an allowed origin gets Access-Control-Allow-Origin (its own origin, never `*`) on its
 * answer, errors included. No credentials: keys travel in a header, not in cookies.
 */
import type { FastifyInstance } from 'fastify';
import { addVary } from '../vary.js';

const ALLOWED_METHODS = 'GET, POST, HEAD';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, Accept-Encoding, If-None-Match';
/** Response headers a page may read (rate-limit state, cache validators, the request id). */
const EXPOSED_HEADERS = 'RateLimit, RateLimit-Policy, Retry-After, ETag, X-Request-Id';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

export function registerCors(app: FastifyInstance, origins: readonly string[]): void {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  // Callback style, as every hook of the app: no promise per request, and an answer given in the
  // request's own turn of the event loop, as without CORS (and as the early 401 does).
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    if (typeof origin !== 'string' || !allowed.has(origin)) {
      done();
      return;
    }
    reply.header('access-control-allow-origin', origin);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      reply
        .code(204)
        .header('access-control-allow-methods', ALLOWED_METHODS)
        .header('access-control-allow-headers', ALLOWED_HEADERS)
        .header('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS)
        .send();
      return;
    }
    reply.header('access-control-expose-headers', EXPOSED_HEADERS);
    done();
  });
  // Caches must keep the answers to different origins apart; added last, so a route's own Vary stays.
  app.addHook('onSend', (_request, reply, payload, done) => {
    addVary(reply, 'Origin');
    done(null, payload);
  });
}
