/**
 * The access reads on the read-only handle: an API key by the SHA-256 of the presented key (joined
 * to its website for the organization and scope; the key itself never reaches the database or this
 * module), and websites as the service start-up hint and the mirror need them.
 */
import { sql } from 'kysely';
import type { WebsiteScope } from '../../db/database.js';
import type { ReadDb } from '../../db/readonly.js';

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

function apiKeyRecords(db: ReadDb) {
  return db
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
    ]);
}

export async function findApiKeyByHash(db: ReadDb, keySha256: string): Promise<ApiKeyRecord | undefined> {
  return apiKeyRecords(db).where('k.key_sha256', '=', keySha256).executeTakeFirst();
}

/**
 * Every key by its SHA-256, at most `limit` + 1 of them (more than `limit` tells the caller there
 * are too many to keep): the key directory of src/features/access/key-cache.ts.
 */
export async function readKeyDirectory(db: ReadDb, limit: number): Promise<Map<string, ApiKeyRecord>> {
  const rows = await apiKeyRecords(db).select('k.key_sha256').limit(limit + 1).execute();
  return new Map(rows.map(({ key_sha256, ...record }) => [key_sha256, record]));
}


export interface WebsiteName {
  website_id: string;
  name: string;
}

/** The first `limit` websites by name (the start-up hint of how to get a key). */
export async function firstWebsites(db: ReadDb, limit: number): Promise<WebsiteName[]> {
  return db.selectFrom('websites').select(['website_id', 'name']).orderBy('name').orderBy('website_id').limit(limit).execute();
}

export interface WebsiteRow {
  website_id: string;
  organization_id: string;
  name: string;
  scope: WebsiteScope | null;
}

export async function findWebsiteRecord(db: ReadDb, websiteId: string): Promise<WebsiteRow | undefined> {
  return db
    .selectFrom('websites')
    .select(['website_id', 'organization_id', 'name', 'scope'])
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
