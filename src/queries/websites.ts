/** Websites, for the operator's eyes (the start-up hint of how to get a key). */
import { sql } from 'kysely';
import type { ReadDb } from './readonly.js';

export interface WebsiteSummary {
  website_id: string;
  name: string;
}

/** The first `limit` websites by name. */
export async function listWebsites(db: ReadDb, limit: number): Promise<WebsiteSummary[]> {
  return db.selectFrom('websites').select(['website_id', 'name']).orderBy('name').orderBy('website_id').limit(limit).execute();
}

export interface WebsiteRow {
  website_id: string;
  organization_id: string;
  name: string;
}

export async function findWebsite(db: ReadDb, websiteId: string): Promise<WebsiteRow | undefined> {
  return db
    .selectFrom('websites')
    .select(['website_id', 'organization_id', 'name'])
    .where('website_id', '=', websiteId)
    .executeTakeFirst();
}

export interface StoredKeyState {
  key_id: string;
  website_id: string;
  label: string | null;
  is_active: boolean;
  /** RFC 3339 in UTC with microseconds, null when the key never expires. */
  expires_at: string | null;
}

/** A key's state by its SHA-256 (a mirror keeps what an operator set on a key it registered before). */
export async function findKeyStateByHash(db: ReadDb, keySha256: string): Promise<StoredKeyState | undefined> {
  return db
    .selectFrom('api_keys')
    .select([
      'key_id',
      'website_id',
      'label',
      'is_active',
      sql<string | null>`to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as('expires_at'),
    ])
    .where('key_sha256', '=', keySha256)
    .executeTakeFirst();
}
