/**
 * The catalog's reads: the organization record, branches, agents and investments of one
 * organization (for a scoped website, only the investments in its scope). Queries of fixed text,
 * prepared once per connection (src/db/prepared.ts); columns listed, never `*`. Lists are ordered
 * as their indexes are: by name (agents: last name, first name), byte order, then id.
 */
import { sql, type RawBuilder } from 'kysely';
import type { AgentRow, BranchRow, InvestmentRow, OrganizationRow } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';
import type { ReadDb } from '../../db/readonly.js';
import type { Agent, Branch, Investment, Organization } from '../../contract/resources.js';
import { investmentInScopeSql, scopeJson } from '../access/index.js';
import type { Visibility } from '../access/index.js';
import { toAgent, toBranch, toInvestment, toOrganization } from './model.js';
import { translateInvestment, type InvestmentTranslation } from '../translations/index.js';

// Organization


export async function findOrganization(db: ReadDb, organizationId: string): Promise<Organization | undefined> {
  // Fixed text, prepared once per connection (src/db/prepared.ts); columns listed, never `*`.
  const result = await sql<OrganizationRow>`${prepared('find_organization')}
    select organization_id, name, legal_name, nip, logo_url, address, website, phone_number, description,
      cover_image_url, location, social_media_links, contact_email, created_at, updated_at
    from organizations where organization_id = ${organizationId}`.execute(db);
  const row = result.rows[0];
  return row ? toOrganization(row) : undefined;
}

// Branches


const BRANCH_COLUMNS = sql.raw(
  'branch_id, organization_id, webpage_id, name, description, address, cover_image_url, logo_url, email, phone_number, open_time, location, created_at, updated_at',
);

export async function listBranches(db: ReadDb, organizationId: string): Promise<Branch[]> {
  const result = await sql<BranchRow>`${prepared('list_branches')}
    select ${BRANCH_COLUMNS} from branches where organization_id = ${organizationId}
    order by name collate "C", branch_id`.execute(db);
  return result.rows.map(toBranch);
}

export async function findBranch(db: ReadDb, organizationId: string, branchId: string): Promise<Branch | undefined> {
  const result = await sql<BranchRow>`${prepared('find_branch')}
    select ${BRANCH_COLUMNS} from branches where organization_id = ${organizationId} and branch_id = ${branchId}`.execute(db);
  const row = result.rows[0];
  return row ? toBranch(row) : undefined;
}

export async function branchExists(db: ReadDb, organizationId: string, branchId: string): Promise<boolean> {
  const result = await sql`${prepared('branch_exists')}
    select 1 from branches where organization_id = ${organizationId} and branch_id = ${branchId}`.execute(db);
  return result.rows.length > 0;
}

/** Branches by id, limited to the organization (for `include=branch`). */
export async function findBranchesByIds(db: ReadDb, organizationId: string, ids: readonly string[]): Promise<Map<string, Branch>> {
  if (ids.length === 0) return new Map();
  const result = await sql<BranchRow>`${prepared('find_branches_by_ids')}
    select ${BRANCH_COLUMNS} from branches where organization_id = ${organizationId} and branch_id = any(${ids}::uuid[])`.execute(db);
  return new Map(result.rows.map((row) => [row.branch_id, toBranch(row)]));
}

// Agents


const AGENT_COLUMNS = sql.raw(
  'agent_id, organization_id, webpage_id, branch_id, email, phone_number, first_name, last_name, avatar_url, job_title, description, cover_image_url, profile_image_url, created_at, updated_at',
);
const AGENT_ORDER = sql.raw('order by last_name collate "C", first_name collate "C", agent_id');

export async function listAgents(db: ReadDb, organizationId: string): Promise<Agent[]> {
  const result = await sql<AgentRow>`${prepared('list_agents')}
    select ${AGENT_COLUMNS} from agents where organization_id = ${organizationId} ${AGENT_ORDER}`.execute(db);
  return result.rows.map(toAgent);
}

export async function listBranchAgents(db: ReadDb, organizationId: string, branchId: string): Promise<Agent[]> {
  const result = await sql<AgentRow>`${prepared('list_branch_agents')}
    select ${AGENT_COLUMNS} from agents where organization_id = ${organizationId} and branch_id = ${branchId} ${AGENT_ORDER}`.execute(db);
  return result.rows.map(toAgent);
}

export async function findAgent(db: ReadDb, organizationId: string, agentId: string): Promise<Agent | undefined> {
  const result = await sql<AgentRow>`${prepared('find_agent')}
    select ${AGENT_COLUMNS} from agents where organization_id = ${organizationId} and agent_id = ${agentId}`.execute(db);
  const row = result.rows[0];
  return row ? toAgent(row) : undefined;
}

/** Agents by id, limited to the organization (for `include=agent`). */
export async function findAgentsByIds(db: ReadDb, organizationId: string, ids: readonly string[]): Promise<Map<string, Agent>> {
  if (ids.length === 0) return new Map();
  const result = await sql<AgentRow>`${prepared('find_agents_by_ids')}
    select ${AGENT_COLUMNS} from agents where organization_id = ${organizationId} and agent_id = any(${ids}::uuid[])`.execute(db);
  return new Map(result.rows.map((row) => [row.agent_id, toAgent(row)]));
}

