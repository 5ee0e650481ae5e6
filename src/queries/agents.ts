/** Agents of one organization, ordered by last name, first name (byte order, as the index), then id. */
import { sql } from 'kysely';
import { toAgent } from '../domain/entities.js';
import type { Agent } from '../schemas/resources.js';
import type { ReadDb } from './readonly.js';

function agentsOf(db: ReadDb, organizationId: string) {
  return db
    .selectFrom('agents')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy(sql`last_name collate "C"`)
    .orderBy(sql`first_name collate "C"`)
    .orderBy('agent_id');
}

export async function listAgents(db: ReadDb, organizationId: string): Promise<Agent[]> {
  return (await agentsOf(db, organizationId).execute()).map(toAgent);
}

export async function listBranchAgents(db: ReadDb, organizationId: string, branchId: string): Promise<Agent[]> {
  return (await agentsOf(db, organizationId).where('branch_id', '=', branchId).execute()).map(toAgent);
}

export async function findAgent(db: ReadDb, organizationId: string, agentId: string): Promise<Agent | undefined> {
  const row = await db
    .selectFrom('agents')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('agent_id', '=', agentId)
    .executeTakeFirst();
  return row ? toAgent(row) : undefined;
}

/** Agents by id, limited to the organization (for `include=agent`). */
export async function findAgentsByIds(db: ReadDb, organizationId: string, ids: readonly string[]): Promise<Map<string, Agent>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('agents')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('agent_id', 'in', ids)
    .execute();
  return new Map(rows.map((row) => [row.agent_id, toAgent(row)]));
}
