/**
 * Webhook material, as Standard Webhooks defines it (no I/O): signing secrets, message ids,
 * payloads, signatures, endpoint URLs and the retry schedule.
 *
 * A secret is `whsec_` + base64 of 32 random bytes. A message is signed with HMAC-SHA256 over
 * `${webhook-id}.${webhook-timestamp}.${body}`, keyed with the secret's bytes (the base64 after
 * the prefix), and sent as `webhook-signature: v1,<base64 signature>`. Signing is a few lines of
 * node:crypto, so no library is needed for it; the tests check it with the reference library.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { CHANGE_KINDS, type WebsiteChangeSummary } from '../change-feed/index.js';

export const SECRET_PREFIX = 'whsec_';
/** Standard Webhooks accepts keys of 24 to 64 bytes. */
const SECRET_BYTES = 32;

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** A message id: `msg_` + 32 hex characters; the same on every attempt of one delivery. */
export function newMessageId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

/** The headers that sign `body`, sent with the message `id` at `timestampSeconds` (unix time). */
export function signatureHeaders(secret: string, id: string, timestampSeconds: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${signature}`,
  };
}

/** The body of a `content.changed` message; keys in a fixed order, counts in the feed's kind order. */
export function contentChangedPayload(summary: WebsiteChangeSummary, timestamp: Date): string {
  const counts: Record<string, { upsert: number; delete: number }> = {};
  for (const kind of CHANGE_KINDS) {
    const c = summary.counts[kind];
    if (c) counts[kind] = { upsert: c.upsert, delete: c.delete };
  }
  return JSON.stringify({
    type: 'content.changed',
    timestamp: timestamp.toISOString(),
    data: { website_id: summary.websiteId, cursor: summary.cursor, counts },
  });
}

/** The body of a `webhook.test` message (`webhooks test`): proves the endpoint receives and verifies. */
export function testPayload(endpoint: { endpointId: string; websiteId: string }, timestamp: Date): string {
  return JSON.stringify({
    type: 'webhook.test',
    timestamp: timestamp.toISOString(),
    data: { endpoint_id: endpoint.endpointId, website_id: endpoint.websiteId },
  });
}

/** Whether a summary reports any change at all (a website that saw nothing new gets no message). */
export function hasChanges(summary: WebsiteChangeSummary): boolean {
  return CHANGE_KINDS.some((kind) => (summary.counts[kind]?.upsert ?? 0) + (summary.counts[kind]?.delete ?? 0) > 0);
}

/** Longest endpoint URL accepted. */
export const MAX_URL_LENGTH = 2048;

/**
 * An endpoint URL as stored, or the reason it is refused. Only operators add endpoints, so any
 * http(s) URL is accepted, loopback and private addresses included; credentials in the URL and
 * fragments are refused (they would be sent nowhere or leak into listings).
 */
export function checkEndpointUrl(raw: string): { ok: true; url: string } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: `"${raw}" is not a URL; give an http:// or https:// URL such as https://www.example.com/hooks/estate` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `webhook URLs must use http or https, got ${url.protocol.slice(0, -1)} ("${raw}")` };
  }
  if (url.username || url.password) return { ok: false, reason: 'the URL must not hold a user name or password (the signature authenticates the service)' };
  if (url.hash) return { ok: false, reason: 'the URL must not have a #fragment (it is never sent)' };
  if (url.href.length > MAX_URL_LENGTH) return { ok: false, reason: `the URL is longer than ${MAX_URL_LENGTH} characters` };
  return { ok: true, url: url.href };
}

export interface RetrySchedule {
  /** Wait after the first failed attempt. */
  firstDelayMs: number;
  /** Longest wait between two attempts. */
  maxDelayMs: number;
  /** A delivery not delivered this long after it was written is given up (failed). */
  giveUpAfterMs: number;
}

/** Each wait is 6 times the one before: 5 s, 30 s, 3 min, 18 min, then every hour (the defaults). */
export const BACKOFF_FACTOR = 6;

/** How long to wait after the `attempts`-th failed attempt (1 = the first). */
export function retryDelayMs(schedule: RetrySchedule, attempts: number): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  return Math.min(schedule.firstDelayMs * BACKOFF_FACTOR ** exponent, schedule.maxDelayMs);
}
