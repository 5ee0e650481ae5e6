/**
 * Offer reads: one offer by id, and a filtered, sorted page of offers. Only active offers of the
 * caller's organization exist here. offer_data is never parsed for JSON responses: the stored
 * offer_data_json text is spliced as it is (offer_data is parsed lazily, for XML).
 */
import { sql } from 'kysely';
import type { OfferView, OffersPageView } from '../domain/offer-view.js';
import type { Agent, Branch, Investment, Organization } from '../schemas/resources.js';
import { findAgentsByIds } from './agents.js';
import { findBranchesByIds } from './branches.js';
import { findInvestmentsByIds } from './investments.js';
import { filterCondition, sortExpression, type OfferFilter, type OfferSort } from './offer-filters.js';
import { findOrganization } from './organization.js';
import type { ReadDb } from './readonly.js';

export const OFFER_INCLUDES = ['agent', 'branch', 'organization', 'investment'] as const;
export type OfferInclude = (typeof OFFER_INCLUDES)[number];

export interface OfferListQuery {
  organizationId: string;
  /** Limits the list to one investment's offers. */
  investmentId?: string;
  filters: readonly OfferFilter[];
  /** undefined: newest first (created_at desc). */
  sort?: OfferSort;
  page: number;
  size: number;
  include: ReadonlySet<OfferInclude>;
}

interface OfferRowSlice {
  offer_id: string;
  external_id: string;
  created_at: string;
  updated_at: string;
  offer_data_json: string;
  version: number;
  agent_id: string | null;
  branch_id: string | null;
  investment_id: string | null;
}

const OFFER_COLUMNS = [
  'o.offer_id',
  'o.external_id',
  'o.created_at',
  'o.updated_at',
  'o.offer_data_json',
  'o.version',
  'o.agent_id',
  'o.branch_id',
  'o.investment_id',
] as const;

function activeOffersOf(db: ReadDb, organizationId: string) {
  return db.selectFrom('offers as o').where('o.organization_id', '=', organizationId).where('o.is_active', '=', true);
}

export async function findOffer(
  db: ReadDb,
  organizationId: string,
  offerId: string,
  include: ReadonlySet<OfferInclude>,
): Promise<OfferView | undefined> {
  const row = await activeOffersOf(db, organizationId).select(OFFER_COLUMNS).where('o.offer_id', '=', offerId).executeTakeFirst();
  if (!row) return undefined;
  const [view] = await withRelated(db, organizationId, [row], include);
  return view;
}

/** Largest OFFSET we send; a page past it is empty anyway. */
const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

export async function listOffers(db: ReadDb, query: OfferListQuery): Promise<OffersPageView> {
  let matching = activeOffersOf(db, query.organizationId);
  if (query.investmentId !== undefined) matching = matching.where('o.investment_id', '=', query.investmentId);
  for (const filter of query.filters) matching = matching.where(filterCondition(filter));

  let pageQuery = matching.select(OFFER_COLUMNS);
  if (query.sort) {
    const { direction } = query.sort;
    pageQuery = pageQuery.orderBy(sortExpression(query.sort.field), (ob) =>
      direction === 'asc' ? ob.asc().nullsLast() : ob.desc().nullsLast(),
    );
  } else {
    pageQuery = pageQuery.orderBy('o.created_at', 'desc');
  }
  const offset = Math.min((query.page - 1) * query.size, MAX_OFFSET);
  pageQuery = pageQuery.orderBy('o.offer_id', 'asc').limit(query.size).offset(offset);

  const [counted, rows] = await Promise.all([
    matching.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow(),
    pageQuery.execute(),
  ]);
  const total = Number(counted.total);
  return {
    items: await withRelated(db, query.organizationId, rows, query.include),
    page: query.page,
    size: query.size,
    total,
    pages: total === 0 ? 0 : Math.ceil(total / query.size),
  };
}

/** Loads the included entities of a set of offers (limited to the organization) and builds the views. */
async function withRelated(
  db: ReadDb,
  organizationId: string,
  rows: readonly OfferRowSlice[],
  include: ReadonlySet<OfferInclude>,
): Promise<OfferView[]> {
  if (rows.length === 0) return [];
  const ids = (pick: (row: OfferRowSlice) => string | null) => [
    ...new Set(rows.map(pick).filter((id): id is string => id !== null)),
  ];
  const none = Promise.resolve(new Map<string, never>());
  const [agents, branches, investments, organization] = await Promise.all([
    include.has('agent') ? findAgentsByIds(db, organizationId, ids((r) => r.agent_id)) : none,
    include.has('branch') ? findBranchesByIds(db, organizationId, ids((r) => r.branch_id)) : none,
    include.has('investment') ? findInvestmentsByIds(db, organizationId, ids((r) => r.investment_id)) : none,
    include.has('organization') ? findOrganization(db, organizationId) : Promise.resolve(undefined),
  ]);
  return rows.map((row) =>
    toOfferView(row, {
      agent: (row.agent_id && agents.get(row.agent_id)) || null,
      branch: (row.branch_id && branches.get(row.branch_id)) || null,
      investment: (row.investment_id && investments.get(row.investment_id)) || null,
      organization: organization ?? null,
    }),
  );
}

function toOfferView(
  row: OfferRowSlice,
  related: { agent: Agent | null; branch: Branch | null; organization: Organization | null; investment: Investment | null },
): OfferView {
  let parsed: Record<string, unknown> | undefined;
  return {
    offer_id: row.offer_id,
    external_id: row.external_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    // Parsed only if a renderer asks for it (XML); JSON splices offer_data_json.
    get offer_data(): Record<string, unknown> {
      parsed ??= JSON.parse(row.offer_data_json) as Record<string, unknown>;
      return parsed;
    },
    offer_data_json: row.offer_data_json,
    version: row.version,
    ...related,
  };
}
