/**
 * Every request body is kept as raw bytes, whatever its Content-Type: the offer operations decode
 * it themselves (src/http/validation/request-body.ts) so that malformed JSON and wrong content
 * types become FastAPI-style 422s instead of Fastify's 400 / 415. Fastify still enforces bodyLimit.
 */
import type { FastifyInstance } from 'fastify';

export function keepRawBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}
