/**
 * Every answer of the HTTP tests checked against /openapi.json, so that the document can never
 * drift from what the service sends. buildTestApp() installs checkResponsesAgainstOpenApi() on
 * every app it builds (an onSend hook that sees the body before compression); a mismatch is
 * recorded, and test/setup.ts fails the running test with the list (afterEach).
 *
 * For an answer of a documented operation:
 * - its status must be declared by the operation (or be one of GENERAL_STATUSES, below);
 * - its media type must be declared for that status;
 * - a JSON body must match the declared schema (Ajv, JSON Schema 2020-12 as OpenAPI 3.1 says).
 * Routes the document leaves out (/, /openapi.json, /docs, unknown URLs) are not checked.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

interface MediaType {
  schema?: unknown;
}
interface ResponseObject {
  content?: Record<string, MediaType>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, ResponseObject> }>>;
  components?: unknown;
}

/**
 * Answers any operation may give that the document describes once, in the API description, rather
 * than on every operation: 400 (a request HTTP itself refuses: no Host), 405 (wrong method),
 * 413 (body too large), 417 (an Expect the service cannot meet), 429 (rate limit), 500 (a bug)
 * and 503 (database unavailable). Their bodies are still checked against ErrorResponse
 * ({"detail": "..."}).
 */
export const GENERAL_STATUSES: ReadonlySet<number> = new Set([400, 405, 413, 417, 429, 500, 503]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// RFC 3339 date-time, as JSON Schema's format says (an offset or Z is required).
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

const BASE = 'https://estate-content.test/openapi.json';

/** Compiled checks of one document, made on first use and kept: the document does not depend on configuration. */
class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: false, validateSchema: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly doc: OpenApiDocument) {
    this.ajv.addFormat('uuid', UUID);
    this.ajv.addFormat('date-time', DATE_TIME);
    this.ajv.addSchema({ $id: BASE, components: doc.components, paths: doc.paths });
  }

  /** Compiles every response schema of the document now, so that no answer waits for a compilation. */
  compileAll(): void {
    for (const [path, operations] of Object.entries(this.doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          if (response.content?.['application/json']?.schema === undefined) continue;
          this.validator(`/paths/${escape(path)}/${method}/responses/${status}/content/${escape('application/json')}/schema`);
        }
      }
    }
    this.validator('/components/schemas/ErrorResponse');
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${BASE}#${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  /** The problem with one answer, or undefined when it matches the document. */
  check(method: string, routeUrl: string, status: number, contentType: string | undefined, body: string): string | undefined {
    const path = routeUrl.replace(/:(\w+)/g, '{$1}');
    const operation = this.doc.paths[path]?.[method.toLowerCase()];
    if (!operation) return undefined;
    const where = `${method} ${path} answered ${status}`;
    const declared = operation.responses?.[String(status)];
    const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
    let pointer: string;
    if (declared) {
      if (!declared.content?.[mediaType]) {
        const known = Object.keys(declared.content ?? {}).join(', ') || 'no body';
        return `${where} with ${mediaType || 'no Content-Type'}; the document declares ${known}`;
      }
      if (mediaType !== 'application/json' || declared.content[mediaType]!.schema === undefined) return undefined;
      pointer = `/paths/${escape(path)}/${method.toLowerCase()}/responses/${status}/content/${escape(mediaType)}/schema`;
    } else if (GENERAL_STATUSES.has(status)) {
      if (mediaType !== 'application/json') return `${where} with ${mediaType || 'no Content-Type'}; expected application/json`;
      pointer = '/components/schemas/ErrorResponse';
    } else {
      return `${where}, a status the document does not declare for it (declared: ${Object.keys(operation.responses ?? {}).join(', ')})`;
    }
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return `${where} with a body that is not JSON: ${body.slice(0, 200)}`;
    }
    const validate = this.validator(pointer);
    if (validate(value)) return undefined;
    const errors = (validate.errors ?? [])
      .map((e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`)
      .join('; ');
    return `${where}: the body does not match ${pointer}: ${errors}\n    body: ${body.slice(0, 300)}`;
  }
}

/** JSON Pointer escaping of one segment. */
const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

let checker: ResponseChecker | undefined;
/** The first mismatches since the last take (a fuzz run could make thousands), and how many there were. */
const problems: string[] = [];
let problemCount = 0;
const KEPT_PROBLEMS = 100;

function record(problem: string): void {
  problemCount++;
  if (problems.length < KEPT_PROBLEMS) problems.push(problem);
}

/** The mismatches recorded since the last call (and forgets them); past the first 100, a count. */
export function takeResponseProblems(): string[] {
  const taken = problems.splice(0, problems.length);
  if (problemCount > taken.length) taken.push(`... ${problemCount - taken.length} more`);
  problemCount = 0;
  return taken;
}

/** Checks one answer of `app` (exported for tests of this helper). */
export function checkAnswer(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, payload: unknown): string | undefined {
  const routeUrl = request.routeOptions.url;
  if (routeUrl === undefined || request.method === 'HEAD') return undefined;
  const status = reply.statusCode;
  if (status === 204 || status === 304) return undefined;
  const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
  // Streams (none on the documented routes) are not read here.
  if (body === undefined) return undefined;
  // A gzip or br body was compressed by a hook before this one: not expected at the root onSend.
  if (reply.getHeader('content-encoding') !== undefined) return undefined;
  checker ??= new ResponseChecker(app.swagger() as unknown as OpenApiDocument);
  const contentType = reply.getHeader('content-type');
  return checker.check(request.method, routeUrl, status, contentType === undefined ? undefined : String(contentType), body);
}

/**
 * Adds the check to an app that is not ready yet. A root onSend hook runs before the routes' own
 * (compression, ETags), so it sees the body as the handler or the error handler made it.
 */
export function checkResponsesAgainstOpenApi(app: FastifyInstance, options: { compileNow?: boolean } = {}): void {
  // The checks are compiled on first use, once per test process (a second or two for all of
  // them, most of it for the offer schemas). `compileNow` compiles them all when the app is
  // ready, for tests that time answers: a compilation would stall the first answer of a kind.
  if (options.compileNow) {
    app.addHook('onReady', function compileChecks(done) {
      try {
        checker ??= new ResponseChecker(app.swagger() as unknown as OpenApiDocument);
        checker.compileAll();
        done();
      } catch (error) {
        done(error as Error);
      }
    });
  }
  app.addHook('onSend', (request, reply, payload, done) => {
    try {
      const problem = checkAnswer(app, request, reply, payload);
      if (problem !== undefined) record(problem);
    } catch (error) {
      record(`${request.method} ${request.url}: the response check failed: ${String(error)}`);
    }
    done(null, payload);
  });
}
