/** GET /api/v1/investments, /api/v1/investments/{investment_id} */
import Type from 'typebox';
import { findInvestment, listInvestments } from '../../queries/investments.js';
import { defineOperation, sendDetail } from '../operation.js';
import { errorResponses } from '../schemas/errors.js';
import { InvestmentIdParams, InvestmentsQuery } from '../schemas/requests.js';

const json = (description: string, schema: unknown) => ({ description, content: { 'application/json': { schema } } });

export const listInvestmentsOperation = defineOperation({
  operationId: 'list_investments',
  summary: 'Investments',
  description: 'The investments of the organization (active and inactive unless `is_active` narrows it), ordered by name, then id.',
  tags: ['investments'],
  query: InvestmentsQuery,
  responses: { 200: json('The investments', Type.Array(Type.Ref('Investment'))), ...errorResponses() },
  parse: (check) => check.query<{ is_active?: boolean }>(InvestmentsQuery),
  handle: async (input, { db, caller }) => listInvestments(db, caller!, input?.is_active),
});

export const readInvestment = defineOperation({
  operationId: 'get_investment',
  summary: 'One investment',
  tags: ['investments'],
  params: InvestmentIdParams,
  responses: { 200: json('The investment', Type.Ref('Investment')), ...errorResponses('Investment not found') },
  parse: (check) => check.path<{ investment_id: string }>(InvestmentIdParams),
  async handle(input, { db, caller, reply }) {
    const investment = await findInvestment(db, caller!, input!.investment_id);
    return investment ?? sendDetail(reply, 404, 'Investment not found');
  },
});
