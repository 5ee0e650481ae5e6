/** Headers on every response, errors and documentation included. No CORS: browsers of other origins get no access. */
import type { FastifyInstance } from 'fastify';

export function addSecurityHeaders(app: FastifyInstance): void {
  // Callback style: no promise per response.
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    done(null, payload);
  });
}
