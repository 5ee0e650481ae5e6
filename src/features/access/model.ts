/**
 * Who calls and what they may see. A key is "ecs_" + 43 base64url characters (256 random bits);
 * only its SHA-256 is stored, with the first characters as a visible prefix so that an operator
 * can tell keys apart and secret scanners can recognize a leaked one. A key names a website, and
 * the website its organization: every query is limited to it, and ids of other organizations do
 * not exist for the caller. Within it, the website scope (extension E7, scope.ts) may narrow what
 * exists further: offers out of scope, and investments out of scope when the scope lists
 * investments, answer as if they did not exist.
 */
import { hash, randomBytes } from 'node:crypto';
import type { WebsiteScope } from './scope.js';

export const KEY_PREFIX = 'ecs_';
/** How many leading characters of a key are stored and shown ("ecs_" plus 8). */
export const VISIBLE_PREFIX_LENGTH = 12;

export function hashKey(key: string): string {
  // One-shot hash (Node >= 20.12): every request hashes its key, and this is 3x cheaper than createHash.
  return hash('sha256', key, 'hex');
}

export function generateKey(): { key: string; sha256: string; prefix: string } {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, sha256: hashKey(key), prefix: key.slice(0, VISIBLE_PREFIX_LENGTH) };
}

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

export interface Visibility {
  readonly organizationId: string;
  /** null or absent: the whole organization. */
  readonly scope?: WebsiteScope | null;
}
