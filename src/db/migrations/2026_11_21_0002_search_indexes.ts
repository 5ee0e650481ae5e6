/**
 * Indexes for the searches websites really send (docs/performance.md shows the plans):
 *
 * - has_balcony as a typed column: a filter on it no longer reads (and decompresses) offer_data
 *   for every candidate row, which made the count of a four-filter search cost ~10 ms.
 * - (organization, city, price, offer_id) INCLUDE (rooms, has_balcony), ascending and descending:
 *   a search by city and price range, sorted by price, walks the index in order for its page, and
 *   its count is an index-only scan (rooms and has_balcony are checked from the index). It replaces
 *   offers_org_city_idx (organization, city, price), of which it is a superset.
 * - (organization, investment, created_at DESC, offer_id): an investment's offers in the default
 *   order, page and count, instead of intersecting two bitmaps. It replaces offers_investment_idx
 *   (investment, created_at DESC, offer_id), which every query used only together with the
 *   organization.
 *
 * Adding a stored generated column rewrites the offers table once (about 5 s per 100,000 offers).
 * One statement per query, as in the initial migration (PGlite takes one at a time).
 */
import { sql, type Kysely } from 'kysely';

const UP: readonly string[] = [
  // The rewrite may outlast the service's per-statement timeout (DB_STATEMENT_TIMEOUT_MS). The
  // migrator runs each migration in a transaction, so SET LOCAL ends with it.
  `SET LOCAL statement_timeout = 0`,
  `ALTER TABLE offers ADD COLUMN has_balcony boolean GENERATED ALWAYS AS ((offer_data ->> 'has_balcony')::boolean) STORED`,
  `CREATE INDEX offers_org_city_price_idx ON offers (organization_id, address_city, price, offer_id)
    INCLUDE (rooms, has_balcony) WHERE is_active`,
  `CREATE INDEX offers_org_city_price_desc_idx ON offers (organization_id, address_city, price DESC NULLS LAST, offer_id)
    INCLUDE (rooms, has_balcony) WHERE is_active`,
  `DROP INDEX offers_org_city_idx`,
  `CREATE INDEX offers_org_investment_created_idx ON offers (organization_id, investment_id, created_at DESC, offer_id) WHERE is_active`,
  `DROP INDEX offers_investment_idx`,
];

const DOWN: readonly string[] = [
  `CREATE INDEX offers_investment_idx ON offers (investment_id, created_at DESC, offer_id) WHERE is_active`,
  `DROP INDEX offers_org_investment_created_idx`,
  `CREATE INDEX offers_org_city_idx ON offers (organization_id, address_city, price) WHERE is_active`,
  `DROP INDEX offers_org_city_price_desc_idx`,
  `DROP INDEX offers_org_city_price_idx`,
  `ALTER TABLE offers DROP COLUMN has_balcony`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}
