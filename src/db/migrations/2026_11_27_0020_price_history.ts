/**
 * Price history (extension E10): an append-only table of dated price entries per offer, and on the
 * offers table what the import keeps beside it:
 *
 * - `offer_prices`: one row per entry, in the order the import appended them (`entry_no`). No
 *   foreign key to offers (offers are never deleted; prune only deactivates them, and the history
 *   must outlive anything done to the offer). Indexed by offer (the API's history, the import's
 *   "latest entry") and by organization and valid_from (the transparency files of a past day).
 * - `offers.ancillary`: the offer's ancillary prices (parking, storage ...) as the bundle gave
 *   them, so that a change of them alone is a change of the offer (a new version, a change-feed
 *   upsert), as a change of its price is.
 * - `offers.price_changed_at`, `offers.price_change_pct`: the latest price change, kept by the
 *   import whenever it appends an entry, so that filters and sorts on them read a column.
 *
 * Offers stored before this migration get one entry each: their current prices, valid from their
 * `updated_at` (the last time an import wrote them, the earliest moment the service knows those
 * prices held).
 *
 * Frozen: later changes go into new migration files.
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  `SET LOCAL statement_timeout = 0`,
  `CREATE TABLE offer_prices (
    entry_no bigserial PRIMARY KEY,
    offer_id uuid NOT NULL,
    organization_id uuid NOT NULL,
    valid_from timestamptz NOT NULL,
    price numeric,
    price_per_meter numeric,
    price_currency text,
    ancillary jsonb NOT NULL DEFAULT '[]'::jsonb,
    recorded_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX offer_prices_offer_idx ON offer_prices (offer_id, entry_no)`,
  `CREATE INDEX offer_prices_org_valid_idx ON offer_prices (organization_id, valid_from)`,
  `ALTER TABLE offers ADD COLUMN ancillary jsonb`,
  `ALTER TABLE offers ADD COLUMN price_changed_at timestamptz`,
  `ALTER TABLE offers ADD COLUMN price_change_pct numeric`,
  `INSERT INTO offer_prices (offer_id, organization_id, valid_from, price, price_per_meter, price_currency)
    SELECT offer_id, organization_id, updated_at, (offer_data ->> 'price')::numeric, (offer_data ->> 'price_per_meter')::numeric,
      offer_data ->> 'price_currency'
    FROM offers ORDER BY updated_at, offer_id`,
];

const DOWN: readonly string[] = [
  `ALTER TABLE offers DROP COLUMN price_change_pct`,
  `ALTER TABLE offers DROP COLUMN price_changed_at`,
  `ALTER TABLE offers DROP COLUMN ancillary`,
  `DROP TABLE offer_prices`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
