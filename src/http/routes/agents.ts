/** GET /api/v1/agents, /api/v1/agents/{agent_id} */
import Type from 'typebox';
import { findAgent, listAgents } from '../../queries/agents.js';
import { defineOperation, sendDetail } from '../operation.js';
import { errorResponses } from '../schemas/errors.js';
import { AgentIdParams } from '../schemas/requests.js';

const json = (description: string, schema: unknown) => ({ description, content: { 'application/json': { schema } } });

export const listAgentsOperation = defineOperation({
  operationId: 'list_agents',
  summary: 'Agents',
  description: 'Every agent of the organization, ordered by last name, first name, then id.',
  tags: ['agents'],
  responses: { 200: json('The agents', Type.Array(Type.Ref('Agent'))), ...errorResponses() },
  parse: () => undefined,
  handle: async (_input, { db, caller }) => listAgents(db, caller!.organizationId),
});

export const readAgent = defineOperation({
  operationId: 'get_agent',
  summary: 'One agent',
  tags: ['agents'],
  params: AgentIdParams,
  responses: { 200: json('The agent', Type.Ref('Agent')), ...errorResponses('Agent not found') },
  parse: (check) => check.path<{ agent_id: string }>(AgentIdParams),
  async handle(input, { db, caller, reply }) {
    const agent = await findAgent(db, caller!.organizationId, input!.agent_id);
    return agent ?? sendDetail(reply, 404, 'Agent not found');
  },
});
