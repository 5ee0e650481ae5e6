/**
 * A website's scope (extension E7): the part of its organization a website sees. Each list is
 * optional; an offer is in scope when it matches every given list (any value within a list), and
 * only the listed investments exist for the website when `investment_ids` is given. The SQL of the
 * rule is in src/features/access/scope-sql.ts.
 *
 * Stored and compared in one normal form: UUIDs in lower case, every list sorted and without
 * duplicates, absent lists left out, and no scope at all (null) instead of an empty object.
 */
import type { WebsiteScope } from '../../db/database.js';
import { OFFER_DATA_FIELD_BY_NAME } from '../../contract/offer-fields.js';

export type { WebsiteScope } from '../../db/database.js';

/** Most investment or branch ids one scope may list. */
export const MAX_SCOPE_IDS = 1000;

/** The offer types a scope may name: the vocabulary of offer_data.offer_type. */
export const SCOPE_OFFER_TYPES: readonly string[] = OFFER_DATA_FIELD_BY_NAME.get('offer_type')!.known!;

export const SCOPE_LISTS = ['investment_ids', 'branch_ids', 'offer_types'] as const;
export type ScopeList = (typeof SCOPE_LISTS)[number];

export interface WebsiteScopeInput {
  investment_ids?: readonly string[] | undefined;
  branch_ids?: readonly string[] | undefined;
  offer_types?: readonly string[] | undefined;
}

const sortedUnique = (values: readonly string[]): string[] => [...new Set(values)].sort();

/**
 * The normal form of a scope that has been checked (ids are UUIDs, types from the vocabulary, no
 * list empty): null when it restricts nothing.
 */
export function normalizeWebsiteScope(input: WebsiteScopeInput | null | undefined): WebsiteScope | null {
  if (!input) return null;
  const scope: { -readonly [K in ScopeList]?: string[] } = {};
  if (input.investment_ids) scope.investment_ids = sortedUnique(input.investment_ids.map((id) => id.toLowerCase()));
  if (input.branch_ids) scope.branch_ids = sortedUnique(input.branch_ids.map((id) => id.toLowerCase()));
  if (input.offer_types) scope.offer_types = sortedUnique(input.offer_types);
  return Object.keys(scope).length === 0 ? null : scope;
}

/** A scope for people: "investments a, b; offer types X" or "whole organization". */
export function describeWebsiteScope(scope: WebsiteScope | null | undefined): string {
  if (!scope) return 'whole organization';
  const parts: string[] = [];
  if (scope.investment_ids) parts.push(`investments ${scope.investment_ids.join(', ')}`);
  if (scope.branch_ids) parts.push(`branches ${scope.branch_ids.join(', ')}`);
  if (scope.offer_types) parts.push(`offer types ${scope.offer_types.join(', ')}`);
  return parts.join('; ');
}
