/** GET /api/v1/branches, /api/v1/branches/{branch_id}, /api/v1/branches/{branch_id}/agents */
import Type from 'typebox';
import { listBranchAgents } from '../../queries/agents.js';
import { branchExists, findBranch, listBranches } from '../../queries/branches.js';
import { defineOperation, sendDetail } from '../operation.js';
import { errorResponses } from '../schemas/errors.js';
import { BranchIdParams } from '../schemas/requests.js';

const json = (description: string, schema: unknown) => ({ description, content: { 'application/json': { schema } } });

export const listBranchesOperation = defineOperation({
  operationId: 'list_branches',
  summary: 'Branches',
  description: 'Every branch of the organization, ordered by name, then id.',
  tags: ['branches'],
  responses: { 200: json('The branches', Type.Array(Type.Ref('Branch'))), ...errorResponses() },
  parse: () => undefined,
  handle: async (_input, { db, caller }) => listBranches(db, caller!.organizationId),
});

export const readBranch = defineOperation({
  operationId: 'get_branch',
  summary: 'One branch',
  tags: ['branches'],
  params: BranchIdParams,
  responses: { 200: json('The branch', Type.Ref('Branch')), ...errorResponses('Branch not found') },
  parse: (check) => check.path<{ branch_id: string }>(BranchIdParams),
  async handle(input, { db, caller, reply }) {
    const branch = await findBranch(db, caller!.organizationId, input!.branch_id);
    return branch ?? sendDetail(reply, 404, 'Branch not found');
  },
});

export const listBranchAgentsOperation = defineOperation({
  operationId: 'list_branch_agents',
  summary: 'Agents of one branch',
  description: 'The agents of a branch, ordered by last name, first name, then id; `[]` when it has none.',
  tags: ['branches', 'agents'],
  params: BranchIdParams,
  responses: { 200: json('The agents', Type.Array(Type.Ref('Agent'))), ...errorResponses('Branch not found') },
  parse: (check) => check.path<{ branch_id: string }>(BranchIdParams),
  async handle(input, { db, caller, reply }) {
    const organizationId = caller!.organizationId;
    if (!(await branchExists(db, organizationId, input!.branch_id))) return sendDetail(reply, 404, 'Branch not found');
    return listBranchAgents(db, organizationId, input!.branch_id);
  },
});