// Investments. A website whose scope lists investments (extension E7) sees only those: its
// queries add the scope rule (ecs_investment_in_scope) under their own statement names, so that the
// unscoped statements keep their text.

const INVESTMENT_COLUMNS = sql.raw('investment_id, organization_id, webpage_id, name, description, is_active, created_at, updated_at');

/** The scope condition of a scoped caller (with its statement name suffix), or none. */
function scoped(visibility: Visibility): { name: string; condition: RawBuilder<unknown> } {
  return visibility.scope?.investment_ids
    ? { name: '_scoped', condition: sql`and ${investmentInScopeSql(scopeJson(visibility.scope), 'investment_id')}` }
    : { name: '', condition: sql`` };
}

/**
 * With `lang` (extension E12): the investment's translation into it, read with the row, and the
 * statement's name suffix (the texts without `lang` stay as they are).
 */
function translationOf(lang: string | undefined): { name: string; column: RawBuilder<unknown> } {
  return lang === undefined
    ? { name: '', column: sql`` }
    : { name: '_lang', column: sql`(translations -> ${lang}::text)::text as translation, ` };
}

type TranslatableRow = InvestmentRow & { translation?: string | null };

/** An investment as served in `lang` (the original where it has no translation), and whether a field was translated. */
export interface InLanguage<T> {
  readonly value: T;
  readonly translated: boolean;
}

function toInvestmentIn(row: TranslatableRow): InLanguage<Investment> {
  const translation = row.translation ? (JSON.parse(row.translation) as InvestmentTranslation) : undefined;
  return translateInvestment(toInvestment(row), translation);
}

export async function listInvestments(db: ReadDb, visibility: Visibility, isActive?: boolean): Promise<Investment[]> {
  return (await readInvestmentList(db, visibility, isActive, undefined)).map(toInvestment);
}

/** The investments in `lang` (E12), and whether any field was translated. */
export async function listInvestmentsIn(db: ReadDb, visibility: Visibility, isActive: boolean | undefined, lang: string): Promise<InLanguage<Investment[]>> {
  const served = (await readInvestmentList(db, visibility, isActive, lang)).map(toInvestmentIn);
  return { value: served.map((s) => s.value), translated: served.some((s) => s.translated) };
}

async function readInvestmentList(db: ReadDb, visibility: Visibility, isActive: boolean | undefined, lang: string | undefined): Promise<TranslatableRow[]> {
  const scope = scoped(visibility);
  const translation = translationOf(lang);
  const result = await sql<TranslatableRow>`${prepared(`list_investments${scope.name}${translation.name}`)}
    select ${translation.column}${INVESTMENT_COLUMNS} from investments
    where organization_id = ${visibility.organizationId} and (${isActive ?? null}::boolean is null or is_active = ${isActive ?? null}::boolean)
    ${scope.condition}
    order by name collate "C", investment_id`.execute(db);
  return result.rows;
}

export async function findInvestment(db: ReadDb, visibility: Visibility, investmentId: string): Promise<Investment | undefined> {
  const row = await readInvestment(db, visibility, investmentId, undefined);
  return row ? toInvestment(row) : undefined;
}

/** One investment in `lang` (E12), and whether a field was translated. */
export async function findInvestmentIn(db: ReadDb, visibility: Visibility, investmentId: string, lang: string): Promise<InLanguage<Investment> | undefined> {
  const row = await readInvestment(db, visibility, investmentId, lang);
  return row ? toInvestmentIn(row) : undefined;
}

async function readInvestment(db: ReadDb, visibility: Visibility, investmentId: string, lang: string | undefined): Promise<TranslatableRow | undefined> {
  const scope = scoped(visibility);
  const translation = translationOf(lang);
  const result = await sql<TranslatableRow>`${prepared(`find_investment${scope.name}${translation.name}`)}
    select ${translation.column}${INVESTMENT_COLUMNS} from investments where organization_id = ${visibility.organizationId} and investment_id = ${investmentId}
    ${scope.condition}`.execute(db);
  return result.rows[0];
}

export async function investmentExists(db: ReadDb, visibility: Visibility, investmentId: string): Promise<boolean> {
  const scope = scoped(visibility);
  const result = await sql`${prepared(`investment_exists${scope.name}`)}
    select 1 from investments where organization_id = ${visibility.organizationId} and investment_id = ${investmentId}
    ${scope.condition}`.execute(db);
  return result.rows.length > 0;
}

/** Investments by id that the caller sees (for `include=investment`), with `lang` (E12) in that language. */
export async function findInvestmentsByIds(
  db: ReadDb,
  visibility: Visibility,
  ids: readonly string[],
  lang?: string,
): Promise<Map<string, Investment>> {
  if (ids.length === 0) return new Map();
  const scope = scoped(visibility);
  const translation = translationOf(lang);
  const result = await sql<TranslatableRow>`${prepared(`find_investments_by_ids${scope.name}${translation.name}`)}
    select ${translation.column}${INVESTMENT_COLUMNS} from investments where organization_id = ${visibility.organizationId} and investment_id = any(${ids}::uuid[])
    ${scope.condition}`.execute(db);
  return new Map(result.rows.map((row) => [row.investment_id, lang === undefined ? toInvestment(row) : toInvestmentIn(row).value]));
}
