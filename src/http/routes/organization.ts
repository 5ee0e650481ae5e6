/** GET /api/v1/organization */
import Type from 'typebox';
import { findOrganization } from '../../queries/organization.js';
import { defineOperation, sendDetail } from '../operation.js';
import { errorResponses } from '../schemas/errors.js';

export const readOrganization = defineOperation({
  operationId: 'get_organization',
  summary: 'The organization of the website',
  description: 'The organization record of the website the API key belongs to.',
  tags: ['organization'],
  responses: { 200: { description: 'The organization', content: { 'application/json': { schema: Type.Ref('Organization') } } }, ...errorResponses('Organization not found') },
  parse: () => undefined,
  async handle(_input, { db, caller, reply }) {
    const organization = await findOrganization(db, caller!.organizationId);
    return organization ?? sendDetail(reply, 404, 'Organization not found');
  },
});
