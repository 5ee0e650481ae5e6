/**
 * The API key check of every /api/v1 route, as an onRequest hook: it runs before the body is read
 * or anything is validated, so an unauthenticated caller always gets a 401 and learns nothing
 * about ids or bodies (CONTRACT 2).
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { ApiKeyRecord } from './read.js';
import { hashKey, presentedKey } from './model.js';
import type { ApiKeyCache } from './key-cache.js';
import type { KeyUsageRecorder } from './key-usage.js';
import type { Metrics } from '../../metrics/metrics.js';

export const KEY_REQUIRED = 'API key is required';
export const KEY_INVALID = 'Invalid API key';
export const KEY_NOT_ACTIVE = 'API key is not active';

export function createAuthenticator(keys: ApiKeyCache, usage: KeyUsageRecorder, metrics?: Metrics, now: () => number = Date.now) {
  /** Lets the request through (true) or answers 401 (false). */
  function admit(request: FastifyRequest, reply: FastifyReply, hash: string, record: ApiKeyRecord | undefined): boolean {
    if (!record) {
      reply.code(401).send({ detail: KEY_INVALID });
      return false;
    }
    if (!record.is_active || (record.expires_at_ms !== null && record.expires_at_ms <= now())) {
      reply.code(401).send({ detail: KEY_NOT_ACTIVE });
      return false;
    }
    request.caller = {
      organizationId: record.organization_id,
      scope: record.scope,
      visibilityKey: record.scope_key === null ? record.organization_id : `${record.organization_id} ${record.scope_key}`,
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
    const key = presentedKey(request.headers.authorization);
    if (key === undefined) {
      reply.code(401).send({ detail: KEY_REQUIRED });
      return;
    }
    const hash = hashKey(key);
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
