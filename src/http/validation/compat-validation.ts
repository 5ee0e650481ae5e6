/**
 * FastAPI-compatible request validation, behind Fastify's own seams:
 *
 * - a content-type parser keeps every body as its bytes (with its Content-Type), so that malformed
 *   JSON and wrong content types become pydantic-style 422s instead of Fastify's 400 / 415, and
 *   a response-cache hit never decodes anything;
 * - a validator compiler runs each operation's readers (src/http/operation.ts) as the validators of
 *   its path, query and body: a part read without problems becomes the handler's typed input
 *   (`request.params`, `.query`, `.body`), a part with problems fails validation;
 * - the error handler then completes the report (answerProblems): Fastify stops at the first part
 *   that fails, FastAPI lists every problem of every part, path first, then query, then body. A
 *   body that is not JSON is reported alone, as FastAPI does (it gives up before validating
 *   anything).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Operation, PartReader, PartSpec } from '../operation.js';
import type { SchemaRegistry } from '../schemas/json-schema.js';
import { issues, type ValidationIssue } from './issues.js';
import { InputChecker } from './input-checker.js';
import { decodeRequestBody, type DecodedBody } from './request-body.js';

/** A request body as it arrived: its bytes and its Content-Type. */
export class RequestBytes {
  constructor(
    readonly bytes: Buffer,
    readonly contentType: string | undefined,
  ) {}
}

type Part = 'params' | 'querystring' | 'body';

/** The problems of one part of a request (a failed validation, as Fastify carries it to the error handler). */
export class RequestProblems extends Error {
  readonly statusCode = 422;
  constructor(
    readonly part: Part,
    readonly problems: readonly ValidationIssue[],
    /** The body could not be read at all: not JSON (422, alone) or not UTF-8 / nested too deep (400). */
    readonly unreadable?: 'json_invalid' | 'unreadable',
  ) {
    super('request validation failed');
  }
}

type Validator = (data: unknown) => { value: unknown } | { error: RequestProblems };

/** Fastify validates params, then the body, then the query string; a part after the failing one was not read. */
const FASTIFY_ORDER: readonly Part[] = ['params', 'body', 'querystring'];
/** FastAPI lists problems by location: path, query, body. */
const FASTAPI_ORDER: readonly Part[] = ['params', 'querystring', 'body'];

const isReader = (spec: PartSpec): spec is PartReader<unknown> => typeof (spec as PartReader<unknown>).read === 'function';

function readerOf(part: Part, spec: PartSpec): (check: InputChecker) => unknown {
  if (isReader(spec)) return spec.read;
  switch (part) {
    case 'params':
      return (check) => check.path(spec);
    case 'querystring':
      return (check) => check.query(spec);
    case 'body':
      return (check) => {
        if (check.raw.body.kind === 'absent') {
          check.report(issues.missing(['body'], null));
          return undefined;
        }
        return check.check(spec, check.rawBody, ['body']);
      };
  }
}

function validatorOf(part: Part, spec: PartSpec, registry: SchemaRegistry): Validator {
  const read = readerOf(part, spec);
  return (data) => {
    let body: DecodedBody = { kind: 'absent' };
    if (part === 'body') {
      body = data instanceof RequestBytes ? decodeRequestBody(data.bytes, data.contentType) : { kind: 'absent' };
      if (body.kind === 'json_invalid') return { error: new RequestProblems('body', [issues.jsonInvalid(body.position, body.message)], 'json_invalid') };
      if (body.kind === 'unreadable') return { error: new RequestProblems('body', [], 'unreadable') };
    }
    const check = new InputChecker(
      { params: part === 'params' ? data : {}, query: part === 'querystring' ? data : {}, body },
      registry,
    );
    const value = read(check);
    const found = check.issues;
    return found.length > 0 ? { error: new RequestProblems(part, found) } : { value };
  };
}

/** Media types whose bodies are text a person may have meant as JSON; the rest too, as FastAPI reads them. */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+\s*(;|$)/i;

/**
 * Installs the parser and the validator compiler. `validatorsFor` is filled by registerOperation
 * before Fastify compiles a route's schemas.
 */
export function registerCompatValidation(app: FastifyInstance, registry: SchemaRegistry) {
  const validators = new Map<string, Validator>();

  // Fastify answers a Content-Type it cannot parse (";;;") with 415 before any route runs, even
  // on unknown paths. An empty one counts as absent; any other malformed one reaches the route as
  // text/plain, so the route answers what it would for a body that is not JSON (a 422).
  app.addHook('onRequest', (request, _reply, done) => {
    const type = request.headers['content-type'];
    if (type !== undefined) {
      if (type.trim() === '') delete request.headers['content-type'];
      else if (!MEDIA_TYPE.test(type.trim())) request.headers['content-type'] = 'text/plain';
    }
    done();
  });
  app.removeAllContentTypeParsers();
  // Fastify still enforces bodyLimit.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => done(null, new RequestBytes(body as Buffer, request.headers['content-type'])));

  app.setValidatorCompiler(({ url, httpPart }) => {
    const validator = validators.get(`${url} ${httpPart}`);
    if (!validator) throw new Error(`no reader for ${httpPart} of ${url}`);
    return validator;
  });

  return {
    /** The validators of an operation's parts at a URL, and its Fastify schema entries for them. */
    partsOf(url: string, operation: Operation) {
      const schema: { params?: unknown; querystring?: unknown; body?: unknown } = {};
      const parts: [Part, PartSpec | undefined][] = [['params', operation.params], ['querystring', operation.query], ['body', operation.body]];
      for (const [part, spec] of parts) {
        if (spec === undefined) continue;
        validators.set(`${url} ${part}`, validatorOf(part, spec, registry));
        schema[part] = isReader(spec) ? spec.schema : spec;
      }
      return schema;
    },

    /**
     * Answers a request whose validation failed: every problem of every part in FastAPI's order
     * (the parts Fastify validated before the failing one had none), or the unreadable body alone.
     */
    answerProblems(failure: RequestProblems, request: FastifyRequest, reply: FastifyReply): FastifyReply {
      const url = request.routeOptions.url ?? '';
      const failedAt = FASTIFY_ORDER.indexOf(failure.part);
      const outcome = new Map<Part, RequestProblems | undefined>([[failure.part, failure]]);
      for (const part of FASTIFY_ORDER.slice(failedAt + 1)) {
        const validator = validators.get(`${url} ${part}`);
        const result = validator?.(request[part === 'querystring' ? 'query' : part] ?? null);
        outcome.set(part, result && 'error' in result ? result.error : undefined);
      }
      const body = outcome.get('body');
      if (body?.unreadable === 'unreadable') return reply.code(400).send({ detail: 'There was an error parsing the body' });
      if (body?.unreadable === 'json_invalid') return reply.code(422).send({ detail: body.problems });
      const detail = FASTAPI_ORDER.flatMap((part) => outcome.get(part)?.problems ?? []);
      return reply.code(422).send({ detail });
    },
  };
}

export type CompatValidation = ReturnType<typeof registerCompatValidation>;
