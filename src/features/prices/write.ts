/**
 * The price history's one write, for the import inside its transaction: for a batch of offers just
 * upserted, append an entry to each offer whose prices differ from its latest entry (or that has
 * none yet), and keep the offer's latest price change (price_changed_at, price_change_pct) beside
 * it. One statement per batch. Nothing here, or anywhere, updates or deletes an entry. The offers'
 * upsert has already set the latest change from the stored price, which is the latest entry's
 * (src/features/offers/write.ts): the offer row is written here only where that was not so.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import type { PriceEntryDraft } from './model.js';

/**
 * A price change in percent, as the history and the offer row keep it: computed in numeric,
 * rounded to 2 decimals (half away from zero), null when the previous price was 0.
 */
export function priceChangePct(price: RawBuilder<unknown>, previous: RawBuilder<unknown>): RawBuilder<number | null> {
  return sql<number | null>`round((${price} - ${previous}) * 100 / nullif(${previous}, 0), 2)`;
}

/**
 * Appends the batch's changed prices; returns the ids of the offers whose prices changed with a
 * `prices_valid_from` earlier than their latest entry (nothing is appended for them: the import
 * reports a problem and rolls back).
 *
 * An entry is valid from the record's prices_valid_from, else from now() (the start of the
 * import's transaction, the same instant for the whole import). An entry counts as a price change
 * when its price and the previous entry's are both known and differ; its percent is priceChangePct's.
 */
export async function appendPriceHistory(db: Kysely<Database>, drafts: readonly PriceEntryDraft[]): Promise<string[]> {
  if (drafts.length === 0) return [];
  // One array per column (unnest), not a VALUES list of 7 parameters per entry: planning that list
  // cost the server more than the statement's work (20,000 first entries: about 0.3 s).
  const column = <T>(pick: (d: PriceEntryDraft) => T) => drafts.map(pick);
  const result = await sql<{ offer_id: string }>`
    with v (offer_id, organization_id, price, price_per_meter, price_currency, ancillary, valid_from) as (
      select * from unnest(${column((d) => d.offer_id)}::uuid[], ${column((d) => d.organization_id)}::uuid[],
        ${column((d) => d.price)}::numeric[], ${column((d) => d.price_per_meter)}::numeric[], ${column((d) => d.price_currency)}::text[],
        ${column((d) => d.ancillary_json)}::jsonb[], ${column((d) => d.valid_from)}::timestamptz[])),
    changed as (
      select v.*, coalesce(v.valid_from, now()) as starts, l.entry_no as last_no, l.valid_from as last_from, l.price as last_price
      from v left join lateral (
        select p.entry_no, p.valid_from, p.price, p.price_per_meter, p.price_currency, p.ancillary
        from offer_prices as p where p.offer_id = v.offer_id order by p.entry_no desc limit 1
      ) as l on true
      where l.entry_no is null
         or (v.price, v.price_per_meter, v.price_currency, v.ancillary)
            is distinct from (l.price, l.price_per_meter, l.price_currency, l.ancillary)
    ),
    accepted as (select * from changed where last_no is null or starts >= last_from),
    appended as (
      insert into offer_prices (offer_id, organization_id, valid_from, price, price_per_meter, price_currency, ancillary)
      select offer_id, organization_id, starts, price, price_per_meter, price_currency, ancillary from accepted
      returning entry_no
    ),
    latest_change as (
      update offers as o set price_changed_at = a.starts, price_change_pct = a.pct
      from (select a.*, ${priceChangePct(sql`a.price`, sql`a.last_price`)} as pct from accepted as a) as a
      where o.offer_id = a.offer_id and o.organization_id = a.organization_id
        and a.last_no is not null and a.price is not null and a.last_price is not null and a.price <> a.last_price
        and (o.price_changed_at, o.price_change_pct) is distinct from (a.starts, a.pct)
      returning o.offer_id
    )
    select offer_id from changed where last_no is not null and starts < last_from`.execute(db);
  return result.rows.map((r) => r.offer_id);
}

/**
 * The prices of an offer row as an entry keeps them, for the RETURNING of the offers' upsert
 * (`offers` being the written row): the same values appendPriceHistory gets from the record (the
 * row's offer_data is the record's, normalized; its ancillary is null when the record has none).
 */
export const ROW_PRICES = sql`(offers.offer_data->>'price')::numeric as price,
      (offers.offer_data->>'price_per_meter')::numeric as price_per_meter, offers.offer_data->>'price_currency' as price_currency,
      coalesce(offers.ancillary, '[]'::jsonb) as price_ancillary`;

/**
 * The first entries of the offers an upsert created, as a statement of its WITH: `written` holds
 * the upsert's rows (offer_id, organization_id, created, and ROW_PRICES), `validFrom` the
 * expression of each one's prices_valid_from (null: the import's time). An offer that has entries
 * already (its row deleted by hand, then imported again: the history is never deleted) is left to
 * appendPriceHistory, which compares with the latest entry and may find the record late. Returns
 * the ids of the offers it gave an entry. A first import of 20,000 offers appends their entries
 * so, with no statement of its own per batch (about 0.3 s of server time less: the bind of seven
 * arrays per batch, and a lookup per offer).
 */
export function firstPriceEntries(written: RawBuilder<unknown>, validFrom: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`insert into offer_prices (offer_id, organization_id, valid_from, price, price_per_meter, price_currency, ancillary)
      select w.offer_id, w.organization_id, coalesce(${validFrom}, now()), w.price, w.price_per_meter, w.price_currency, w.price_ancillary
      from ${written} as w
      where w.created and not exists (select 1 from offer_prices as p where p.offer_id = w.offer_id)
      returning offer_id`;
}

/** Whether no offer has a price history yet (the demo dates its earlier prices only then). */
export async function priceHistoryIsEmpty(db: Kysely<Database>): Promise<boolean> {
  const result = await sql<{ any: boolean }>`select exists (select 1 from offer_prices) as any`.execute(db);
  return !result.rows[0]!.any;
}
