/**
 * API key management for the command line (the operator's side, with the listing that goes with it): create (the key is shown once; only its SHA-256 and
 * a short prefix are stored), list (never a secret or a hash), activate and deactivate.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { notifyKeysChanged } from './content-version.js';
import { generateKey } from '../domain/api-keys.js';
import { parseRfc3339, toApiTimestamp, toStoredTimestamp } from '../domain/timestamps.js';

/** A mistake in what was asked (unknown id, bad date); the command line prints its message. */
export class KeyManagementError extends Error {}

/** active; inactive (switched off); expired (active but past expires_at, refused like inactive). */
export type KeyStatus = 'active' | 'inactive' | 'expired';

export interface KeySummary {
  key_id: string;
  website_id: string;
  label: string | null;
  key_prefix: string | null;
  is_active: boolean;
  status: KeyStatus;
  /** RFC 3339 UTC, or null when the key does not expire. */
  expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
}

export interface CreatedKey extends KeySummary {
  /** The key itself: shown once, never stored. */
  key: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function uuidArgument(value: string, what: string): string {
  if (!UUID.test(value)) throw new KeyManagementError(`${what} must be a UUID, got "${value}"`);
  return value.toLowerCase();
}

interface KeyRow {
  key_id: string;
  website_id: string;
  label: string | null;
  key_prefix: string | null;
  is_active: boolean;
  expired: boolean;
  expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
}

// Never the hash: the listing selects these columns and nothing else.
const SUMMARY_COLUMNS = sql`key_id::text as key_id, website_id::text as website_id, label, key_prefix, is_active,
  (expires_at is not null and expires_at <= now()) as expired, expires_at, created_at, last_used_at`;

function toSummary(row: KeyRow): KeySummary {
  return {
    key_id: row.key_id,
    website_id: row.website_id,
    label: row.label,
    key_prefix: row.key_prefix,
    is_active: row.is_active,
    status: !row.is_active ? 'inactive' : row.expired ? 'expired' : 'active',
    expires_at: row.expires_at === null ? null : toApiTimestamp(row.expires_at),
    created_at: toApiTimestamp(row.created_at),
    last_used_at: row.last_used_at === null ? null : toApiTimestamp(row.last_used_at),
  };
}

async function assertWebsite(db: Kysely<Database>, websiteId: string): Promise<void> {
  const found = await db.selectFrom('websites').select('website_id').where('website_id', '=', websiteId).executeTakeFirst();
  if (!found) throw new KeyManagementError(`unknown website ${websiteId}`);
}

export async function createKey(
  db: Kysely<Database>,
  options: { websiteId: string; label?: string | undefined; expiresAt?: string | undefined },
): Promise<CreatedKey> {
  const websiteId = uuidArgument(options.websiteId, 'website id');
  let expiresAt: string | null = null;
  if (options.expiresAt !== undefined) {
    const parsed = parseRfc3339(options.expiresAt);
    if (!parsed) throw new KeyManagementError(`expires-at must be an RFC 3339 date-time (e.g. 2026-12-31T23:59:59Z), got "${options.expiresAt}"`);
    if (parsed.epochMs <= Date.now()) throw new KeyManagementError(`expires-at ${options.expiresAt} is in the past`);
    expiresAt = toStoredTimestamp(options.expiresAt)!;
  }
  await assertWebsite(db, websiteId);
  const { key, sha256, prefix } = generateKey();
  const keyId = randomUUID();
  const result = await sql<KeyRow>`
    insert into api_keys (key_id, website_id, key_sha256, key_prefix, label, is_active, expires_at)
    values (${keyId}, ${websiteId}, ${sha256}, ${prefix}, ${options.label ?? null}, true, ${expiresAt})
    returning ${SUMMARY_COLUMNS}`.execute(db);
  await notifyKeysChanged(db);
  return { ...toSummary(result.rows[0]!), key };
}

/** Keys of one website, or of every website; oldest first. */
export async function listKeys(db: Kysely<Database>, options: { websiteId?: string | undefined } = {}): Promise<KeySummary[]> {
  const websiteId = options.websiteId === undefined ? undefined : uuidArgument(options.websiteId, 'website id');
  if (websiteId !== undefined) await assertWebsite(db, websiteId);
  const result = await sql<KeyRow>`
    select ${SUMMARY_COLUMNS} from api_keys
    ${websiteId === undefined ? sql`` : sql`where website_id = ${websiteId}`}
    order by website_id, created_at, key_id`.execute(db);
  return result.rows.map(toSummary);
}

/**
 * Switches a key on or off. Running instances on PostgreSQL are told at once; otherwise they notice
 * within their key cache lifetime (KEY_CACHE_TTL_MS, at most 5 s).
 */
export async function setKeyActive(db: Kysely<Database>, keyId: string, active: boolean): Promise<KeySummary & { changed: boolean }> {
  const id = uuidArgument(keyId, 'key id');
  const changed = await sql<KeyRow>`
    update api_keys set is_active = ${active} where key_id = ${id} and is_active <> ${active}
    returning ${SUMMARY_COLUMNS}`.execute(db);
  if (changed.rows[0]) {
    await notifyKeysChanged(db);
    return { ...toSummary(changed.rows[0]), changed: true };
  }
  const current = await sql<KeyRow>`select ${SUMMARY_COLUMNS} from api_keys where key_id = ${id}`.execute(db);
  if (!current.rows[0]) throw new KeyManagementError(`unknown key ${id}`);
  return { ...toSummary(current.rows[0]), changed: false };
}
