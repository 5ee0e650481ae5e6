/**
 * What one API operation is made of: its documentation and schemas (for /openapi.json), how each
 * part of the request is read (path, query, body: a schema, or a schema and a reader for what the
 * schema cannot say), how its answer is written (serializers by media type, where it has fast
 * paths), and its handler. The handler runs only when every part was read without a problem, so
 * it receives its inputs typed and complete; a keyed operation also receives its caller. The route
 * table (src/routes.ts) binds operations to methods and URLs; the FastAPI-compatible validation
 * (validation/compat-validation.ts) runs the readers as Fastify's validators.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { Visibility } from '../features/access/index.js';
import type { Services } from '../services.js';
import type { ReadDb } from '../db/readonly.js';
import type { InputChecker } from './validation/input-checker.js';

/** The authenticated website: what it may see (its organization and scope) and who it is. */
export interface Caller extends Visibility {
  readonly websiteId: string;
  readonly keyId: string;
  /** The SHA-256 of the presented key (what the rate limit counts under; never the key itself). */
  readonly keySha256: string;
  /**
   * What answers are shared by: the organization, plus the scope's canonical text for a scoped
   * website (keys of websites with equal scopes see the same; extension E7).
   */
  readonly visibilityKey: string;
}

/** What every handler is given. */
export interface PublicContext {
  readonly db: ReadDb;
  readonly services: Services;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
}

/** What a keyed (/api/v1) handler is given: the caller is known, authentication ran first. */
export interface KeyedContext extends PublicContext {
  readonly caller: Caller;
}

/**
 * A part read by code of its own (an offer list body, a cursor): the schema documents it, `read`
 * checks the raw part through the checker (every problem reported there) and returns the typed value.
 */
export interface PartReader<Out> {
  readonly schema: TSchema;
  readonly read: (check: InputChecker) => Out | undefined;
}

export type PartSpec = TSchema | PartReader<unknown>;
type PartValue<S> = S extends PartReader<infer Out> ? Out : S extends TSchema ? Static<S> : undefined;

export interface OperationInput<P, Q, B> {
  readonly params: PartValue<P>;
  readonly query: PartValue<Q>;
  readonly body: PartValue<B>;
}

/** Writes a 200 payload in one media type (the fast paths: stored bytes spliced, XML renderers). */
export type Serializer = (payload: any, services: Services) => string | Buffer;

interface OperationDocs {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  /** OpenAPI responses by status. */
  readonly responses: Record<number, unknown>;
  /** Serializers of the 200 answer by media type; JSON.stringify otherwise. */
  readonly serializers?: Readonly<Record<string, Serializer>>;
}

interface OperationParts<P, Q, B> {
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
}

/** An operation as the route table holds it (its input types checked where it was defined). */
export interface Operation extends OperationDocs, OperationParts<PartSpec, PartSpec, PartSpec> {
  /** 'key': an /api/v1 operation (the key check runs first); 'public': no key. */
  readonly auth: 'key' | 'public';
  handle(input: OperationInput<unknown, unknown, unknown>, ctx: KeyedContext | PublicContext): Promise<unknown>;
}

/** An /api/v1 operation: it needs a key, and its handler gets the caller. */
export function keyedOperation<P extends PartSpec | undefined = undefined, Q extends PartSpec | undefined = undefined, B extends PartSpec | undefined = undefined>(
  operation: OperationDocs & OperationParts<P, Q, B> & { handle(input: OperationInput<P, Q, B>, ctx: KeyedContext): Promise<unknown> },
): Operation {
  return { ...operation, auth: 'key' } as unknown as Operation;
}

/** A service operation (health, the OpenAPI document): no key. */
export function publicOperation<P extends PartSpec | undefined = undefined, Q extends PartSpec | undefined = undefined, B extends PartSpec | undefined = undefined>(
  operation: OperationDocs & OperationParts<P, Q, B> & { handle(input: OperationInput<P, Q, B>, ctx: PublicContext): Promise<unknown> },
): Operation {
  return { ...operation, auth: 'public' } as unknown as Operation;
}

/** Sends `{"detail": ...}` with a status; handlers return its result. */
export function sendDetail(reply: FastifyReply, status: number, detail: string): FastifyReply {
  return reply.code(status).send({ detail });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the key check of every /api/v1 route; null on the service routes. */
    caller: Caller | null;
  }
}
