/**
 * Fetching a photo source within the limits: only from an allowed origin (every redirect too, at
 * most MAX_REDIRECTS of them), at most MAX_SOURCE_BYTES (a larger Content-Length is refused before
 * the body is read; a body that runs past the limit, whatever its Content-Length said, is cut off),
 * all within FETCH_TIMEOUT_MS. Every failure is a reason in a few words, never an exception: the
 * photo becomes `unavailable` and the service answers as usual.
 */
import { refusedOrigin, type SourceLimits } from './model.js';
import { demoPhotoOfUrl, renderDemoPhoto } from './demo-photos.js';

export const PHOTO_USER_AGENT = 'EstateContentService-Photos/1';

export type FetchOutcome = { ok: true; bytes: Buffer } | { ok: false; reason: string };

function describe(error: unknown, limits: SourceLimits, timedOut: boolean): string {
  if (timedOut) return `no complete answer within ${limits.timeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (cause && typeof cause.code === 'string') return `could not connect (${cause.code})`;
  if (cause && typeof cause.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** Fetches `url` from the allowed origins; `stop` aborts it (the service is stopping). */
export async function fetchSource(url: string, allowed: readonly string[], limits: SourceLimits, stop?: AbortSignal): Promise<FetchOutcome> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = stop ? AbortSignal.any([stop, timeout]) : timeout;
  let current = url;
  try {
    for (let redirects = 0; ; redirects += 1) {
      const refused = refusedOrigin(current, allowed);
      if (refused) return { ok: false, reason: redirects === 0 ? refused : `redirected to a source not allowed: ${refused}` };
      const response = await fetch(current, { redirect: 'manual', signal, headers: { 'user-agent': PHOTO_USER_AGENT, accept: 'image/*' } });
      if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
        await response.body?.cancel().catch(() => {});
        if (redirects >= limits.maxRedirects) return { ok: false, reason: `more than ${limits.maxRedirects} redirects` };
        current = new URL(response.headers.get('location')!, current).href;
        continue;
      }
      if (response.status !== 200) {
        await response.body?.cancel().catch(() => {});
        return { ok: false, reason: `HTTP ${response.status}` };
      }
      const declared = Number(response.headers.get('content-length') ?? NaN);
      if (Number.isFinite(declared) && declared > limits.maxBytes) {
        await response.body?.cancel().catch(() => {});
        return { ok: false, reason: `larger than ${limits.maxBytes} bytes (Content-Length ${declared})` };
      }
      return await readLimited(response, limits);
    }
  } catch (error) {
    return { ok: false, reason: describe(error, limits, timeout.aborted) };
  }
}

/** The body, or a failure as soon as it passes the limit (it is not read further). */
async function readLimited(response: Response, limits: SourceLimits): Promise<FetchOutcome> {
  if (!response.body) return { ok: false, reason: 'an empty answer' };
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limits.maxBytes) {
      await reader.cancel().catch(() => {});
      return { ok: false, reason: `larger than ${limits.maxBytes} bytes` };
    }
    chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }
  if (size === 0) return { ok: false, reason: 'an empty answer' };
  return { ok: true, bytes: Buffer.concat(chunks, size) };
}

/** fetchSource, except for the demo's own photos, which are drawn here (never fetched). */
export async function fetchSourceOrDemo(url: string, allowed: readonly string[], limits: SourceLimits, stop?: AbortSignal): Promise<FetchOutcome> {
  const demo = demoPhotoOfUrl(url);
  return demo ? { ok: true, bytes: await renderDemoPhoto(demo) } : fetchSource(url, allowed, limits, stop);
}
