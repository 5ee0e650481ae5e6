/**
 * What one API operation is made of: its documentation and schemas (for /openapi.json), how it
 * reads its inputs (every problem reported, FastAPI style) and its handler. The route table
 * (routes.ts) binds operations to methods and URLs.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import type { OfferColumnsCache } from '../features/offers/index.js';
import type { Visibility } from '../features/access/index.js';
import type { OfferReader } from '../features/offers/index.js';
import type { ReadDb } from '../db/readonly.js';
import type { FragmentCache } from '../xml/fragment-cache.js';
import type { InputChecker } from './validation/input-checker.js';

/** The authenticated website: what it may see (its organization and scope) and who it is. */
export interface Caller extends Visibility {
  readonly websiteId: string;
  readonly keyId: string;
  /**
   * What answers are shared by: the organization, plus the scope's canonical text for a scoped
   * website (keys of websites with equal scopes see the same; extension E7).
   */
  readonly visibilityKey: string;
}

export interface OperationContext {
  readonly db: ReadDb;
  /** The offer reads, with this process's offer body cache. */
  readonly offers: OfferReader;
  /** Organizations' offer columns of this process, for facet counts; undefined when FACET_COLUMNS_MB is 0. */
  readonly facetColumns: OfferColumnsCache | undefined;
  /** Rendered <offer_data> elements of this process (XML answers). */
  readonly xmlFragments: FragmentCache;
  /** Set on every /api/v1 operation (authentication runs first); null on the service routes. */
  readonly caller: Caller | null;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
}

export interface Operation<Input = unknown> {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly params?: TSchema;
  readonly query?: TSchema;
  readonly body?: TSchema;
  /** OpenAPI responses by status. */
  readonly responses: Record<number, unknown>;
  /** Reads path, query and body through the checker, which collects every problem. */
  parse(check: InputChecker): Input;
  /** Returns the payload to send (an object for JSON, or a string after setting the type). */
  handle(input: Input, ctx: OperationContext): Promise<unknown>;
}

/** Keeps the Input type of an operation checked while the table holds operations of many types. */
export function defineOperation<Input>(operation: Operation<Input>): Operation<Input> {
  return operation;
}

/** Sends `{"detail": ...}` with a status; handlers return its result. */
export function sendDetail(reply: FastifyReply, status: number, detail: string): FastifyReply {
  return reply.code(status).send({ detail });
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
    apiInput: unknown;
  }
}
