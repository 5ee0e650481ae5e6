/**
 * The import's writes (src/import), inside its transaction: batched upserts. One INSERT ... ON
 * CONFLICT DO UPDATE per batch; the update only happens WHERE the stored columns differ from the
 * incoming ones, so identical content touches nothing (not even updated_at), and RETURNING
 * (xmax = 0) tells rows created from rows changed.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database, WebsiteScope } from '../db/database.js';
import type { SearchVector } from '../domain/search-text.js';

/** A row value: a plain parameter, or an SQL expression such as now(). */
export type RowValue = string | number | boolean | null | RawBuilder<unknown>;
export type Row = Record<string, RowValue>;

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

export interface OfferRowDraft {
  offer_id: string;
  organization_id: string;
  external_id: string;
  agent_id: string | null;
  branch_id: string | null;
  investment_id: string | null;
  is_active: boolean;
  /** As the record gives it (stored form), or undefined: keep the stored one / now() when new. */
  created_at: string | undefined;
  /** normalized offer_data rendered once; stored as the jsonb offer_data and as offer_data_json. */
  offer_data_json: string;
  /** The words the offer is found by (src/domain/search-text.ts): binary for pg, text for PGlite. */
  search_vector: SearchVector;
}

export interface WriteCounts {
  created: number;
  changed: number;
}

interface UpsertSpec {
  readonly table: keyof Database;
  readonly key: string;
  /** Columns inserted, in the order of each row's values. */
  readonly columns: readonly string[];
  /** Columns compared to decide "changed" (stored vs incoming). */
  readonly compare: readonly string[];
  /** Columns replaced when changed. */
  readonly update: readonly string[];
  /** Further assignments when changed (updated_at = now(), version + 1, ...). */
  readonly also?: readonly RawBuilder<unknown>[];
  /** A further condition OR-ed with the comparison. */
  readonly alsoChangedWhen?: RawBuilder<unknown>;
}

async function upsert(db: Kysely<Database>, spec: UpsertSpec, rows: readonly Row[]): Promise<WriteCounts> {
  if (rows.length === 0) return { created: 0, changed: 0 };
  const t = spec.table;
  const stored = (c: string) => sql.ref(`${t}.${c}`);
  const incoming = (c: string) => sql.ref(`excluded.${c}`);
  const values = rows.map((row) => sql`(${sql.join(spec.columns.map((c) => value(row[c])))})`);
  const assignments = [...spec.update.map((c) => sql`${sql.ref(c)} = ${incoming(c)}`), ...(spec.also ?? [])];
  let changed = sql`(${sql.join(spec.compare.map(stored))}) is distinct from (${sql.join(spec.compare.map(incoming))})`;
  if (spec.alsoChangedWhen) changed = sql`(${changed} or ${spec.alsoChangedWhen})`;
  const result = await sql<{ created: boolean }>`
    insert into ${sql.table(t)} (${sql.join(spec.columns.map((c) => sql.ref(c)))})
    values ${sql.join(values)}
    on conflict (${sql.ref(spec.key)}) do update set ${sql.join(assignments)}
    where ${changed}
    returning (xmax = 0) as created`.execute(db);
  let created = 0;
  for (const row of result.rows) if (row.created) created += 1;
  return { created, changed: result.rows.length - created };
}

function value(v: RowValue | undefined): RowValue {
  return v === undefined ? null : v;
}

const touched = [sql`updated_at = now()`];

const ORGANIZATION_COLUMNS = [
  'name', 'legal_name', 'nip', 'logo_url', 'address', 'website', 'phone_number', 'description',
  'cover_image_url', 'location', 'social_media_links', 'contact_email',
] as const;

export const upsertOrganizations = (db: Kysely<Database>, rows: readonly Row[]) =>
  upsert(db, {
    table: 'organizations', key: 'organization_id', columns: ['organization_id', ...ORGANIZATION_COLUMNS],
    compare: ORGANIZATION_COLUMNS, update: ORGANIZATION_COLUMNS, also: touched,
  }, rows);

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

const BRANCH_COLUMNS = [
  'webpage_id', 'name', 'description', 'address', 'cover_image_url', 'logo_url', 'email', 'phone_number', 'open_time', 'location',
] as const;

export const upsertBranches = (db: Kysely<Database>, rows: readonly Row[]) =>
  upsert(db, {
    table: 'branches', key: 'branch_id', columns: ['branch_id', 'organization_id', ...BRANCH_COLUMNS],
    compare: BRANCH_COLUMNS, update: BRANCH_COLUMNS, also: touched,
  }, rows);

