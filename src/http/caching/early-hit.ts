/**
 * A GET or HEAD answered from the response cache before Fastify's request cycle (issue 23): the
 * same entry, status and headers as the route's lookup and finish hooks give it
 * (response-caching.ts), put together from the raw request. src/http/early-answers.ts decides
 * when to ask (a plain request with a key the key cache admits at once) and writes the answer.
 *
 * Why: a cached answer is the service's cheapest 200 (a map lookup), and through Fastify it paid
 * more for the request and reply objects, the hook chains and the reply's send than for the
 * lookup itself (docs/performance.md).
 *
 * Only what can be answered at once is answered here: a hit whose body goes as it is, or in a
 * coding already made (a compressed variant is made once, in the thread pool, by the first request
 * that asks for it through Fastify), and a 304. Anything else, a miss included, is left to Fastify.
 */
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { ContentVersion } from '../../features/content-version/index.js';
import { preferredFormat } from '../negotiate.js';
import { variantEtag, type ResponseCache } from './response-cache.js';
import { CACHE_CONTROL, codingOf, notModified, responseCacheKey } from './response-caching.js';

export interface EarlyHit {
  readonly status: 200 | 304;
  /** What follows the headers (none for a 304; a HEAD sends none either). */
  readonly body: Buffer | undefined;
  /** The headers in the order Fastify's path sets them, with the answer's request id. */
  headers(requestId: string): OutgoingHttpHeaders;
}

/**
 * The cached answer to a GET or HEAD for the caller whose answers are kept under `visibilityKey`,
 * or undefined to leave the request to Fastify.
 */
export function earlyHit(cache: ResponseCache, version: ContentVersion, visibilityKey: string, request: IncomingMessage): EarlyHit | undefined {
  const current = version.current;
  if (!cache.enabled || current === undefined) return undefined;
  const headers = request.headers;
  // A route that always answers JSON keys its entries as JSON whatever Accept says: for it an
  // Accept that prefers XML misses here and is answered by Fastify, from the same entry.
  const entry = cache.get(responseCacheKey(visibilityKey, current, 'GET', preferredFormat(headers.accept), request.url!));
  if (entry === undefined) return undefined;
  const coding = codingOf(entry, headers['accept-encoding']);
  const encoding = coding.encoding;
  // No Vary was set before on this path (CORS, which adds one, sends it to Fastify): the names as they are.
  const vary = coding.vary.join(', ');
  const etag = variantEtag(entry.etag, encoding);
  const conditional = headers['if-none-match'];
  if (conditional !== undefined && notModified(conditional, entry)) {
    const head = request.method === 'HEAD';
    return {
      status: 304,
      body: undefined,
      headers: (requestId) => {
        const out: OutgoingHttpHeaders = { 'cache-control': CACHE_CONTROL, vary, etag, 'x-request-id': requestId, 'x-content-type-options': 'nosniff' };
        // Fastify's HEAD routes answer a reply sent without a payload with `Content-Length: 0`.
        if (head) out['content-length'] = 0;
        return out;
      },
    };
  }
  const body = encoding === undefined ? entry.body : entry.made[encoding];
  if (body === undefined) return undefined;
  const { contentType, contentLanguage } = entry;
  // The lookup hook sets the caching headers first when it checked If-None-Match, then the
  // language and type; the onSend hooks add the request id and nosniff, the finish hook the
  // caching headers (in place when set before) and the coding; Fastify the length last.
  return {
    status: 200,
    body,
    headers: (requestId) => {
      const out: OutgoingHttpHeaders = conditional === undefined ? {} : { 'cache-control': CACHE_CONTROL, vary, etag };
      if (contentLanguage !== undefined) out['content-language'] = contentLanguage;
      out['content-type'] = contentType;
      out['x-request-id'] = requestId;
      out['x-content-type-options'] = 'nosniff';
      out['cache-control'] = CACHE_CONTROL;
      out.vary = vary;
      out.etag = etag;
      if (encoding !== undefined) out['content-encoding'] = encoding;
      out['content-length'] = body.length;
      return out;
    },
  };
}
