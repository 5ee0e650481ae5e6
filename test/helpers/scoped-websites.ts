/**
 * Scoped websites (extension E7) on top of the fixture: four websites of organization A, each with
 * a key and a scope, and what each one should see, worked out here from the fixture's seeds (a
 * reference of the rule, independent of the SQL).
 */
import type { Kysely } from 'kysely';
import type { Database, WebsiteScope } from '../../src/db/database.js';
import { hashKey } from '../../src/features/access/model.js';
import { BRANCH, INVESTMENT, OFFER_SEEDS, ORG_A, uid } from './fixtures.js';

export interface ScopedWebsite {
  readonly name: string;
  readonly websiteId: string;
  readonly keyId: string;
  readonly key: string;
  readonly scope: WebsiteScope;
}

const website = (n: number, name: string, scope: WebsiteScope): ScopedWebsite => ({
  name,
  websiteId: uid('0e5c', n),
  keyId: uid('4e43', n),
  key: `ecs_scoped${n}`.padEnd(47, `s${n}`),
  scope,
});

export const SCOPED = {
  /** One investment: its two offers, and no other investment. */
  zielone: website(1, 'zielone.example.com', { investment_ids: [INVESTMENT.zielone] }),
  /** One branch and two types: the Warsaw offer only; every investment. */
  warszawaSales: website(2, 'warszawa.example.com', { branch_ids: [BRANCH.warszawa], offer_types: ['APARTMENT_SALES', 'HOUSE_SALES'] }),
  /** Two types: the offers without branch or investment of those types. */
  rentalsAndHouses: website(3, 'najem.example.com', { offer_types: ['APARTMENT_RENTALS', 'HOUSE_SALES'] }),
  /** Two investments (one inactive, one without offers) and one type. */
  wislaSales: website(4, 'wisla.example.com', { investment_ids: [INVESTMENT.empty, INVESTMENT.wisla].sort(), offer_types: ['APARTMENT_SALES'] }),
} as const;

export const SCOPED_WEBSITES: readonly ScopedWebsite[] = Object.values(SCOPED);

/** Adds the scoped websites and their keys to a database that holds the fixture. */
export async function insertScopedWebsites(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto('websites')
    .values(SCOPED_WEBSITES.map((w) => ({ website_id: w.websiteId, organization_id: ORG_A, name: w.name, scope: JSON.stringify(w.scope) })))
    .execute();
  await db
    .insertInto('api_keys')
    .values(SCOPED_WEBSITES.map((w) => ({ key_id: w.keyId, website_id: w.websiteId, key_sha256: hashKey(w.key), key_prefix: w.key.slice(0, 12), is_active: true })))
    .execute();
}

/** The offer_type of a seed as stored (absent: null). */
const offerType = (data: Record<string, unknown>): string | null => (typeof data.offer_type === 'string' ? data.offer_type : null);

/** The rule, in plain code: every given list must hold the offer's value. */
export function offerInScope(scope: WebsiteScope | null, offer: { investment_id: string | null; branch_id: string | null; offer_type: string | null }): boolean {
  if (!scope) return true;
  const holds = (list: readonly string[] | undefined, value: string | null) => list === undefined || (value !== null && list.includes(value));
  return holds(scope.investment_ids, offer.investment_id) && holds(scope.branch_ids, offer.branch_id) && holds(scope.offer_types, offer.offer_type);
}

/** Active offers of organization A that a scope lets its website see. */
export function visibleOffers(scope: WebsiteScope | null): string[] {
  return OFFER_SEEDS.filter((s) => s.organization_id === ORG_A && s.is_active !== false)
    .filter((s) => offerInScope(scope, { investment_id: s.investment_id ?? null, branch_id: s.branch_id ?? null, offer_type: offerType(s.data) }))
    .map((s) => s.offer_id);
}

/** Investments of organization A that a scope lets its website see. */
export function visibleInvestments(scope: WebsiteScope | null): string[] {
  const all = [INVESTMENT.zielone, INVESTMENT.wisla, INVESTMENT.empty];
  return scope?.investment_ids ? all.filter((id) => scope.investment_ids!.includes(id)) : all;
}

/** The investment of each of organization A's offers (null: none). */
export function investmentOf(offerId: string): string | null {
  return OFFER_SEEDS.find((s) => s.offer_id === offerId)?.investment_id ?? null;
}
