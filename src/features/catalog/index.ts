/**
 * The catalog wing: the organization, its branches, agents and investments: their reads and
 * operations (http.ts) and the import's writes. Other wings use what is below (the offers embed
 * catalog entities with `include`).
 */
export { toLocation } from './model.js';
export { findAgentsByIds, findBranchesByIds, findInvestmentsByIds, findOrganization, investmentExists } from './read.js';
export { InvestmentIdParams } from './schemas.js';
export { upsertAgents, upsertBranches, upsertInvestments, upsertOrganizations } from './write.js';
