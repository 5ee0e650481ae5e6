/** The access wing's public surface: what other wings and the shared plumbing may use. */
export { ApiKeyCache } from './key-cache.js';
export { KeyUsageRecorder } from './key-usage.js';
export { hashKey, presentedKey, VISIBLE_PREFIX_LENGTH } from './model.js';
export type { Visibility } from './model.js';
export { findApiKeyByHash, findKeyStateByHash, findWebsiteRecord, firstWebsites } from './read.js';
export type { WebsiteName } from './read.js';
export { investmentInScopeSql, investmentScopeCondition, offerInScopeSql, offerScopeCondition, scopeJson } from './scope-sql.js';
export { MAX_SCOPE_IDS, normalizeWebsiteScope, SCOPE_OFFER_TYPES } from './scope.js';
export type { WebsiteScope } from './scope.js';
export { createKey, setWebsiteScope, touchApiKeyLastUsed, upsertApiKeys, upsertWebsites } from './write.js';
export type { ApiKeyRowDraft, KeySummary, WebsiteSummary } from './write.js';
