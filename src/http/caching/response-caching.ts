/**
 * The route hooks that make repeated reads cheap, for every /api/v1 read operation:
 *
 * - lookup (after the key check, before validation and any database work): a request whose key
 *   (organization and, for a scoped website, its scope; content version, method, URL with query, negotiated format and, for POST, the
 *   body bytes and Content-Type) matches an earlier 200 is answered from memory. Only 200s are
 *   stored, so a hit is always a request that passed validation before.
 * - finish (onSend, every 200): stores the body, then sends it with a strong ETag (GET),
 *   `Cache-Control: private, no-cache`, `Vary: Accept, Authorization[, Accept-Encoding]`,
 *   answers a matching If-None-Match with 304, and compresses (br, gzip) when the client asks and
 *   the body is large enough. Errors pass through untouched: uncompressed JSON, never stored.
 *
 * With the cache off (RESPONSE_CACHE=off) nothing is stored, but ETags, 304 and compression work
 * the same (the ETag is then computed per response).
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onSendHookHandler } from 'fastify';
import type { ContentVersion } from '../../features/content-version/index.js';
import {
  compress,
  compressed,
  responseEntry,
  strongEtag,
  variantEtag,
  type CachedResponse,
  type Encoding,
  type ResponseCache,
} from './response-cache.js';
import type { Metrics } from '../../metrics/metrics.js';
import { JSON_TYPE } from '../content-types.js';
import { preferredFormat, type ResponseFormat } from '../negotiate.js';
import { addVary } from '../vary.js';
import { preferredEncoding } from './accept-encoding.js';
import { ifNoneMatchHits } from './if-none-match.js';
import { RequestBytes } from '../validation/compat-validation.js';

/** Bodies below this are sent as they are: compression would save less than its cost. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * Clients may keep a response but must revalidate it (If-None-Match) before every reuse: content
 * changes whenever an import runs, and a 304 costs little. `private`: answers depend on the key.
 */
export const CACHE_CONTROL = 'private, no-cache';

const variantEtags = (etag: string): string[] => [etag, variantEtag(etag, 'br'), variantEtag(etag, 'gzip')];

const kKey = Symbol('responseCacheKey');
const kVersion = Symbol('responseCacheVersion');
const kEntry = Symbol('responseCacheEntry');

interface CachingState {
  [kKey]?: string;
  [kVersion]?: string;
  [kEntry]?: CachedResponse;
}

