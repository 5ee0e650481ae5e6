/** Headers on every response, errors and documentation included. No CORS: browsers of other origins get no access. */
import type { FastifyInstance } from 'fastify';

export function addSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.removeHeader('x-powered-by');
    return payload;
  });
}
