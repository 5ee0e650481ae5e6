/**
 * The API key check of every /api/v1 route, as an onRequest hook: it runs before the body is read
 * or anything is validated, so an unauthenticated caller always gets a 401 and learns nothing
 * about ids or bodies (CONTRACT 2).
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { ApiKeyRecord } from './read.js';
import { hashKey, presentedKey } from './model.js';
import type { ApiKeyCache } from './key-cache.js';
import type { KeyUsageRecorder } from './key-usage.js';
import type { Metrics } from '../../metrics/metrics.js';

export const KEY_REQUIRED = 'API key is required';
export const KEY_INVALID = 'Invalid API key';
export const KEY_NOT_ACTIVE = 'API key is not active';

/**
 * Where refuseAtOnce() leaves the hash of a key it let through, on the raw request, so that the
 * key check does not hash the same key again.
 */
const PRESENTED_KEY_SHA256 = Symbol('presentedKeySha256');
/** Where it leaves the key's record when the cache knew it, for admitAtOnce(). */
const PRESENTED_KEY_RECORD = Symbol('presentedKeyRecord');
type HashedMessage = IncomingMessage & { [PRESENTED_KEY_SHA256]?: string; [PRESENTED_KEY_RECORD]?: ApiKeyRecord };

/**
 * The key check's refusal when it is known without waiting: the 401's detail for a request with no
 * key, or with a key that the cache knows, freshly, no website holds; undefined when the request
 * must go on to the key check (a known key, or one that must be looked up). Used by the early
 * answers (src/http/early-answers.ts) before Fastify's request cycle, which then calls
 * countRefusal() for the answers it gives: the key check's own answers, counted the same way.
 */
export function refuseAtOnce(keys: ApiKeyCache, raw: IncomingMessage): string | undefined {
  const key = presentedKey(raw.headers.authorization);
  if (key === undefined) return KEY_REQUIRED;
  // The same unknown key again (a flood of one guess): refused without hashing it again.
  if (keys.knownUnknown(key)) return KEY_INVALID;
  const hash = hashKey(key);
  const fresh = keys.peek(hash);
  if (fresh !== undefined && fresh.record === undefined) {
    keys.rememberUnknown(key, hash);
    return KEY_INVALID;
  }
  (raw as HashedMessage)[PRESENTED_KEY_SHA256] = hash;
  if (fresh !== undefined) (raw as HashedMessage)[PRESENTED_KEY_RECORD] = fresh.record;
  return undefined;
}

/**
 * The record of a key that refuseAtOnce() just let through and that the key check would admit
 * without waiting (the cache knew it, freshly, as active and not expired), else undefined. Counts
 * nothing: a caller that answers on it calls countAdmission(). Used by the early answers
 * (src/http/early-answers.ts) to serve a cached answer before Fastify's request cycle.
 */
export function admitAtOnce(raw: IncomingMessage, now: number): ApiKeyRecord | undefined {
  const record = (raw as HashedMessage)[PRESENTED_KEY_RECORD];
  return record !== undefined && isUsable(record, now) ? record : undefined;
}

/** Counts an admission by admitAtOnce() as the key check counts its own (a cache hit, the key's last use). */
export function countAdmission(record: ApiKeyRecord, usage: KeyUsageRecorder, metrics: Metrics | undefined): void {
  metrics?.keyCacheLookups.inc({ result: 'hit' });
  usage.record(record.key_id);
}

/** What the response cache keeps a website's answers under: its organization, and its scope if it has one (extension E7). */
export function visibilityKeyOf(record: ApiKeyRecord): string {
  return record.scope_key === null ? record.organization_id : `${record.organization_id} ${record.scope_key}`;
}

function isUsable(record: ApiKeyRecord, now: number): boolean {
  return record.is_active && (record.expires_at_ms === null || record.expires_at_ms > now);
}

/** Counts a refusal given by refuseAtOnce() as the key check counts its own. */
export function countRefusal(detail: string, metrics: Metrics | undefined): void {
  if (detail === KEY_INVALID) metrics?.keyCacheLookups.inc({ result: 'hit' });
}

export function createAuthenticator(keys: ApiKeyCache, usage: KeyUsageRecorder, metrics?: Metrics, now: () => number = Date.now) {
  /** Lets the request through (true) or answers 401 (false). */
  function admit(request: FastifyRequest, reply: FastifyReply, hash: string, record: ApiKeyRecord | undefined): boolean {
    if (!record) {
      reply.code(401).send({ detail: KEY_INVALID });
      return false;
    }
    if (!isUsable(record, now())) {
      reply.code(401).send({ detail: KEY_NOT_ACTIVE });
      return false;
    }
    request.caller = {
      organizationId: record.organization_id,
      scope: record.scope,
      visibilityKey: visibilityKeyOf(record),
      websiteId: record.website_id,
      keyId: record.key_id,
      keySha256: hash,
    };
    usage.record(record.key_id);
    return true;
  }

  // Callback style: a key remembered by the cache (nearly every request) is checked synchronously,
  // with no promise in between; only a key that must be read from the database waits.
  return function authenticate(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    // Left by refuseAtOnce() when it let the key through: the header was read and hashed there.
    let hash = (request.raw as HashedMessage)[PRESENTED_KEY_SHA256];
    if (hash === undefined) {
      const key = presentedKey(request.headers.authorization);
      if (key === undefined) {
        reply.code(401).send({ detail: KEY_REQUIRED });
        return;
      }
      hash = hashKey(key);
    }
    const fresh = keys.peek(hash);
    if (fresh) {
      metrics?.keyCacheLookups.inc({ result: 'hit' });
      if (admit(request, reply, hash, fresh.record)) done();
      return;
    }
    metrics?.keyCacheLookups.inc({ result: 'miss' });
    keys.lookup(hash).then((record) => {
      if (admit(request, reply, hash, record)) done();
    }, done);
  };
}
