/**
 * The operator's side of access, for the command line: API keys (create: the key is shown once,
 * only its SHA-256 and a short prefix are stored; list, never a secret or a hash; activate and
 * deactivate), websites (the listing; setting or clearing a website's scope, extension E7, which
 * names only investments and branches of the website's own organization, checked here as the
 * import checks its bundle); and the import's writes of websites and keys, and recording key use
 * (the one write of the HTTP side). A change of keys or scope bumps the content version (which
 * also makes running instances forget the keys they remember: at once on PostgreSQL, within
 * CONTENT_POLL_MS otherwise; the key cache lifetime bounds it anyway).
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database, WebsiteScope } from '../../db/database.js';
import { touched, upsert, type Row, type WriteCounts } from '../../db/upsert.js';
import { notifyKeysChanged, tryImportLock } from '../content-version/index.js';
import { generateKey } from './model.js';
import { parseRfc3339, toApiTimestamp, toStoredTimestamp } from '../../contract/timestamps.js';
import { MAX_SCOPE_IDS, normalizeWebsiteScope, SCOPE_OFFER_TYPES, type WebsiteScopeInput } from './scope.js';

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

/** A UUID given on the command line, in lower case; else the command's own error. */
function uuidArgument(value: string, what: string, Problem: new (message: string) => Error = KeyManagementError): string {
  if (!UUID.test(value)) throw new Problem(`${what} must be a UUID, got "${value}"`);
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

function toKeySummary(row: KeyRow): KeySummary {
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
  return { ...toKeySummary(result.rows[0]!), key };
}

/** Keys of one website, or of every website; oldest first. */
export async function listKeys(db: Kysely<Database>, options: { websiteId?: string | undefined } = {}): Promise<KeySummary[]> {
  const websiteId = options.websiteId === undefined ? undefined : uuidArgument(options.websiteId, 'website id');
  if (websiteId !== undefined) await assertWebsite(db, websiteId);
  const result = await sql<KeyRow>`
    select ${SUMMARY_COLUMNS} from api_keys
    ${websiteId === undefined ? sql`` : sql`where website_id = ${websiteId}`}
    order by website_id, created_at, key_id`.execute(db);
  return result.rows.map(toKeySummary);
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
    return { ...toKeySummary(changed.rows[0]), changed: true };
  }
  const current = await sql<KeyRow>`select ${SUMMARY_COLUMNS} from api_keys where key_id = ${id}`.execute(db);
  if (!current.rows[0]) throw new KeyManagementError(`unknown key ${id}`);
  return { ...toKeySummary(current.rows[0]), changed: false };
}

/** A mistake in what was asked (unknown id, another organization's investment); printed as it is. */
export class WebsiteManagementError extends Error {}

export interface WebsiteSummary {
  website_id: string;
  organization_id: string;
  name: string;
  /** null: the whole organization. */
  scope: WebsiteScope | null;
  /** Keys of the website that are active and not expired, and all of its keys. */
  active_keys: number;
  keys: number;
  updated_at: string;
}


const SUMMARY = sql`w.website_id::text as website_id, w.organization_id::text as organization_id, w.name, w.scope, w.updated_at,
  (select count(*)::int from api_keys k where k.website_id = w.website_id and k.is_active
     and (k.expires_at is null or k.expires_at > now())) as active_keys,
  (select count(*)::int from api_keys k where k.website_id = w.website_id) as keys`;

const toWebsiteSummary = (row: WebsiteSummary): WebsiteSummary => ({ ...row, updated_at: toApiTimestamp(row.updated_at) });

/** Websites by organization, then name, then id; of one organization when asked. */
export async function listWebsites(db: Kysely<Database>, options: { organizationId?: string | undefined } = {}): Promise<WebsiteSummary[]> {
  const org = options.organizationId === undefined ? undefined : uuidArgument(options.organizationId, 'organization id', WebsiteManagementError);
  const result = await sql<WebsiteSummary>`select ${SUMMARY} from websites w
    ${org === undefined ? sql`` : sql`where w.organization_id = ${org}`}
    order by w.organization_id, w.name, w.website_id`.execute(db);
  return result.rows.map(toWebsiteSummary);
}

