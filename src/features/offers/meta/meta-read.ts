/**
 * The values of the enumerated offer_data fields present in the active offers a caller sees (its
 * organization's, within its website's scope) (extension E4).
 */
import { sql } from 'kysely';
import { investmentScopeCondition, offerScopeCondition } from '../../access/index.js';
import { OFFER_DATA_FIELDS } from '../../../contract/offer-fields.js';
import type { Visibility } from '../../access/index.js';
import type { ReadDb } from '../../../db/readonly.js';

const ENUM_FIELDS = OFFER_DATA_FIELDS.filter((f) => f.kind === 'enum').map((f) => f.name);

/** Field name -> its distinct values (byte order), in one scan of the organization's active offers. */
export async function enumValuesInUse(db: ReadDb, visibility: Visibility): Promise<Record<string, string[]>> {
  const columns = ENUM_FIELDS.map((name) => {
    const value = sql`(o.offer_data ->> ${sql.lit(name)}) collate "C"`;
    return sql`array_remove(array_agg(distinct ${value} order by ${value}), null) as ${sql.ref(name)}`;
  });
  const inScope = offerScopeCondition(visibility.scope, 'o');
  const result = await sql<Record<string, string[] | null>>`select ${sql.join(columns)}
    from offers as o where o.organization_id = ${visibility.organizationId} and o.is_active${inScope ? sql` and ${inScope}` : sql``}`.execute(db);
  const row = result.rows[0] ?? {};
  return Object.fromEntries(ENUM_FIELDS.map((name) => [name, row[name] ?? []]));
}

/**
 * The languages of the translations (extension E12) of the active offers and the investments a
 * caller sees, as canonical tags in byte order: what `lang` can serve.
 */
export async function languagesInUse(db: ReadDb, visibility: Visibility): Promise<string[]> {
  const offersInScope = offerScopeCondition(visibility.scope, 'o');
  const investmentsInScope = investmentScopeCondition(visibility.scope, 'i.investment_id');
  const result = await sql<{ languages: string[] | null }>`select array(select x.tag from (
      select jsonb_object_keys(o.translations) as tag from offers as o
      where o.organization_id = ${visibility.organizationId} and o.is_active and o.translations is not null${offersInScope ? sql` and ${offersInScope}` : sql``}
      union
      select jsonb_object_keys(i.translations) from investments as i
      where i.organization_id = ${visibility.organizationId} and i.translations is not null${investmentsInScope ? sql` and ${investmentsInScope}` : sql``}
    ) as x order by x.tag collate "C") as languages`.execute(db);
  return result.rows[0]?.languages ?? [];
}
