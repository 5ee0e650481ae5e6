/**
 * The SQL of "similar offers" (extension E13): the facts the score reads (similar-score.ts) of one
 * offer the caller may see, and of every other active offer it may see of the same offer type.
 * Only typed columns are read (no offer body): the offers of one type in one organization, found
 * by the (organization, offer_type) index.
 */
import { sql } from 'kysely';
import { offerScopeCondition, type Visibility } from '../../access/index.js';
import type { ReadDb } from '../../../db/readonly.js';
import type { SimilarityFacts } from './similar-score.js';

interface FactsRow extends SimilarityFacts {
  readonly offer_type: string | null;
}

const FACT_COLUMNS = sql`o.offer_id, o.investment_id, o.location_latitude as latitude, o.location_longitude as longitude,
  o.price, o.rooms, o.property_size, o.offer_type`;

/** The offer (active, visible to the caller) and its same-type neighbours; undefined when the caller cannot see it. */
export async function readSimilarityFacts(
  db: ReadDb,
  visibility: Visibility,
  offerId: string,
): Promise<{ base: SimilarityFacts; candidates: SimilarityFacts[] } | undefined> {
  const inScope = offerScopeCondition(visibility.scope, 'o');
  const scoped = inScope ? sql`and ${inScope}` : sql``;
  const base = (
    await sql<FactsRow>`select ${FACT_COLUMNS} from offers as o
      where o.organization_id = ${visibility.organizationId} and o.is_active and o.offer_id = ${offerId} ${scoped}`.execute(db)
  ).rows[0];
  if (base === undefined) return undefined;
  // An offer without a type is compared with the others without one.
  const sameType = base.offer_type === null ? sql`o.offer_type is null` : sql`o.offer_type = ${base.offer_type}`;
  const candidates = (
    await sql<FactsRow>`select ${FACT_COLUMNS} from offers as o
      where o.organization_id = ${visibility.organizationId} and o.is_active and ${sameType}
        and o.offer_id <> ${base.offer_id} ${scoped}`.execute(db)
  ).rows;
  return { base: facts(base), candidates: candidates.map(facts) };
}

/** Numbers as numbers (pg returns float8 and int4 as numbers already; kept explicit for both drivers). */
function facts(row: FactsRow): SimilarityFacts {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    offer_id: row.offer_id,
    investment_id: row.investment_id,
    latitude: num(row.latitude),
    longitude: num(row.longitude),
    price: num(row.price),
    rooms: num(row.rooms),
    property_size: num(row.property_size),
  };
}
