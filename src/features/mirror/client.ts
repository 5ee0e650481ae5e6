/**
 * A small client of the original interface for `mirror`: Node's fetch (undici), the key in the
 * Authorization header (never in a URL or a message), JSON only, bounded answers, and retries.
 *
 * - 429: waits as long as Retry-After says (seconds or an HTTP date), capped; without it, backoff.
 * - 5xx, a network error or a timeout: exponential backoff with jitter ("equal jitter": half the
 *   step plus a random half), at most `attempts` tries in all.
 * - 401 and 403: the key is refused; stops at once (MirrorError).
 * - 3xx: stops (the key is not sent to wherever a redirect points).
 * - Any other status: SourceStatusError (the caller decides; usually it stops).
 * - 200 whose body is not JSON, or too large: stops (MirrorError), never retried.
 */
import { MirrorError, SourceStatusError } from './mirror-errors.js';
import { plural } from '../../text/plural.js';

export interface RetryPolicy {
  /** Tries of one request in all (the first one included). */
  attempts: number;
  /** First backoff step; each retry doubles it. */
  baseDelayMs: number;
  /** Largest backoff step. */
  maxDelayMs: number;
  /** Longest wait a Retry-After may ask for. */
  retryAfterCapMs: number;
  /** Time limit of one request (answer included). */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  retryAfterCapMs: 60_000,
  timeoutMs: 30_000,
};

/** Largest answer accepted (a page of 100 offers is well under 1 MiB). */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export interface RetryNotice {
  method: string;
  url: string;
  /** The try that failed (1-based). */
  attempt: number;
  attempts: number;
  reason: string;
  delayMs: number;
}

export interface ClientOptions extends Partial<RetryPolicy> {
  /** Waits between tries (tests record instead of sleeping). */
  sleep?: (ms: number) => Promise<void>;
  /** A number in [0, 1) for the jitter. */
  random?: () => number;
  onRetry?: (notice: RetryNotice) => void;
}

export interface ClientStats {
  requests: number;
  retries: number;
}

/**
 * The base address of a source: http(s) only, no user name or password (they would end up in
 * messages), no query or fragment; a trailing `/api/v1` or `/` is dropped, so both the service's
 * address and its API prefix are accepted.
 */
