/**
 * API key lookups for authentication, by the SHA-256 of the presented key, joined to the website
 * for its organization and scope. The key itself never reaches the database or this module.
 */
import { sql, type Kysely } from 'kysely';
import type { Database, WebsiteScope } from '../db/database.js';
import type { ReadDb } from './readonly.js';

export interface ApiKeyRecord {
  key_id: string;
  website_id: string;
  organization_id: string;
  /** The website's scope (extension E7); null: the whole organization. */
  scope: WebsiteScope | null;
  /** The scope as canonical text (jsonb's), null without one: equal scopes, equal text. */
  scope_key: string | null;
  is_active: boolean;
  /** expires_at as epoch milliseconds, null when the key never expires. */
  expires_at_ms: number | null;
}

export async function findApiKeyByHash(db: ReadDb, keySha256: string): Promise<ApiKeyRecord | undefined> {
  const row = await db
    .selectFrom('api_keys as k')
    .innerJoin('websites as w', 'w.website_id', 'k.website_id')
    .select([
      'k.key_id',
      'k.website_id',
      'w.organization_id',
      'w.scope',
      sql<string | null>`w.scope::text`.as('scope_key'),
      'k.is_active',
      sql<number | null>`(extract(epoch from k.expires_at) * 1000)::float8`.as('expires_at_ms'),
    ])
    .where('k.key_sha256', '=', keySha256)
    .executeTakeFirst();
  return row;
}

/**
 * Records that a key was used. The one write of the HTTP side, kept out of the read-only handle on
 * purpose; it skips the row when another instance touched it within the last minute.
 */
export async function touchApiKeyLastUsed(db: Kysely<Database>, keyId: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: sql<string>`now()` })
    .where('key_id', '=', keyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', sql<string>`now() - interval '1 minute'`)]))
    .execute();
}
