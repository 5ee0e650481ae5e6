/**
 * The dataset's switches, for `transparency enable|disable`: an operator turns an organization's
 * dataset on (with the public URL the harvester is given) or off. Status is read here too, on the
 * command's own handle.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { missingDeveloperFields, type Developer } from './model.js';

export interface DatasetStatus {
  organization_id: string;
  name: string;
  enabled: boolean;
  public_url: string | null;
  enabled_at: string | null;
  /** What the developer's data lacks for the dataset (empty: complete). */
  missing: string[];
}

/** Every organization, with its dataset's state, by name then id. */
export async function datasetStatuses(db: Kysely<Database>, organizationId?: string): Promise<DatasetStatus[]> {
  const result = await sql<{ organization_id: string; name: string; developer: string | null; public_url: string | null; enabled_at: string | null }>`
    select g.organization_id, g.name, g.developer::text as developer, t.public_url, t.enabled_at::text as enabled_at
    from organizations as g left join transparency_datasets as t on t.organization_id = g.organization_id
    ${organizationId ? sql`where g.organization_id = ${organizationId}::uuid` : sql``}
    order by g.name collate "C", g.organization_id`.execute(db);
  return result.rows.map((r) => ({
    organization_id: r.organization_id,
    name: r.name,
    enabled: r.public_url !== null,
    public_url: r.public_url,
    enabled_at: r.enabled_at,
    missing: missingDeveloperFields(r.developer === null ? null : (JSON.parse(r.developer) as Developer)),
  }));
}

/** Turns the dataset on (or changes its public URL). The caller checked the developer's data. */
export async function enableDataset(db: Kysely<Database>, organizationId: string, publicUrl: string): Promise<void> {
  await sql`insert into transparency_datasets (organization_id, public_url) values (${organizationId}::uuid, ${publicUrl})
    on conflict (organization_id) do update set public_url = excluded.public_url`.execute(db);
}

/** Turns the dataset off; true when it was on. */
export async function disableDataset(db: Kysely<Database>, organizationId: string): Promise<boolean> {
  const result = await sql`delete from transparency_datasets where organization_id = ${organizationId}::uuid`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}
