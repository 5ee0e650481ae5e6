/**
 * The dataset's reads on the read-only handle: whether an organization's dataset is on (and its
 * developer data), the first day of its price history, and the offers of a day's file with their
 * history up to the end of that day.
 */
import { sql } from 'kysely';
import type { ReadDb } from '../../db/readonly.js';
import { DATASET_OFFER_TYPES, warsawDay, type Address, type DatasetOffer, type Developer, type HistoryEntry } from './model.js';

export interface DatasetState {
  readonly organizationId: string;
  readonly name: string;
  readonly publicUrl: string;
  readonly developer: Developer | null;
}

const parse = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

/** The organization's dataset when an operator turned it on; undefined otherwise (or unknown). */
export async function readDatasetState(db: ReadDb, organizationId: string): Promise<DatasetState | undefined> {
  const result = await sql<{ name: string; public_url: string; developer: string | null }>`
    select g.name, t.public_url, g.developer::text as developer
    from transparency_datasets as t join organizations as g on g.organization_id = t.organization_id
    where t.organization_id = ${organizationId}::uuid`.execute(db);
  const row = result.rows[0];
  if (!row) return undefined;
  return { organizationId, name: row.name, publicUrl: row.public_url, developer: parse<Developer>(row.developer) };
}

/** The Europe/Warsaw day of the organization's earliest price entry; undefined without history. */
export async function readFirstDay(db: ReadDb, organizationId: string): Promise<string | undefined> {
  const result = await sql<{ first: string | null }>`
    select min(valid_from) as first from offer_prices where organization_id = ${organizationId}::uuid`.execute(db);
  const first = result.rows[0]?.first;
  return first ? warsawDay(new Date(first)) : undefined;
}

interface Row {
  offer_id: string;
  external_id: string;
  offer_type: string;
  property_size: string | null;
  location: string | null;
  valid_from: string;
  price: string | null;
  price_per_meter: string | null;
  ancillary: string;
}

/**
 * The offers of the file of the day that ends at `dayEnd`, ordered by investment name, the
 * developer's number and id, each with its history up to then (oldest first): offers of the
 * organization with market_type PRIMARY, in an investment, that sell a flat or a house, with a price
 * entry before the day ended, and still offered when it ended (active, or deactivated later: an
 * offer's last change after the day is when it was deactivated).
 */
export async function readDatasetOffers(db: ReadDb, organizationId: string, dayEnd: Date): Promise<DatasetOffer[]> {
  const end = dayEnd.toISOString();
  const result = await sql<Row>`
    with chosen as (
      select o.offer_id, o.external_id, o.offer_type, o.offer_data ->> 'property_size' as property_size,
        i.location::text as location, i.name as investment_name
      from offers as o join investments as i on i.investment_id = o.investment_id and i.organization_id = o.organization_id
      where o.organization_id = ${organizationId}::uuid and o.market_type = 'PRIMARY'
        and o.offer_type in (${sql.join(Object.keys(DATASET_OFFER_TYPES))})
        and (o.is_active or o.updated_at >= ${end}::timestamptz)
    )
    select c.offer_id, c.external_id, c.offer_type, c.property_size, c.location, p.valid_from,
      p.price::text as price, p.price_per_meter::text as price_per_meter, p.ancillary::text as ancillary
    from chosen as c
      join offer_prices as p on p.offer_id = c.offer_id and p.organization_id = ${organizationId}::uuid and p.valid_from < ${end}::timestamptz
    order by c.investment_name collate "C", c.external_id collate "C", c.offer_id, p.entry_no`.execute(db);
  const offers: DatasetOffer[] = [];
  // Many entries share an instant (every offer an import first writes): each is turned into a day once.
  const days = new Map<string, string>();
  const dayOf = (instant: string) => {
    let day = days.get(instant);
    if (day === undefined) days.set(instant, (day = warsawDay(new Date(instant))));
    return day;
  };
  let current: { offer: DatasetOffer; history: HistoryEntry[] } | undefined;
  for (const row of result.rows) {
    if (current?.offer.offer_id !== row.offer_id) {
      const history: HistoryEntry[] = [];
      current = {
        history,
        offer: {
          offer_id: row.offer_id,
          external_id: row.external_id,
          offer_type: row.offer_type,
          property_size: row.property_size,
          investment_location: parse<Address>(row.location),
          history,
        },
      };
      offers.push(current.offer);
    }
    current.history.push({
      day: dayOf(row.valid_from),
      price: row.price,
      price_per_meter: row.price_per_meter,
      ancillary: JSON.parse(row.ancillary) as HistoryEntry['ancillary'],
    });
  }
  return offers;
}