export async function findWebsite(db: Kysely<Database>, websiteId: string): Promise<WebsiteSummary> {
  const id = uuidArgument(websiteId, 'website id', WebsiteManagementError);
  const result = await sql<WebsiteSummary>`select ${SUMMARY} from websites w where w.website_id = ${id}`.execute(db);
  if (!result.rows[0]) throw new WebsiteManagementError(`unknown website ${id}`);
  return toWebsiteSummary(result.rows[0]);
}

/** Checks the lists of a scope given on the command line; returns its normal form (null: none). */
export function checkScopeArguments(input: WebsiteScopeInput): WebsiteScope | null {
  for (const [list, what] of [['investment_ids', 'investment id'], ['branch_ids', 'branch id']] as const) {
    const ids = input[list];
    if (!ids) continue;
    for (const id of ids) uuidArgument(id, what, WebsiteManagementError);
    if (new Set(ids).size > MAX_SCOPE_IDS) throw new WebsiteManagementError(`a scope lists at most ${MAX_SCOPE_IDS} ${what}s`);
  }
  for (const type of input.offer_types ?? []) {
    if (!SCOPE_OFFER_TYPES.includes(type)) {
      throw new WebsiteManagementError(`unknown offer type "${type}" (one of ${SCOPE_OFFER_TYPES.join(', ')})`);
    }
  }
  return normalizeWebsiteScope(input);
}

/** The ids among `ids` that are not `kind`s of organization `org`, each with why. */
async function foreignOrMissing(
  db: Kysely<Database>,
  kind: 'investment' | 'branch',
  ids: readonly string[] | undefined,
  org: string,
): Promise<string[]> {
  if (!ids || ids.length === 0) return [];
  const table = kind === 'investment' ? 'investments' : 'branches';
  const column = `${kind}_id`;
  const found = await sql<{ id: string; org: string }>`
    select ${sql.ref(column)}::text as id, organization_id::text as org from ${sql.table(table)}
    where ${sql.ref(column)} = any(${[...ids]}::uuid[])`.execute(db);
  const owner = new Map(found.rows.map((r) => [r.id, r.org]));
  return ids.flatMap((id) => {
    const o = owner.get(id);
    if (o === undefined) return [`unknown ${kind} ${id}`];
    return o === org ? [] : [`${kind} ${id} belongs to another organization`];
  });
}

/**
 * What ends every content write that changes what websites see, in its transaction: the change
 * feed, the webhook outbox and the content version (src/import/publish.ts). Handed in, since those
 * wings build on this one.
 */
export type PublishContentChange = (trx: Kysely<Database>, organizationIds: readonly string[]) => Promise<unknown>;

/**
 * Sets a website's scope (null clears it: the whole organization), in one transaction; a change is
 * published as an import that changes what a website sees is.
 */
