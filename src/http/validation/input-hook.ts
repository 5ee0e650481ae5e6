/**
 * The preValidation hook of every operation (after authentication): decodes the body, lets the
 * operation read its inputs, and answers 422 with every problem found, FastAPI style. A body that
 * is not valid JSON is reported alone, as FastAPI does (it gives up before validating anything).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Operation } from '../operation.js';
import { issues } from './issues.js';
import { InputChecker } from './input-checker.js';
import { decodeRequestBody, type DecodedBody } from './request-body.js';
import type { SchemaRegistry } from '../schemas/json-schema.js';

export function createInputHook(operation: Operation<unknown>, registry: SchemaRegistry) {
  return async function readInput(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    let body: DecodedBody = { kind: 'absent' };
    if (operation.body) {
      const raw = Buffer.isBuffer(request.body) ? request.body : undefined;
      body = decodeRequestBody(raw, request.headers['content-type']);
      if (body.kind === 'json_invalid') {
        return reply.code(422).send({ detail: [issues.jsonInvalid(body.position, body.message)] });
      }
      if (body.kind === 'unreadable') return reply.code(400).send({ detail: 'There was an error parsing the body' });
    }
    const check = new InputChecker({ params: request.params, query: request.query, body }, registry);
    const input = operation.parse(check);
    const found = check.issues;
    if (found.length > 0) return reply.code(422).send({ detail: found });
    request.apiInput = input;
    return undefined;
  };
}
