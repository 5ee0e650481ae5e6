/**
 * What the database already holds, asked by the import (src/import) in its transaction, in chunks: the organization of stored entities (to refuse
 * moving an id to another organization and links across organizations) and stored API keys.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';

export type EntityKind = 'organization' | 'website' | 'branch' | 'agent' | 'investment' | 'offer';

const TABLE: Readonly<Record<EntityKind, { table: keyof Database; id: string }>> = {
  organization: { table: 'organizations', id: 'organization_id' },
  website: { table: 'websites', id: 'website_id' },
  branch: { table: 'branches', id: 'branch_id' },
  agent: { table: 'agents', id: 'agent_id' },
  investment: { table: 'investments', id: 'investment_id' },
  offer: { table: 'offers', id: 'offer_id' },
};

const CHUNK = 1000;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** id -> organization_id of the stored rows among ids (an organization maps to itself). */
export async function storedOwners(db: Kysely<Database>, kind: EntityKind, ids: readonly string[]): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  const { table, id } = TABLE[kind];
  for (const part of chunks(ids)) {
    const result = await sql<{ id: string; org: string }>`
      select ${sql.ref(id)}::text as id, organization_id::text as org
      from ${sql.table(table)} where ${sql.ref(id)} in (${sql.join(part)})`.execute(db);
    for (const row of result.rows) owners.set(row.id, row.org);
  }
  return owners;
}

export interface StoredKey {
  key_id: string;
  website_id: string;
  key_sha256: string;
}

/** Stored keys that have one of the ids or one of the hashes. */
export async function storedKeys(db: Kysely<Database>, keyIds: readonly string[], hashes: readonly string[]): Promise<StoredKey[]> {
  const found = new Map<string, StoredKey>();
  const collect = async (column: 'key_id' | 'key_sha256', values: readonly string[]) => {
    for (const part of chunks(values)) {
      const result = await sql<StoredKey>`
        select key_id::text as key_id, website_id::text as website_id, key_sha256
        from api_keys where ${sql.ref(column)} in (${sql.join(part)})`.execute(db);
      for (const row of result.rows) found.set(row.key_id, row);
    }
  };
  await collect('key_id', keyIds);
  await collect('key_sha256', hashes);
  return [...found.values()];
}
