/**
 * Agents of one organization, ordered by last name, first name (byte order, as the index), then
 * id. Queries of fixed text, prepared once per connection (src/db/prepared.ts); columns listed.
 */
import { sql } from 'kysely';
import type { AgentRow } from '../db/database.js';
import { prepared } from '../db/prepared.js';
import { toAgent } from '../domain/entities.js';
import type { Agent } from '../domain/resources.js';
import type { ReadDb } from './readonly.js';

const COLUMNS = sql.raw(
  'agent_id, organization_id, webpage_id, branch_id, email, phone_number, first_name, last_name, avatar_url, job_title, description, cover_image_url, profile_image_url, created_at, updated_at',
);
const ORDER = sql.raw('order by last_name collate "C", first_name collate "C", agent_id');

export async function listAgents(db: ReadDb, organizationId: string): Promise<Agent[]> {
  const result = await sql<AgentRow>`${prepared('list_agents')}
    select ${COLUMNS} from agents where organization_id = ${organizationId} ${ORDER}`.execute(db);
  return result.rows.map(toAgent);
}

export async function listBranchAgents(db: ReadDb, organizationId: string, branchId: string): Promise<Agent[]> {
  const result = await sql<AgentRow>`${prepared('list_branch_agents')}
    select ${COLUMNS} from agents where organization_id = ${organizationId} and branch_id = ${branchId} ${ORDER}`.execute(db);
  return result.rows.map(toAgent);
}

export async function findAgent(db: ReadDb, organizationId: string, agentId: string): Promise<Agent | undefined> {
  const result = await sql<AgentRow>`${prepared('find_agent')}
    select ${COLUMNS} from agents where organization_id = ${organizationId} and agent_id = ${agentId}`.execute(db);
  const row = result.rows[0];
  return row ? toAgent(row) : undefined;
}

/** Agents by id, limited to the organization (for `include=agent`). */
export async function findAgentsByIds(db: ReadDb, organizationId: string, ids: readonly string[]): Promise<Map<string, Agent>> {
  if (ids.length === 0) return new Map();
  const result = await sql<AgentRow>`${prepared('find_agents_by_ids')}
    select ${COLUMNS} from agents where organization_id = ${organizationId} and agent_id = any(${ids}::uuid[])`.execute(db);
  return new Map(result.rows.map((row) => [row.agent_id, toAgent(row)]));
}
