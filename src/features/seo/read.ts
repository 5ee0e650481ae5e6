/**
 * The SEO wing's reads (extension E12): a slug, current or old, to its entity and current slug,
 * for a caller that sees the entity (its organization; active offers within the website's scope,
 * investments within it); the website's URL templates; the sitemap's entries, chunk by chunk.
 */
import { sql } from 'kysely';
import type { ReadDb } from '../../db/readonly.js';
import { investmentScopeCondition, offerScopeCondition, type Visibility } from '../access/index.js';
import type { SlugAnswer, SlugKind, WebsiteUrls } from './model.js';

/** The entity a slug names and its current slug; undefined when unknown or not visible to the caller. */
export async function resolveSlug(db: ReadDb, caller: Visibility, kind: SlugKind, slug: string): Promise<SlugAnswer | undefined> {
  const inScope = kind === 'offer' ? offerScopeCondition(caller.scope, 'e') : investmentScopeCondition(caller.scope, 'e.investment_id');
  const entity =
    kind === 'offer'
      ? sql`select e.offer_id::text as id, e.slug from offers e where e.offer_id = s.entity_id and e.is_active`
      : sql`select e.investment_id::text as id, e.slug from investments e where e.investment_id = s.entity_id`;
  const result = await sql<{ id: string; slug: string }>`
    select x.id, x.slug from slugs s
    cross join lateral (${entity}${inScope ? sql` and ${inScope}` : sql``}) as x
    where s.organization_id = ${caller.organizationId}::uuid and s.kind = ${kind} and s.slug = ${slug}`.execute(db);
  const row = result.rows[0];
  return row ? { kind, id: row.id, slug: row.slug } : undefined;
}

/** The website's URL templates; null when it has none. */
export async function readWebsiteUrls(db: ReadDb, websiteId: string): Promise<WebsiteUrls | null> {
  const result = await sql<{ urls: WebsiteUrls | null }>`select urls from websites where website_id = ${websiteId}::uuid`.execute(db);
  return result.rows[0]?.urls ?? null;
}

/** What the sitemap lists of a kind: the active offers (investments) the caller sees. */
function sitemapSource(caller: Visibility, kind: SlugKind) {
  if (kind === 'offer') {
    const inScope = offerScopeCondition(caller.scope, 'e');
    return { table: sql`offers as e`, id: sql.ref('e.offer_id'), where: sql`e.organization_id = ${caller.organizationId}::uuid and e.is_active${inScope ? sql` and ${inScope}` : sql``}` };
  }
  const inScope = investmentScopeCondition(caller.scope, 'e.investment_id');
  return { table: sql`investments as e`, id: sql.ref('e.investment_id'), where: sql`e.organization_id = ${caller.organizationId}::uuid and e.is_active${inScope ? sql` and ${inScope}` : sql``}` };
}

/** How many addresses of a kind the sitemap lists for the caller. */
export async function countSitemapEntries(db: ReadDb, caller: Visibility, kind: SlugKind): Promise<number> {
  const s = sitemapSource(caller, kind);
  const result = await sql<{ n: number }>`select count(*)::int as n from ${s.table} where ${s.where}`.execute(db);
  return result.rows[0]!.n;
}

export interface SitemapEntry {
  readonly id: string;
  readonly slug: string;
  /** updated_at in UTC, to the second (W3C Datetime). */
  readonly lastmod: string;
}

/** Rows per query while a sitemap is written: memory stays bounded whatever its size. */
export const SITEMAP_CHUNK = 2000;

/**
 * The sitemap's entries of a kind from position `offset` (in id order), `count` of them, read
 * SITEMAP_CHUNK at a time (the first chunk found by offset, the next ones after the last id).
 */
export async function* sitemapEntries(db: ReadDb, caller: Visibility, kind: SlugKind, offset: number, count: number): AsyncGenerator<SitemapEntry[]> {
  const s = sitemapSource(caller, kind);
  let last: string | undefined;
  let left = count;
  while (left > 0) {
    const limit = Math.min(SITEMAP_CHUNK, left);
    const result = await sql<SitemapEntry>`
      select ${s.id}::text as id, e.slug,
        to_char(e.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') as lastmod
      from ${s.table}
      where ${s.where}${last === undefined ? sql`` : sql` and ${s.id} > ${last}::uuid`}
      order by ${s.id}
      ${last === undefined ? sql`offset ${offset}` : sql``} limit ${limit}`.execute(db);
    if (result.rows.length === 0) return;
    yield result.rows;
    left -= result.rows.length;
    last = result.rows.at(-1)!.id;
  }
}

/** What the structured data of an offer is made of: the offer the caller sees (active, in scope), its slug, its website's offer template. */
export async function readStructuredDataSource(
  db: ReadDb,
  caller: Visibility & { readonly websiteId: string },
  offerId: string,
): Promise<{ data: Record<string, unknown>; slug: string; createdAt: string; template: string | undefined } | undefined> {
  const inScope = offerScopeCondition(caller.scope, 'e');
  const result = await sql<{ data: Record<string, unknown>; slug: string; created_at: string; urls: WebsiteUrls | null }>`
    select e.offer_data as data, e.slug, e.created_at, (select w.urls from websites w where w.website_id = ${caller.websiteId}::uuid) as urls
    from offers e
    where e.offer_id = ${offerId}::uuid and e.organization_id = ${caller.organizationId}::uuid and e.is_active${inScope ? sql` and ${inScope}` : sql``}`.execute(db);
  const row = result.rows[0];
  return row ? { data: row.data, slug: row.slug, createdAt: row.created_at, template: row.urls?.offer } : undefined;
}