const AGENT_COLUMNS = [
  'webpage_id', 'branch_id', 'email', 'phone_number', 'first_name', 'last_name', 'avatar_url', 'job_title',
  'description', 'cover_image_url', 'profile_image_url',
] as const;

export const upsertAgents = (db: Kysely<Database>, rows: readonly Row[]) =>
  upsert(db, {
    table: 'agents', key: 'agent_id', columns: ['agent_id', 'organization_id', ...AGENT_COLUMNS],
    compare: AGENT_COLUMNS, update: AGENT_COLUMNS, also: touched,
  }, rows);

const INVESTMENT_COLUMNS = ['webpage_id', 'name', 'description', 'is_active'] as const;

export const upsertInvestments = (db: Kysely<Database>, rows: readonly Row[]) =>
  upsert(db, {
    table: 'investments', key: 'investment_id', columns: ['investment_id', 'organization_id', ...INVESTMENT_COLUMNS],
    compare: INVESTMENT_COLUMNS, update: INVESTMENT_COLUMNS, also: touched,
  }, rows);

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

const OFFER_COMPARED = ['external_id', 'agent_id', 'branch_id', 'investment_id', 'is_active', 'offer_data_json'] as const;

/**
 * Offers start at version 1; a change adds 1 and sets updated_at. created_at is replaced only by a
 * record that gives one, so rows with and without it go in separate statements. The rendered
 * offer_data travels once (as text) and becomes the jsonb column in the statement.
 */
export async function upsertOffers(db: Kysely<Database>, drafts: readonly OfferRowDraft[]): Promise<WriteCounts> {
  const a = await upsertOfferRows(db, drafts.filter((d) => d.created_at === undefined), false);
  const b = await upsertOfferRows(db, drafts.filter((d) => d.created_at !== undefined), true);
  return { created: a.created + b.created, changed: a.changed + b.changed };
}

async function upsertOfferRows(db: Kysely<Database>, drafts: readonly OfferRowDraft[], givenCreatedAt: boolean): Promise<WriteCounts> {
  if (drafts.length === 0) return { created: 0, changed: 0 };
  const values = drafts.map(
    (d) =>
      // Typed parameters: both drivers then send each value as its column's type.
      sql`(${d.offer_id}::uuid, ${d.organization_id}::uuid, ${d.external_id}::text, ${d.agent_id}::uuid, ${d.branch_id}::uuid,
        ${d.investment_id}::uuid, ${d.is_active}::boolean, ${d.offer_data_json}::text, ${d.created_at ?? null}::timestamptz,
        ${d.search_vector}::tsvector)`,
  );
  const compared = givenCreatedAt ? [...OFFER_COMPARED, 'created_at'] : [...OFFER_COMPARED];
  const result = await sql<{ created: boolean }>`
    insert into offers (offer_id, organization_id, external_id, agent_id, branch_id, investment_id, is_active,
                        offer_data, offer_data_json, created_at, updated_at, search_vector)
    select v.offer_id, v.organization_id, v.external_id, v.agent_id, v.branch_id, v.investment_id, v.is_active,
           v.data::jsonb, v.data, coalesce(v.created_at, now()), now(), v.search_vector
    from (values ${sql.join(values)})
      as v (offer_id, organization_id, external_id, agent_id, branch_id, investment_id, is_active, data, created_at,
            search_vector)
    on conflict (offer_id) do update set
      external_id = excluded.external_id, agent_id = excluded.agent_id, branch_id = excluded.branch_id,
      investment_id = excluded.investment_id, is_active = excluded.is_active, offer_data = excluded.offer_data,
      offer_data_json = excluded.offer_data_json, search_vector = excluded.search_vector,
      ${givenCreatedAt ? sql`created_at = excluded.created_at,` : sql``}
      version = offers.version + 1, updated_at = now()
    where offers.organization_id = excluded.organization_id
      and (${sql.join(compared.map((c) => sql.ref(`offers.${c}`)))}) is distinct from (${sql.join(compared.map((c) => sql.ref(`excluded.${c}`)))})
    returning (xmax = 0) as created`.execute(db);
  let created = 0;
  for (const row of result.rows) if (row.created) created += 1;
  return { created, changed: result.rows.length - created };
}

/** Adds words to the search vocabulary (search_lexemes); a known word is kept as it is. */
export async function addSearchLexemes(db: Kysely<Database>, lexemes: readonly string[]): Promise<void> {
  await sql`insert into search_lexemes (lexeme) select unnest(${lexemes}::text[]) on conflict do nothing`.execute(db);
}
