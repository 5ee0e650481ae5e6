/**
 * The access wing: who calls and what they may see. API keys (stored as SHA-256 hashes; a short
 * visible prefix), websites, and the website scope (extension E7: a microsite of some investments,
 * branches or offer types). The key check of every /api/v1 route is its face (http.ts), the keys
 * and websites commands its other (cli.ts). Other wings and the plumbing use what is below.
 */
export { ApiKeyCache } from './key-cache.js';
export { KeyUsageRecorder } from './key-usage.js';
export { hashKey, presentedKey, VISIBLE_PREFIX_LENGTH } from './model.js';
export type { Visibility } from './model.js';
export { findApiKeyByHash, findKeyStateByHash, readKeyDirectory, findWebsiteRecord, firstWebsites } from './read.js';
export type { WebsiteName } from './read.js';
export { investmentInScopeSql, investmentScopeCondition, offerInScopeSql, offerScopeCondition, scopeJson } from './scope-sql.js';
export { describeWebsiteScope, MAX_SCOPE_IDS, normalizeWebsiteScope, SCOPE_OFFER_TYPES } from './scope.js';
export type { WebsiteScope } from './scope.js';
export { createKey, setWebsiteScope, touchApiKeyLastUsed, upsertApiKeys, upsertWebsites } from './write.js';
export type { ApiKeyRowDraft, KeySummary, ScopeChange, WebsiteRowDraft, WebsiteSummary } from './write.js';
