/**
 * Small bundles, a full database dump and import shortcuts for the import, key and CLI tests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/db/database.js';
import type { TestApp } from '../helpers/app.js';
import {
  formatProblem,
  importBundle,
  ImportRejectedError,
  memorySource,
  openBundleFile,
  type ImportOptions,
  type ImportReport,
} from '../../src/import/index.js';

export type Json = Record<string, unknown>;
export type Bundle = Partial<Record<'organizations' | 'websites' | 'branches' | 'agents' | 'investments' | 'offers', Json[]>>;

export const TABLES = ['organizations', 'websites', 'api_keys', 'branches', 'agents', 'investments', 'offers', 'search_lexemes', 'content_state', 'slugs'] as const;

/** Every row of every table, as JSON text in key order: equal dumps mean equal databases. */
export async function dumpDatabase(db: Kysely<Database>): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of TABLES) {
    const result = await sql<{ row: string }>`select row_to_json(t)::text as row from ${sql.table(table)} t order by 1`.execute(db);
    out[table] = result.rows.map((r) => r.row);
  }
  return out;
}

/**
 * Words of stored search vectors that the search vocabulary lacks (it must hold them all, for the
 * last word of a search: src/features/offers/query/search-sql.ts).
 */
export async function wordsMissingFromVocabulary(db: Kysely<Database>): Promise<string[]> {
  const result = await sql<{ missing: string }>`
    select distinct w as missing
    from offers as o, unnest(tsvector_to_array(o.search_vector)) as w
    where not exists (select 1 from search_lexemes as s where s.lexeme = w)
    order by 1`.execute(db);
  return result.rows.map((r) => r.missing);
}

/** Empties the content tables between tests (one database per test file keeps them fast). */
export async function resetDatabase(db: Kysely<Database>): Promise<void> {
  await sql`truncate offers, offer_prices, transparency_datasets, search_lexemes, agents, investments, branches, api_keys, websites, organizations, website_changes, website_feeds, slugs`.execute(db);
  await sql`update content_state set content_version = 1 where id = 1`.execute(db);
}

/** A small valid bundle of one organization; ids are fresh unless given. */
export function smallBundle(ids: Partial<Ids> = {}): { bundle: Bundle; ids: Ids } {
  const i: Ids = {
    org: ids.org ?? randomUUID(),
    website: ids.website ?? randomUUID(),
    branch: ids.branch ?? randomUUID(),
    agent: ids.agent ?? randomUUID(),
    investment: ids.investment ?? randomUUID(),
    offers: ids.offers ?? [randomUUID(), randomUUID(), randomUUID()],
  };
  const bundle: Bundle = {
    organizations: [{ organization_id: i.org, name: 'Test Agency', location: { address_city: 'Warszawa' }, social_media_links: ['https://example.com/a'] }],
    websites: [{ website_id: i.website, organization_id: i.org, name: 'test.example' }],
    branches: [
      {
        branch_id: i.branch,
        webpage_id: randomUUID(),
        organization_id: i.org,
        name: 'Branch',
        open_time: { monday: [{ from_time: '09:00', to_time: '17:00' }] },
      },
    ],
    agents: [{ agent_id: i.agent, organization_id: i.org, branch_id: i.branch, first_name: 'Anna', last_name: 'Nowak' }],
    investments: [{ investment_id: i.investment, organization_id: i.org, name: 'Osiedle', is_active: true }],
    offers: i.offers.map((id, n) => offer(id, i.org, n, { agent_id: i.agent, branch_id: i.branch, investment_id: n === 0 ? i.investment : null })),
  };
  return { bundle, ids: i };
}

export interface Ids {
  org: string;
  website: string;
  branch: string;
  agent: string;
  investment: string;
  offers: string[];
}

export function offer(offerId: string, org: string, n: number, extra: Json = {}): Json {
  return {
    offer_id: offerId,
    organization_id: org,
    external_id: `EXT-${n}`,
    ...extra,
    offer_data: {
      price: 500000 + n,
      price_per_meter: 10000,
      property_size: 50 + n / 100,
      rooms: 2,
      title: `Offer ${n}`,
      description: `<p>Offer <b>${n}</b> &amp; more</p>`,
      photos_urls: ['https://example.com/1.jpg'],
      date_posted: '2025-01-31T10:15:00+01:00',
      available_from_date: '2025-03-01T00:00:00Z',
      has_balcony: true,
    },
  };
}

/** Imports a bundle held in memory. */
export function importObject(db: Kysely<Database>, bundle: Bundle, options: ImportOptions = {}): Promise<ImportReport> {
  return importBundle(db, memorySource(bundle as Record<string, Json[]>), options);
}

/** Imports into a test app's database, then the app sees the new content version at once (as a notification would tell it). */
export async function importAndSee(t: TestApp, bundle: Bundle, options: ImportOptions = {}): Promise<ImportReport> {
  try {
    return await importObject(t.db.db, bundle, options);
  } finally {
    await t.app.contentVersion.refresh();
  }
}

/** importAndSee(), telling whether the import was rejected (any other error is thrown). */
export async function importRejected(t: TestApp, bundle: Bundle, options: ImportOptions = {}): Promise<boolean> {
  try {
    await importAndSee(t, bundle, options);
    return false;
  } catch (error) {
    if (!(error instanceof ImportRejectedError)) throw error;
    return true;
  }
}

let tmpDir: string | undefined;
export function tmpFile(name: string, text: string): string {
  tmpDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'ecs-import-test-'));
  const file = path.join(tmpDir, name);
  fs.writeFileSync(file, text);
  return file;
}

export function toNdjson(bundle: Bundle): string {
  const kinds: Array<[keyof Bundle, string]> = [
    ['organizations', 'organization'],
    ['websites', 'website'],
    ['branches', 'branch'],
    ['agents', 'agent'],
    ['investments', 'investment'],
    ['offers', 'offer'],
  ];
  return kinds.flatMap(([key, type]) => (bundle[key] ?? []).map((r) => JSON.stringify({ type, ...r }))).join('\n') + '\n';
}

export async function importText(db: Kysely<Database>, name: string, text: string, options: ImportOptions = {}): Promise<ImportReport> {
  return importBundle(db, await openBundleFile(tmpFile(name, text)), options);
}

/** The formatted problems of a rejected import (fails the test when the import succeeds). */
export async function problemsOf(run: Promise<unknown>): Promise<string[]> {
  try {
    await run;
  } catch (error) {
    if (error instanceof ImportRejectedError) return error.problems.map(formatProblem);
    throw error;
  }
  throw new Error('the import was expected to be rejected');
}

export async function offerRow(db: Kysely<Database>, offerId: string) {
  return db.selectFrom('offers').selectAll().where('offer_id', '=', offerId).executeTakeFirstOrThrow();
}

export async function contentVersion(db: Kysely<Database>): Promise<string> {
  const row = await db.selectFrom('content_state').select('content_version').executeTakeFirstOrThrow();
  return String(row.content_version);
}
