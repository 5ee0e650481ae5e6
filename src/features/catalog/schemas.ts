/**
 * Request schemas of the catalog operations: the ids in their paths and the investments' query.
 * The same TypeBox objects validate requests and describe them in /openapi.json.
 */
import Type from 'typebox';
import { LangSchema } from '../translations/index.js';

const uuidParam = (description: string) => Type.String({ format: 'uuid', description });

export const BranchIdParams = Type.Object({ branch_id: uuidParam('Branch id (UUID, any letter case).') });
export const AgentIdParams = Type.Object({ agent_id: uuidParam('Agent id (UUID, any letter case).') });
export const InvestmentIdParams = Type.Object({ investment_id: uuidParam('Investment id (UUID, any letter case).') });

export const InvestmentsQuery = Type.Object({
  is_active: Type.Optional(
    Type.Boolean({ description: 'Only active (`true`) or only inactive (`false`) investments. Absent: all of them.' }),
  ),
  lang: Type.Optional(LangSchema),
});

/** GET one investment's query: `lang` (translations, extension E12). */
export const InvestmentQuery = Type.Object({ lang: Type.Optional(LangSchema) });
