/** GET /health, GET /openapi.json and GET / (to the docs): no key needed. */
import Type from 'typebox';
import { pingDatabase } from '../db/health.js';
import { isDatabaseUnavailable } from './db-errors.js';
import { publicOperation, sendDetail } from './operation.js';

export const health = publicOperation({
  operationId: 'health',
  summary: 'Health check',
  description: '200 `{"status": "ok"}` when the database answers, 503 `{"detail": "Service Unavailable"}` otherwise. No key needed.',
  tags: ['service'],
  responses: {
    200: {
      description: 'The service and its database answer',
      content: { 'application/json': { schema: Type.Object({ status: Type.Literal('ok') }), example: { status: 'ok' } } },
    },
    503: {
      description: 'The database does not answer',
      content: { 'application/json': { schema: Type.Ref('ErrorResponse'), example: { detail: 'Service Unavailable' } } },
    },
  },
  async handle(_input, { db, request, reply }) {
    try {
      await pingDatabase(db);
    } catch (error) {
      // Any failure of `select 1` means "not ready", whatever its cause.
      request.log.warn({ err: error, databaseUnavailable: isDatabaseUnavailable(error) }, 'health check failed');
      return sendDetail(reply, 503, 'Service Unavailable');
    }
    return { status: 'ok' };
  },
});

export const openApiDocument = publicOperation({
  operationId: 'openapi',
  summary: 'This OpenAPI document',
  tags: ['service'],
  responses: {},
  handle: async (_input, { request }) => request.server.swagger(),
});

/** GET /: people who open the service's address in a browser land on the interactive docs. */
export const rootRedirect = publicOperation({
  operationId: 'root',
  summary: 'Redirects to the interactive docs (/docs)',
  tags: ['service'],
  responses: {},
  // A small JSON body too: every answer of the service is JSON (or XML) but the docs themselves.
  handle: async (_input, { reply }) => reply.code(302).header('location', '/docs').send({ detail: 'See /docs' }),
});