export async function setWebsiteScope(
  db: Kysely<Database>,
  websiteId: string,
  scope: WebsiteScope | null,
  publish: PublishContentChange,
): Promise<{ website: WebsiteSummary; changed: boolean }> {
  const id = uuidArgument(websiteId, 'website id', WebsiteManagementError);
  return db.transaction().execute(async (trx) => {
    // The change feed's order is commit order: its writers take turns (the import lock).
    if (!(await tryImportLock(trx))) throw new WebsiteManagementError('an import is running; try again when it has finished');
    const website = await sql<{ organization_id: string }>`
      select organization_id::text as organization_id from websites where website_id = ${id} for update`.execute(trx);
    const org = website.rows[0]?.organization_id;
    if (org === undefined) throw new WebsiteManagementError(`unknown website ${id}`);
    const problems = [
      ...(await foreignOrMissing(trx, 'investment', scope?.investment_ids, org)),
      ...(await foreignOrMissing(trx, 'branch', scope?.branch_ids, org)),
    ];
    if (problems.length > 0) {
      const shown = problems.slice(0, 5).join('; ');
      throw new WebsiteManagementError(`${shown}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`);
    }
    const json = scope === null ? null : JSON.stringify(scope);
    const updated = await sql`update websites set scope = ${json}::jsonb, updated_at = now()
      where website_id = ${id} and scope is distinct from ${json}::jsonb returning website_id`.execute(trx);
    const changed = updated.rows.length > 0;
    if (changed) {
      // The website's feed now deletes what left its scope and adds what entered it; its webhook
      // endpoints are told, as after an import.
      await publish(trx, [org]);
    }
    return { website: await findWebsite(trx, id), changed };
  });
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

// The import's writes of websites and keys (src/import), inside its transaction.

export interface ApiKeyRowDraft {
  /** undefined until resolved: an existing key with the same hash, or derivedKeyId(). */
  key_id: string | undefined;
  website_id: string;
  key_sha256: string;
  key_prefix: string | null;
  label: string | null;
  is_active: boolean;
  expires_at: string | null;
}

/** A website row: `scope` undefined when the record says nothing of it (the stored scope stays). */
export interface WebsiteRowDraft {
  website_id: string;
  organization_id: string;
  name: string;
  /** The scope as JSON text, null for none, undefined: keep the stored one (none for a new website). */
  scope: string | null | undefined;
}

/** A website that existed before the import and whose scope the import changed. */
export interface ScopeChange {
  website_id: string;
  previous_scope: WebsiteScope | null;
  scope: WebsiteScope | null;
}

export interface WebsiteWriteCounts extends WriteCounts {
  scopeChanges: ScopeChange[];
}

/**
 * Websites whose record gives a scope (or null) have it written; the others keep theirs, so a
 * bundle that says nothing of a scope never widens (or narrows) what a website's keys see. The
 * scope each website had before is read in the same statement (a data-modifying statement's
 * subqueries see the table as it was), so the report can name every scope that changed.
 */
export async function upsertWebsites(db: Kysely<Database>, drafts: readonly WebsiteRowDraft[]): Promise<WebsiteWriteCounts> {
  const withoutScope = drafts.filter((d) => d.scope === undefined);
  const withScope = drafts.filter((d) => d.scope !== undefined);
  const kept = await upsert(db, {
    table: 'websites', key: 'website_id', columns: ['website_id', 'organization_id', 'name'],
    compare: ['name'], update: ['name'], also: touched,
  }, withoutScope.map(({ website_id, organization_id, name }) => ({ website_id, organization_id, name })));
  if (withScope.length === 0) return { ...kept, scopeChanges: [] };
  const values = withScope.map((d) => sql`(${d.website_id}::uuid, ${d.organization_id}::uuid, ${d.name}::text, ${d.scope}::jsonb)`);
  const result = await sql<{ website_id: string; created: boolean; scope: WebsiteScope | null; previous_scope: WebsiteScope | null; scope_changed: boolean }>`
    with prior as (
      select website_id, scope from websites where website_id in (${sql.join(withScope.map((d) => sql`${d.website_id}::uuid`))})
    )
    insert into websites (website_id, organization_id, name, scope)
    values ${sql.join(values)}
    on conflict (website_id) do update set name = excluded.name, scope = excluded.scope, updated_at = now()
    where (websites.name, websites.scope) is distinct from (excluded.name, excluded.scope)
    returning websites.website_id, (xmax = 0) as created, websites.scope,
      (select p.scope from prior as p where p.website_id = websites.website_id) as previous_scope,
      (select p.scope from prior as p where p.website_id = websites.website_id) is distinct from websites.scope as scope_changed`.execute(db);
  let created = 0;
  const scopeChanges: ScopeChange[] = [];
  for (const row of result.rows) {
    if (row.created) created += 1;
    else if (row.scope_changed) scopeChanges.push({ website_id: row.website_id, previous_scope: row.previous_scope, scope: row.scope });
  }
  return { created: kept.created + created, changed: kept.changed + result.rows.length - created, scopeChanges };
}

/**
 * A key imported by hash alone keeps the prefix it already has (same hash); a key imported in
 * plain text sets it.
 */
export const upsertApiKeys = (db: Kysely<Database>, drafts: readonly ApiKeyRowDraft[]) =>
  upsert(db, {
    table: 'api_keys', key: 'key_id',
    columns: ['key_id', 'website_id', 'key_sha256', 'key_prefix', 'label', 'is_active', 'expires_at'],
    compare: ['key_sha256', 'label', 'is_active', 'expires_at'],
    update: ['key_sha256', 'label', 'is_active', 'expires_at'],
    also: [sql`key_prefix = coalesce(excluded.key_prefix, case when api_keys.key_sha256 = excluded.key_sha256 then api_keys.key_prefix end)`],
    alsoChangedWhen: sql`(excluded.key_prefix is not null and api_keys.key_prefix is distinct from excluded.key_prefix)`,
  }, drafts.map((d) => ({ ...d, key_id: d.key_id ?? null })));
