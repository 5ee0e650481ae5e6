/**
 * Websites for the command line (the operator's side): the listing, and setting or clearing a
 * website's scope (extension E7). A scope names only investments and branches of the website's own
 * organization, checked here as the import checks its bundle. A change bumps the content version
 * (which also makes running instances forget the keys they remember: at once on PostgreSQL, within
 * CONTENT_POLL_MS otherwise; the key cache lifetime bounds it anyway).
 */
import { sql, type Kysely } from 'kysely';
import type { Database, WebsiteScope } from '../db/database.js';
import { toApiTimestamp } from '../domain/timestamps.js';
import { MAX_SCOPE_IDS, normalizeWebsiteScope, SCOPE_OFFER_TYPES, type WebsiteScopeInput } from '../domain/website-scope.js';
import { bumpContentVersion } from './content-version.js';
import { recordWebsiteChanges } from './change-feed.js';
import { tryImportLock } from './import-session.js';
import { enqueueContentChanged } from './webhook-outbox.js';

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


const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function uuidArgument(value: string, what: string): string {
  if (!UUID.test(value)) throw new WebsiteManagementError(`${what} must be a UUID, got "${value}"`);
  return value.toLowerCase();
}

const SUMMARY = sql`w.website_id::text as website_id, w.organization_id::text as organization_id, w.name, w.scope, w.updated_at,
  (select count(*)::int from api_keys k where k.website_id = w.website_id and k.is_active
     and (k.expires_at is null or k.expires_at > now())) as active_keys,
  (select count(*)::int from api_keys k where k.website_id = w.website_id) as keys`;

const toSummary = (row: WebsiteSummary): WebsiteSummary => ({ ...row, updated_at: toApiTimestamp(row.updated_at) });

/** Websites by organization, then name, then id; of one organization when asked. */
export async function listWebsites(db: Kysely<Database>, options: { organizationId?: string | undefined } = {}): Promise<WebsiteSummary[]> {
  const org = options.organizationId === undefined ? undefined : uuidArgument(options.organizationId, 'organization id');
  const result = await sql<WebsiteSummary>`select ${SUMMARY} from websites w
    ${org === undefined ? sql`` : sql`where w.organization_id = ${org}`}
    order by w.organization_id, w.name, w.website_id`.execute(db);
  return result.rows.map(toSummary);
}

export async function findWebsite(db: Kysely<Database>, websiteId: string): Promise<WebsiteSummary> {
  const id = uuidArgument(websiteId, 'website id');
  const result = await sql<WebsiteSummary>`select ${SUMMARY} from websites w where w.website_id = ${id}`.execute(db);
  if (!result.rows[0]) throw new WebsiteManagementError(`unknown website ${id}`);
  return toSummary(result.rows[0]);
}

/** Checks the lists of a scope given on the command line; returns its normal form (null: none). */
export function checkScopeArguments(input: WebsiteScopeInput): WebsiteScope | null {
  for (const [list, what] of [['investment_ids', 'investment id'], ['branch_ids', 'branch id']] as const) {
    const ids = input[list];
    if (!ids) continue;
    for (const id of ids) uuidArgument(id, what);
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
 * Sets a website's scope (null clears it: the whole organization), in one transaction; a change
 * bumps the content version, as an import that changes what a website sees does.
 */
export async function setWebsiteScope(
  db: Kysely<Database>,
  websiteId: string,
  scope: WebsiteScope | null,
): Promise<{ website: WebsiteSummary; changed: boolean }> {
  const id = uuidArgument(websiteId, 'website id');
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
      await enqueueContentChanged(trx, await recordWebsiteChanges(trx, [org]));
      await bumpContentVersion(trx);
    }
    return { website: await findWebsite(trx, id), changed };
  });
}
