/**
 * The SEO wing's reads (extension E12): a slug, current or old, to its entity and current slug,
 * for a caller that sees the entity (its organization; active offers within the website's scope,
 * investments within it).
 */
import { sql } from 'kysely';
import type { ReadDb } from '../../db/readonly.js';
import { investmentScopeCondition, offerScopeCondition, type Visibility } from '../access/index.js';
import type { SlugAnswer, SlugKind } from './model.js';

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
