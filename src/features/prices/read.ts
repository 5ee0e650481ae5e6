/**
 * The price history's reads on the read-only handle: one offer's entries, oldest first, for a
 * caller who may see that offer (the same rule as GET /api/v1/offers/{offer_id}: an active offer
 * of the caller's organization, within the website's scope).
 */
import { sql } from 'kysely';
import { offerInScopeSql, scopeJson, type Visibility } from '../access/index.js';
import type { ReadDb } from '../../db/readonly.js';
import { toApiTimestamp } from '../../contract/timestamps.js';
import type { AncillaryPrice, PriceEntryView } from './model.js';

interface EntryRow {
  valid_from: string;
  price: string | null;
  price_per_meter: string | null;
  price_currency: string | null;
  ancillary: string;
}

const toNumber = (text: string | null): number | null => (text === null ? null : Number(text));

/** The offer's entries, oldest first; undefined when the caller cannot see the offer. */
export async function readPriceHistory(db: ReadDb, visibility: Visibility, offerId: string): Promise<PriceEntryView[] | undefined> {
  const { organizationId, scope } = visibility;
  const inScope = scope ? sql`and ${offerInScopeSql(scopeJson(scope), 'o')}` : sql``;
  const visible = await sql<{ offer_id: string }>`
    select o.offer_id from offers as o
    where o.organization_id = ${organizationId} and o.is_active and o.offer_id = ${offerId} ${inScope}`.execute(db);
  if (visible.rows.length === 0) return undefined;
  const entries = await sql<EntryRow>`
    select p.valid_from, p.price::text as price, p.price_per_meter::text as price_per_meter, p.price_currency,
      p.ancillary::text as ancillary
    from offer_prices as p
    where p.offer_id = ${offerId} and p.organization_id = ${organizationId}
    order by p.entry_no`.execute(db);
  return entries.rows.map((r) => ({
    valid_from: toApiTimestamp(r.valid_from),
    price: toNumber(r.price),
    price_per_meter: toNumber(r.price_per_meter),
    price_currency: r.price_currency,
    ancillary: JSON.parse(r.ancillary) as AncillaryPrice[],
  }));
}
