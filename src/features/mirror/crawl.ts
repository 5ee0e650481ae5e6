/**
 * Reads everything a key sees from a service speaking the original interface, with requests of
 * that interface only:
 *
 *   GET  /api/v1/organization
 *   GET  /api/v1/branches, then GET /api/v1/branches/{id}/agents for every branch
 *   GET  /api/v1/agents                      (agents without a branch)
 *   GET  /api/v1/investments                 (every page, if the source pages it)
 *   POST /api/v1/offers?include=agent,branch,investment   every page, 100 a page (the most allowed)
 *
 * Organization, branches, agents and investments are few and stay in memory as bundle records;
 * offers go to an NDJSON spool file as they arrive, so a large catalogue never sits in memory.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  AgentListAnswer,
  BranchListAnswer,
  checkAnswer,
  InvestmentListAnswer,
  InvestmentPageAnswer,
  OffersPageAnswer,
  OrganizationAnswer,
  type EntityValue,
  type OffersPageValue,
  type OrganizationValue,
} from './answers.js';
import type { SourceClient } from './client.js';
import { MirrorError, SourceStatusError } from './mirror-errors.js';
import { agentRecord, branchRecord, investmentRecord, offerRecord, organizationRecord } from './records.js';
import { plural } from '../../text/plural.js';

type Json = Record<string, unknown>;

/** The largest page size the interface allows. */
export const LARGEST_PAGE_SIZE = 100;
/** The related entities asked for with every offer: they carry its links. */
const OFFER_INCLUDE = 'agent,branch,investment';
/** A source that keeps sending pages past what it announced is not followed further than this. */
const EXTRA_PAGES = 1000;

export type ReadProgress =
  | { phase: 'entities'; organization: string; branches: number; agents: number; investments: number }
  | { phase: 'offers'; page: number; pages: number; offers: number; total: number };

export interface ReadOptions {
  /** Offers per page (default and most: 100). */
  pageSize?: number;
  onProgress?: (progress: ReadProgress) => void;
}

export interface SourceContent {
  organization: OrganizationValue;
  /** Bundle records: the organization, branches, agents, investments (in that order). */
  entities: { organizations: Json[]; branches: Json[]; agents: Json[]; investments: Json[] };
  /** NDJSON file of offer records (one a line). */
  offersFile: string;
  offers: number;
  pages: number;
  warnings: string[];
}

