/**
 * API key material. A key is "ecs_" + 43 base64url characters (256 random bits); only its SHA-256
 * is stored, with the first characters as a visible prefix so that an operator can tell keys
 * apart and secret scanners can recognize a leaked one.
 */
import { hash, randomBytes } from 'node:crypto';

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
