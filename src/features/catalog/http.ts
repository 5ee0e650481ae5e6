/**
 * The catalog's operations: GET /api/v1/organization, /branches, /branches/{branch_id},
 * /branches/{branch_id}/agents, /agents, /agents/{agent_id}, /investments and
 * /investments/{investment_id}. Each reads through read.ts and answers the resource, or its 404.
 */
import Type from 'typebox';
import { keyedOperation, sendDetail, type PartReader } from '../../http/operation.js';
import { errorResponses } from '../../http/schemas/error-responses.js';
import {
  branchExists,
  findAgent,
  findBranch,
  findInvestment,
  findInvestmentIn,
  findOrganization,
  listAgents,
  listBranchAgents,
  listBranches,
  listInvestments,
  listInvestmentsIn,
} from './read.js';
import { AgentIdParams, BranchIdParams, InvestmentIdParams, InvestmentQuery, InvestmentsQuery } from './schemas.js';
import type { InputChecker } from '../../http/validation/input-checker.js';
import { checkLang, contentLanguage, INVALID_LANG } from '../translations/index.js';

/** The investments' query, `lang` read in its canonical form (a 422 when it is not a tag). */
const investmentsQuery: PartReader<{ is_active?: boolean; lang?: string }> = {
  schema: InvestmentsQuery,
  read: (check: InputChecker) => {
    const query = check.query<{ is_active?: boolean; lang?: string }>(InvestmentsQuery);
    const lang = checkLang(check, query?.lang, ['query', 'lang']);
    return query === undefined || lang === INVALID_LANG ? undefined : { ...query, lang };
  },
};
const investmentQuery: PartReader<{ lang?: string }> = {
  schema: InvestmentQuery,
  read: (check: InputChecker) => {
    const lang = checkLang(check, check.query<{ lang?: string }>(InvestmentQuery)?.lang, ['query', 'lang']);
    return lang === INVALID_LANG ? undefined : { lang };
  },
};

const json = (description: string, schema: unknown) => ({ description, content: { 'application/json': { schema } } });

export const readOrganization = keyedOperation({
  operationId: 'get_organization',
  summary: 'The organization of the website',
  description: 'The organization record of the website the API key belongs to.',
  tags: ['organization'],
  responses: { 200: json('The organization', Type.Ref('Organization')), ...errorResponses('Organization not found') },
  async handle(_input, { db, caller, reply }) {
    const organization = await findOrganization(db, caller.organizationId);
    return organization ?? sendDetail(reply, 404, 'Organization not found');
  },
});

export const listBranchesOperation = keyedOperation({
  operationId: 'list_branches',
  summary: 'Branches',
  description: 'Every branch of the organization, ordered by name, then id.',
  tags: ['branches'],
  responses: { 200: json('The branches', Type.Array(Type.Ref('Branch'))), ...errorResponses() },
  handle: async (_input, { db, caller }) => listBranches(db, caller.organizationId),
});

export const readBranch = keyedOperation({
  operationId: 'get_branch',
  summary: 'One branch',
  tags: ['branches'],
  params: BranchIdParams,
  responses: { 200: json('The branch', Type.Ref('Branch')), ...errorResponses('Branch not found') },
  async handle({ params }, { db, caller, reply }) {
    const branch = await findBranch(db, caller.organizationId, params.branch_id);
    return branch ?? sendDetail(reply, 404, 'Branch not found');
  },
});

export const listBranchAgentsOperation = keyedOperation({
  operationId: 'list_branch_agents',
  summary: 'Agents of one branch',
  description: 'The agents of a branch, ordered by last name, first name, then id; `[]` when it has none.',
  tags: ['branches', 'agents'],
  params: BranchIdParams,
  responses: { 200: json('The agents', Type.Array(Type.Ref('Agent'))), ...errorResponses('Branch not found') },
  async handle({ params }, { db, caller, reply }) {
    const organizationId = caller.organizationId;
    if (!(await branchExists(db, organizationId, params.branch_id))) return sendDetail(reply, 404, 'Branch not found');
    return listBranchAgents(db, organizationId, params.branch_id);
  },
});

export const listAgentsOperation = keyedOperation({
  operationId: 'list_agents',
  summary: 'Agents',
  description: 'Every agent of the organization, ordered by last name, first name, then id.',
  tags: ['agents'],
  responses: { 200: json('The agents', Type.Array(Type.Ref('Agent'))), ...errorResponses() },
  handle: async (_input, { db, caller }) => listAgents(db, caller.organizationId),
});

export const readAgent = keyedOperation({
  operationId: 'get_agent',
  summary: 'One agent',
  tags: ['agents'],
  params: AgentIdParams,
  responses: { 200: json('The agent', Type.Ref('Agent')), ...errorResponses('Agent not found') },
  async handle({ params }, { db, caller, reply }) {
    const agent = await findAgent(db, caller.organizationId, params.agent_id);
    return agent ?? sendDetail(reply, 404, 'Agent not found');
  },
});

export const listInvestmentsOperation = keyedOperation({
  operationId: 'list_investments',
  summary: 'Investments',
  description:
    'The investments of the organization (active and inactive unless `is_active` narrows it), ordered by name, then id. ' +
    '`lang` serves names and descriptions in that language (extension E12, with `Content-Language`); the order stays the original names\'.',
  tags: ['investments'],
  query: investmentsQuery,
  responses: { 200: json('The investments', Type.Array(Type.Ref('Investment'))), ...errorResponses() },
  async handle({ query }, { db, caller, reply }) {
    if (query.lang === undefined) return listInvestments(db, caller, query.is_active);
    const served = await listInvestmentsIn(db, caller, query.is_active, query.lang);
    reply.header('content-language', contentLanguage(query.lang, served.translated));
    return served.value;
  },
});

export const readInvestment = keyedOperation({
  operationId: 'get_investment',
  summary: 'One investment',
  tags: ['investments'],
  description: '`lang` serves its name and description in that language (extension E12, with `Content-Language`).',
  params: InvestmentIdParams,
  query: investmentQuery,
  responses: { 200: json('The investment', Type.Ref('Investment')), ...errorResponses('Investment not found') },
  async handle({ params, query: { lang } }, { db, caller, reply }) {
    if (lang === undefined) {
      const investment = await findInvestment(db, caller, params.investment_id);
      return investment ?? sendDetail(reply, 404, 'Investment not found');
    }
    const served = await findInvestmentIn(db, caller, params.investment_id, lang);
    if (!served) return sendDetail(reply, 404, 'Investment not found');
    reply.header('content-language', contentLanguage(lang, served.translated));
    return served.value;
  },
});