export async function readSource(client: SourceClient, spoolDir: string, options: ReadOptions = {}): Promise<SourceContent> {
  const warnings: string[] = [];
  const organization = checkAnswer<OrganizationValue>(OrganizationAnswer, await client.get('/api/v1/organization'), `GET ${client.url('/api/v1/organization')}`);
  const orgId = organization.organization_id.toLowerCase();

  const branches = new Map<string, EntityValue>();
  const agents = new Map<string, EntityValue>();
  const investments = new Map<string, EntityValue>();
  const add = (into: Map<string, EntityValue>, idField: string, value: EntityValue) => {
    const id = String(value[idField]).toLowerCase();
    if (!into.has(id)) into.set(id, value);
  };

  for (const b of await list(client, '/api/v1/branches', BranchListAnswer)) add(branches, 'branch_id', b);
  for (const id of [...branches.keys()]) {
    const url = `/api/v1/branches/${id}/agents`;
    for (const a of await list(client, url, AgentListAnswer)) add(agents, 'agent_id', a);
  }
  for (const a of await list(client, '/api/v1/agents', AgentListAnswer)) add(agents, 'agent_id', a);
  for (const i of await investmentList(client)) add(investments, 'investment_id', i);
  options.onProgress?.({ phase: 'entities', organization: organization.name, branches: branches.size, agents: agents.size, investments: investments.size });

  // Offers, page by page, into the spool file.
  const offersFile = path.join(spoolDir, 'offers.ndjson');
  const out = await fs.promises.open(offersFile, 'wx', 0o600);
  const seen = new Set<string>();
  const unknownFields = new Set<string>();
  const discovered = { agents: 0, branches: 0, investments: 0 };
  let duplicates = 0;
  let pages = 0;
  let lastTotal = 0;
  try {
    let size = Math.min(LARGEST_PAGE_SIZE, Math.max(1, options.pageSize ?? LARGEST_PAGE_SIZE));
    let sourceSize = false; // the source refused our size: use its default from then on
    let announced: number | undefined; // the page count of the first page
    for (let page = 1; ; page += 1) {
      let answer: OffersPageValue;
      try {
        answer = await offersPage(client, page, sourceSize ? undefined : size);
      } catch (error) {
        // A source that allows fewer than 100 a page: let it choose (the interface accepts {}).
        if (!(error instanceof SourceStatusError && error.status === 422 && page === 1 && !sourceSize)) throw error;
        sourceSize = true;
        answer = await offersPage(client, page, undefined);
        size = answer.size;
        warnings.push(`the source refused a page size of ${LARGEST_PAGE_SIZE}; read ${size} a page (its default)`);
      }
      pages += 1;
      lastTotal = answer.total;
      let lines = '';
      for (const offer of answer.items) {
        const id = offer.offer_id.toLowerCase();
        if (seen.has(id)) {
          duplicates += 1;
          continue;
        }
        seen.add(id);
        // Linked entities the lists did not show (the include shows them): kept too.
        if (offer.agent && !agents.has(String(offer.agent.agent_id).toLowerCase())) {
          add(agents, 'agent_id', offer.agent);
          discovered.agents += 1;
        }
        if (offer.branch && !branches.has(String(offer.branch.branch_id).toLowerCase())) {
          add(branches, 'branch_id', offer.branch);
          discovered.branches += 1;
        }
        if (offer.investment && !investments.has(String(offer.investment.investment_id).toLowerCase())) {
          add(investments, 'investment_id', offer.investment);
          discovered.investments += 1;
        }
        const mapped = offerRecord(offer, orgId);
        for (const field of mapped.unknownFields) unknownFields.add(field);
        lines += `${JSON.stringify(mapped.record)}\n`;
      }
      await out.write(lines);
      options.onProgress?.({ phase: 'offers', page, pages: answer.pages, offers: seen.size, total: answer.total });
      announced ??= answer.pages;
      if (answer.items.length === 0 || page >= answer.pages) break;
      if (page >= announced + EXTRA_PAGES) {
        throw new MirrorError(`the offer pages of ${client.url('/api/v1/offers')} do not end (page ${page}; the first page announced ${announced})`);
      }
    }
  } finally {
    await out.close();
  }

  if (duplicates > 0) warnings.push(`${plural(duplicates, 'offer')} appeared on two pages (the source changed while it was read); each was kept once`);
  if (seen.size !== lastTotal) warnings.push(`the source counted ${plural(lastTotal, 'offer')} but ${plural(seen.size, 'offer')} were read (it changed while it was read); mirror again for an exact copy`);
  if (unknownFields.size > 0) warnings.push(`offer_data fields this service does not know were left out: ${[...unknownFields].sort().join(', ')}`);
  const one = { agents: 'agent', branches: 'branch', investments: 'investment' } as const;
  for (const [kind, n] of Object.entries(discovered) as Array<[keyof typeof one, number]>) {
    if (n > 0) warnings.push(`${plural(n, one[kind], kind)} linked from offers but missing from the lists; taken from the offers`);
  }

  // An agent's branch must be one the key sees; otherwise the agent is stored without one.
  const agentRecords = [...agents.values()].map((a) => {
    const record = agentRecord(a, orgId);
    const branchId = record.branch_id;
    if (typeof branchId === 'string' && !branches.has(branchId.toLowerCase())) {
      warnings.push(`agent ${String(record.agent_id)} names branch ${branchId}, which the key does not see; stored without a branch`);
      record.branch_id = null;
    }
    return record;
  });

  return {
    organization,
    entities: {
      organizations: [organizationRecord(organization)],
      branches: [...branches.values()].map(branchRecord),
      agents: agentRecords,
      investments: [...investments.values()].map((i) => investmentRecord(i, orgId)),
    },
    offersFile,
    offers: seen.size,
    pages,
    warnings,
  };
}

async function list(client: SourceClient, path: string, schema: typeof BranchListAnswer | typeof AgentListAnswer): Promise<EntityValue[]> {
  return checkAnswer<EntityValue[]>(schema, await client.get(path), `GET ${client.url(path)}`);
}

/** GET /api/v1/investments: an array, or (some services) a paged envelope read to its last page. */
async function investmentList(client: SourceClient): Promise<EntityValue[]> {
  const path = '/api/v1/investments';
  const first = await client.get(path);
  if (Array.isArray(first)) return checkAnswer<EntityValue[]>(InvestmentListAnswer, first, `GET ${client.url(path)}`);
  let answer = checkAnswer<{ items: EntityValue[]; page: number; pages: number }>(InvestmentPageAnswer, first, `GET ${client.url(path)}`);
  const items = [...answer.items];
  for (let page = 2; page <= answer.pages && page <= EXTRA_PAGES && answer.items.length > 0; page += 1) {
    const pagePath = `${path}?page=${page}`;
    answer = checkAnswer(InvestmentPageAnswer, await client.get(pagePath), `GET ${client.url(pagePath)}`);
    items.push(...answer.items);
  }
  return items;
}

async function offersPage(client: SourceClient, page: number, size: number | undefined): Promise<OffersPageValue> {
  const path = `/api/v1/offers?include=${OFFER_INCLUDE}`;
  const answer = await client.post(path, { pagination: size === undefined ? { page } : { page, size } });
  return checkAnswer<OffersPageValue>(OffersPageAnswer, answer, `POST ${client.url(path)} (page ${page})`);
}