export interface ResponseCaching {
  /** Route onRequest hook of GET reads (no body to wait for). */
  lookupGet(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
  /** Route preValidation hook of POST reads (the body is needed for the key); before input checks. */
  lookupPost(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
  /** Route onSend hook of every read. */
  finish: onSendHookHandler<unknown>;
}

const VARY = ['Accept', 'Authorization'];
const VARY_COMPRESSIBLE = ['Accept', 'Authorization', 'Accept-Encoding'];

/**
 * How an entry's body is sent to a client with this Accept-Encoding: the coding (undefined: as it
 * is) and the Vary names of the answer. Bodies below COMPRESS_MIN_BYTES are never compressed and
 * do not vary by Accept-Encoding. Also used by the answers sent before Fastify (early-hit.ts).
 */
export function codingOf(entry: CachedResponse, acceptEncoding: string | string[] | undefined): { encoding: Encoding | undefined; vary: readonly string[] } {
  const compressible = entry.body.length >= COMPRESS_MIN_BYTES;
  return compressible ? { encoding: preferredEncoding(acceptEncoding), vary: VARY_COMPRESSIBLE } : { encoding: undefined, vary: VARY };
}

/**
 * The key of an answer in the response cache. `visibilityKey` is the caller's (its organization
 * and scope), `current` the content version, `method` GET (HEAD shares it) or POST, `url` the
 * request's, query included.
 */
export function responseCacheKey(visibilityKey: string, current: string, method: 'GET' | 'POST', format: ResponseFormat, url: string): string {
  return `${visibilityKey}\n${current}\n${method}\n${format}\n${url}`;
}

/** Whether If-None-Match names this body, in any of its codings (a single exact tag is checked first). */
export function notModified(header: string | undefined, entry: CachedResponse): boolean {
  if (header === undefined) return false;
  const validators = (entry.validators ??= variantEtags(entry.etag));
  return validators.includes(header) || ifNoneMatchHits(header, validators);
}

/** The body of a POST as part of a key: short bodies as they are, longer ones by digest. */
function bodyKey(body: unknown): string {
  if (!(body instanceof RequestBytes)) return '-';
  const bytes = body.bytes;
  return bytes.length <= 512 ? bytes.toString('latin1') : strongEtag(bytes);
}

export function createResponseCaching(options: {
  cache: ResponseCache;
  version: ContentVersion;
  /** Operations answering JSON or XML by Accept; the others always answer JSON. */
  negotiates: boolean;
  /** Counts hits and misses (estate_response_cache_lookups_total). */
  metrics?: Metrics | undefined;
}): ResponseCaching {
  const { cache, version, negotiates, metrics } = options;

  function keyOf(request: FastifyRequest, current: string): string | undefined {
    const caller = request.caller;
    if (!caller) return undefined;
    // HEAD is GET without the body: both share entries.
    const method = request.method === 'POST' ? 'POST' : 'GET';
    const format = negotiates ? preferredFormat(request.headers.accept) : 'json';
    // Scoped websites (extension E7) see less than their organization: their answers are kept apart.
    const key = responseCacheKey(caller.visibilityKey, current, method, format, request.url);
    if (method !== 'POST') return key;
    return `${key}\n${request.headers['content-type'] ?? ''}\n${bodyKey(request.body)}`;
  }

  /**
   * Sets the caching headers of a 200 answer of this entry and picks its coding. For a GET whose
   * If-None-Match names the body, answers 304 instead (true): a tag of any coding of the same body
   * revalidates, since the content the client holds is current (as Apache does with its -gzip
   * tags); the 304 names the coding this request would get.
   */
  function prepare(request: FastifyRequest, reply: FastifyReply, entry: CachedResponse): { encoding?: Encoding; notModified: boolean } {
    const { encoding, vary } = codingOf(entry, request.headers['accept-encoding']);
    reply.header('cache-control', CACHE_CONTROL);
    addVary(reply, ...vary);
    if (request.method === 'POST') return { encoding, notModified: false };
    reply.header('etag', variantEtag(entry.etag, encoding));
    if (!notModified(request.headers['if-none-match'], entry)) return { encoding, notModified: false };
    reply.code(304);
    reply.removeHeader('content-type');
    reply.removeHeader('content-length');
    return { notModified: true };
  }

  // Hooks in callback style: a hit, the hot path, allocates no promise.
  function lookup(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const current = version.current;
    const key = cache.enabled && current !== undefined ? keyOf(request, current) : undefined;
    if (key === undefined) {
      done();
      return;
    }
    const state = request as FastifyRequest & CachingState;
    const entry = cache.get(key);
    metrics?.responseCacheLookups.inc({ result: entry ? 'hit' : 'miss' });
    if (entry) {
      state[kEntry] = entry;
      // A revalidation that hits is answered here; finish() lets a 304 pass.
      if (request.headers['if-none-match'] !== undefined && prepare(request, reply, entry).notModified) reply.send();
      else {
        if (entry.contentLanguage !== undefined) reply.header('content-language', entry.contentLanguage);
        reply.code(200).type(entry.contentType).send(entry.body);
      }
      return;
    }
    state[kKey] = key;
    state[kVersion] = current;
    done();
  }

  const finish: onSendHookHandler<unknown> = (request, reply, payload, done) => {
    if (reply.statusCode !== 200) {
      done(null, payload);
      return;
    }
    const state = request as FastifyRequest & CachingState;
    let entry = state[kEntry];
    let stored = entry !== undefined;
    if (entry === undefined) {
      const body = Buffer.isBuffer(payload) ? payload : typeof payload === 'string' ? Buffer.from(payload) : undefined;
      if (body === undefined) {
        done(null, payload);
        return;
      }
      const contentType = String(reply.getHeader('content-type') ?? JSON_TYPE);
      const language = reply.getHeader('content-language');
      const contentLanguage = language === undefined ? undefined : String(language);
      const key = state[kKey];
      // Stored only under the version the request started with, and only while it is current:
      // a response read across an import is sent, never kept.
      stored = key !== undefined && state[kVersion] === version.current;
      const isGet = request.method !== 'POST';
      entry = stored ? cache.set(key!, body, contentType, contentLanguage) : responseEntry(body, contentType, isGet ? strongEtag(body) : '', contentLanguage);
    }

    const { encoding, notModified } = prepare(request, reply, entry);
    if (notModified) {
      // No body; Fastify's HEAD handling reads the payload as a stream unless it is a string.
      done(null, request.method === 'HEAD' ? '' : null);
      return;
    }
    if (encoding === undefined) {
      done(null, entry.body);
      return;
    }
    // Stored entries keep their compressed variants; others are compressed for this response only.
    (stored ? compressed(entry, encoding) : compress(entry.body, encoding)).then((body) => {
      reply.header('content-encoding', encoding);
      reply.removeHeader('content-length');
      done(null, body);
    }, done);
  };

  return { lookupGet: lookup, lookupPost: lookup, finish };
}
