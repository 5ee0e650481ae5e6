/**
 * The API key check of every /api/v1 route, as an onRequest hook: it runs before the body is read
 * or anything is validated, so an unauthenticated caller always gets a 401 and learns nothing
 * about ids or bodies (CONTRACT 2).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hashKey } from '../../domain/api-keys.js';
import type { ApiKeyCache } from './key-cache.js';
import type { KeyUsageRecorder } from './key-usage.js';

export const KEY_REQUIRED = 'API key is required';
export const KEY_INVALID = 'Invalid API key';
export const KEY_NOT_ACTIVE = 'API key is not active';

/**
 * The key in an Authorization header: the value itself, or `Bearer <key>` (scheme in any case),
 * surrounding white space ignored. Undefined when there is none.
 */
export function presentedKey(header: string | string[] | undefined): string | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return undefined;
  const bearer = /^bearer(?:\s+|$)/i.exec(value);
  const key = bearer ? value.slice(bearer[0].length).trim() : value;
  return key === '' ? undefined : key;
}

export function createAuthenticator(keys: ApiKeyCache, usage: KeyUsageRecorder, now: () => number = Date.now) {
  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const key = presentedKey(request.headers.authorization);
    if (key === undefined) return reply.code(401).send({ detail: KEY_REQUIRED });
    const record = await keys.lookup(hashKey(key));
    if (!record) return reply.code(401).send({ detail: KEY_INVALID });
    if (!record.is_active || (record.expires_at_ms !== null && record.expires_at_ms <= now())) {
      return reply.code(401).send({ detail: KEY_NOT_ACTIVE });
    }
    request.caller = { organizationId: record.organization_id, websiteId: record.website_id, keyId: record.key_id };
    usage.record(record.key_id);
    return undefined;
  };
}
