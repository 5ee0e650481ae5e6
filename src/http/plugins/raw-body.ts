/**
 * Every request body is kept as raw bytes, whatever its Content-Type: the offer operations decode
 * it themselves (src/http/validation/request-body.ts) so that malformed JSON and wrong content
 * types become FastAPI-style 422s instead of Fastify's 400 / 415. Fastify still enforces bodyLimit.
 */
import type { FastifyInstance } from 'fastify';

/** type/subtype, optionally followed by parameters (RFC 9110 token characters). */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+\s*(;|$)/i;

export function keepRawBodies(app: FastifyInstance): void {
  // Fastify answers a Content-Type it cannot parse (";;;") with 415 before any route runs, even
  // on unknown paths. An empty one counts as absent; any other malformed one reaches the route as
  // text/plain, so the route answers what it would for a body that is not JSON (a 422).
  app.addHook('onRequest', async (request) => {
    const type = request.headers['content-type'];
    if (type === undefined) return;
    if (type.trim() === '') delete request.headers['content-type'];
    else if (!MEDIA_TYPE.test(type.trim())) request.headers['content-type'] = 'text/plain';
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}
