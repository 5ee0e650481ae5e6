/** The catalog wing's public surface: what other wings and the shared plumbing may use. */
export { toLocation } from './model.js';
export { findAgentsByIds, findBranchesByIds, findInvestmentsByIds, findOrganization, investmentExists } from './read.js';
export { InvestmentIdParams } from './schemas.js';
export { upsertAgents, upsertBranches, upsertInvestments, upsertOrganizations } from './write.js';