export function sourceBase(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new MirrorError(`--from: not a URL: ${JSON.stringify(raw)} (expected e.g. https://content.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new MirrorError(`--from: expected an http or https URL, got ${url.protocol}`);
  if (url.username || url.password) throw new MirrorError('--from: the URL must not hold a user name or password (the key is given with --key)');
  if (url.search || url.hash) throw new MirrorError('--from: the URL must not have a query or a fragment');
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/i, '') || '/';
  return url;
}

/** "https://host/prefix" for messages and names. */
export function shownBase(base: URL): string {
  return `${base.origin}${base.pathname === '/' ? '' : base.pathname}`;
}

/** The wait a Retry-After asks for, in ms; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The backoff before try `attempt + 1`, after `attempt` failures (equal jitter). */
export function backoffMs(attempt: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(step / 2 + random() * (step / 2));
}

class Retryable {
  constructor(
    readonly reason: string,
    readonly waitMs?: number,
  ) {}
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The body as text, refusing more than MAX_ANSWER_BYTES. */
async function readBody(response: Response, limit: number): Promise<string | undefined> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The `detail` of an error body, when it has a short one. */
function detailOf(text: string): string {
  try {
    const detail = (JSON.parse(text) as { detail?: unknown }).detail;
    if (typeof detail === 'string') return detail.slice(0, 200);
    if (Array.isArray(detail)) return JSON.stringify(detail).slice(0, 300);
  } catch {
    // not JSON: say nothing of the body
  }
  return '';
}

function networkReason(error: unknown): string {
  const err = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'no answer in time';
  const cause = err.cause?.code ?? err.cause?.message;
  return `network error (${cause ?? err.message ?? String(error)})`;
}

export class SourceClient {
  readonly stats: ClientStats = { requests: 0, retries: 0 };
  private readonly policy: RetryPolicy;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;

  constructor(
    readonly base: URL,
    private readonly key: string,
    private readonly options: ClientOptions = {},
  ) {
    this.policy = {
      attempts: Math.max(1, options.attempts ?? DEFAULT_RETRY.attempts),
      baseDelayMs: Math.max(0, options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs),
      maxDelayMs: Math.max(0, options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs),
      retryAfterCapMs: Math.max(0, options.retryAfterCapMs ?? DEFAULT_RETRY.retryAfterCapMs),
      timeoutMs: Math.max(1, options.timeoutMs ?? DEFAULT_RETRY.timeoutMs),
    };
    this.sleep = options.sleep ?? sleepFor;
    this.random = options.random ?? Math.random;
  }

  /** The full URL of an API path ("/api/v1/branches"). */
  url(path: string): string {
    return `${shownBase(this.base)}${path}`;
  }

  get(path: string): Promise<unknown> {
    return this.request('GET', path, undefined);
  }

  post(path: string, body: unknown): Promise<unknown> {
    return this.request('POST', path, JSON.stringify(body));
  }

  private async request(method: 'GET' | 'POST', path: string, body: string | undefined): Promise<unknown> {
    const url = this.url(path);
    let reason = '';
    for (let attempt = 1; attempt <= this.policy.attempts; attempt += 1) {
      const outcome = await this.once(method, url, body);
      if (!(outcome instanceof Retryable)) return outcome.value;
      reason = outcome.reason;
      if (attempt === this.policy.attempts) break;
      const delayMs =
        outcome.waitMs !== undefined ? Math.min(outcome.waitMs, this.policy.retryAfterCapMs) : backoffMs(attempt, this.policy, this.random);
      this.stats.retries += 1;
      this.options.onRetry?.({ method, url, attempt, attempts: this.policy.attempts, reason, delayMs });
      await this.sleep(delayMs);
    }
    throw new MirrorError(`${method} ${url} failed ${plural(this.policy.attempts, 'time')}; the last time: ${reason}`);
  }

  private async once(method: string, url: string, body: string | undefined): Promise<{ value: unknown } | Retryable> {
    this.stats.requests += 1;
    let response: Response;
    let text: string | undefined;
    try {
      response = await fetch(url, {
        method,
        headers: {
          authorization: this.key,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body,
        // The key must not follow a redirect to another host: a redirect stops the mirror instead.
        redirect: 'manual',
        signal: AbortSignal.timeout(this.policy.timeoutMs),
      });
      text = await readBody(response, MAX_ANSWER_BYTES);
    } catch (error) {
      return new Retryable(networkReason(error));
    }
    const status = response.status;
    if (status === 429) {
      return new Retryable(`429 ${detailOf(text ?? '') || 'Too Many Requests'}`, retryAfterMs(response.headers.get('retry-after')));
    }
    if (status >= 500) return new Retryable(`${status}${text ? ` ${detailOf(text)}` : ''}`.trimEnd());
    if (status === 401 || status === 403) {
      const detail = detailOf(text ?? '');
      throw new MirrorError(`the source refused the key: ${status}${detail ? ` ${detail}` : ''} (${method} ${url})`);
    }
    if (status >= 300 && status <= 399) {
      const location = response.headers.get('location');
      throw new MirrorError(
        `${method} ${url} redirects${location ? ` to ${location}` : ''} (${status}); give --from the address it redirects to (the key is never sent on)`,
      );
    }
    if (status < 200 || status > 299) throw new SourceStatusError(method, url, status, detailOf(text ?? ''));
    if (text === undefined) throw new MirrorError(`malformed answer from ${method} ${url}: larger than ${MAX_ANSWER_BYTES / (1024 * 1024)} MiB`);
    try {
      return { value: JSON.parse(text) as unknown };
    } catch {
      const type = response.headers.get('content-type') ?? 'no content type';
      throw new MirrorError(`malformed answer from ${method} ${url}: not JSON (${type}, ${plural(Buffer.byteLength(text), 'byte')})`);
    }
  }
}
