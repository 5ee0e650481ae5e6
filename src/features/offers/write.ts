/**
 * The offers' writes, for the import (src/import) inside its transaction: offers upserted in
 * batches with their version and updated_at rule, and the words of their search vectors added to
 * the search vocabulary.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { WriteCounts } from '../../db/upsert.js';
import type { SearchVector } from './query/search-text.js';
import { madeSlug } from '../seo/index.js';
import { firstPriceEntries, priceChangePct, ROW_PRICES } from '../prices/index.js';

export interface OfferRowDraft {
  offer_id: string;
  organization_id: string;
  external_id: string;
  agent_id: string | null;
  branch_id: string | null;
  investment_id: string | null;
  is_active: boolean;
  /** As the record gives it (stored form), or undefined: keep the stored one / now() when new. */
  created_at: string | undefined;
  /** normalized offer_data rendered once; stored as the jsonb offer_data and as offer_data_json. */
  offer_data_json: string;
  /** The words the offer is found by (src/features/offers/query/search-text.ts): binary for pg, text for PGlite. */
  search_vector: SearchVector;
  /**
   * The record's ancillary prices (extension E10) as normalized JSON, null when it has none: kept
   * on the row so that a change of them alone makes a new version of the offer (and a change-feed
   * upsert), as a change of its price does. Never shown in the offer's answers.
   */
  ancillary_json: string | null;
  /**
   * The record's translations (extension E12) in their stored form (JSON text), null when it has
   * none: on the row, so that a change of them alone makes a new version of the offer.
   */
  translations_json: string | null;
  /**
   * The text a new offer's slug is made from (extension E12: title and city), or null when the
   * record gives its own slug. A new row is inserted with that made slug, so the import's end only
   * rewrites the few that lose it to another (src/features/seo/write.ts); a stored row keeps its slug.
   */
  slug_source: string | null;
  /**
   * The made slug of slug_source, made by the import (seo's made-slug.ts, the twin of ecs_slug), or
   * null: the insert makes it from slug_source. Written only by the insert, as the made one.
   */
  made_slug: string | null;
  /**
   * The slug the insert writes instead of made_slug, or null: made_slug's first suffixed form, when
   * an offer before it in the bundle made the same slug (it loses the made slug at the import's
   * end, and the first of its later rounds gives it this one: its row is then not written again).
   * The offer is still noted with made_slug.
   */
  made_slug_written: string | null;
  /**
   * When the record's prices started to hold (extension E10: its prices_valid_from, stored form),
   * or null: the time of the import. A changed price sets the row's latest price change with it.
   */
  prices_valid_from: string | null;
}

/** A new offer inserted with a made slug: that made slug, and the slug its row holds. */
export interface OfferMadeSlug {
  readonly offer_id: string;
  readonly organization_id: string;
  readonly slug: string;
  readonly written: string;
}

/**
 * What an upsert of offers did: the counts, the offers it created or changed, those of them whose
 * photo and floor plan URLs were not stored on an active offer before, the new offers inserted
 * with a made slug, and the new offers it gave their first price entry (extension E10; the other
 * written offers' prices are for the price history's own statement).
 */
export interface OfferWriteCounts extends WriteCounts {
  readonly written: string[];
  readonly newPhotoLists: string[];
  readonly madeSlugs: OfferMadeSlug[];
  readonly firstPrices: string[];
}

const storedPrice = sql`(offers.offer_data->>'price')::numeric`;
const newPrice = sql`(excluded.offer_data->>'price')::numeric`;

/** Whether an update changes the offer's price (both known). */
const changedPrice = sql`${storedPrice} <> ${newPrice}`;

/**
 * The latest price change (extension E10), set with the row when its price changes, as the price
 * history would set it from the offer's latest entry, whose price is the stored row's: when the
 * history's statement then runs (src/features/prices/write.ts), it finds nothing left to write,
 * and the row is not written a second time (about half a second per 2,000 changed prices). The
 * change holds from the record's prices_valid_from, else from the import's time.
 */
const PRICE_CHANGE = sql`
      price_changed_at = case when ${changedPrice}
        then coalesce((select p.prices_valid_from from v as p where p.offer_id = excluded.offer_id), now())
        else offers.price_changed_at end,
      price_change_pct = case when ${changedPrice} then ${priceChangePct(newPrice, storedPrice)} else offers.price_change_pct end,`;

/**
 * Whether a written offer's photo and floor plan URL lists are new to the store (extension E11):
 * the offer is new, was inactive (its sources were not queued), or its lists differ. The subquery
 * runs under the statement's snapshot, so it sees the row as it was before this upsert. An offer
 * whose lists are stored already (its sources queued when they were written) needs only the
 * retry of unavailable sources that an unchanged offer gets: the nightly price changes then look
 * up no photo source (about 20,000 URLs per 2,000 changed offers).
 */
const NEW_PHOTO_LISTS = sql`xmax = 0 or not exists (
        select 1 from offers as stored
        where stored.offer_id = offers.offer_id and stored.is_active
          and stored.offer_data->'photos_urls' is not distinct from offers.offer_data->'photos_urls'
          and stored.offer_data->'floor_plan_urls' is not distinct from offers.offer_data->'floor_plan_urls')`;

/** The values of a row that are null for most offers, sent only for a batch where one is not. */
interface RareColumn {
  readonly name: 'ancillary' | 'translations' | 'slug_source' | 'prices_valid_from';
  readonly type: 'jsonb' | 'text' | 'timestamptz';
  readonly value: (d: OfferRowDraft) => string | null;
}

const RARE_COLUMNS: readonly RareColumn[] = [
  { name: 'ancillary', type: 'jsonb', value: (d) => d.ancillary_json },
  { name: 'translations', type: 'jsonb', value: (d) => d.translations_json },
  // The text of the slug the insert makes, when the import did not make it (made_slug null).
  { name: 'slug_source', type: 'text', value: (d) => (d.made_slug === null ? d.slug_source : null) },
  { name: 'prices_valid_from', type: 'timestamptz', value: (d) => d.prices_valid_from },
];

const OFFER_COMPARED = ['external_id', 'agent_id', 'branch_id', 'investment_id', 'is_active', 'offer_data_json', 'ancillary', 'translations'] as const;

/**
 * Offers start at version 1; a change adds 1 and sets updated_at. created_at is replaced only by a
 * record that gives one, so rows with and without it go in separate statements. The rendered
 * offer_data travels once (as text) and becomes the jsonb column in the statement.
 */
export async function upsertOffers(db: Kysely<Database>, drafts: readonly OfferRowDraft[]): Promise<OfferWriteCounts> {
  const a = await upsertOfferRows(db, drafts.filter((d) => d.created_at === undefined), false);
  const b = await upsertOfferRows(db, drafts.filter((d) => d.created_at !== undefined), true);
  return {
    created: a.created + b.created,
    changed: a.changed + b.changed,
    written: [...a.written, ...b.written],
    newPhotoLists: [...a.newPhotoLists, ...b.newPhotoLists],
    madeSlugs: [...a.madeSlugs, ...b.madeSlugs],
    firstPrices: [...a.firstPrices, ...b.firstPrices],
  };
}

async function upsertOfferRows(db: Kysely<Database>, drafts: readonly OfferRowDraft[], givenCreatedAt: boolean): Promise<OfferWriteCounts> {
  if (drafts.length === 0) return { created: 0, changed: 0, written: [], newPhotoLists: [], madeSlugs: [], firstPrices: [] };
  // The optional values travel only when a row of the batch has one (else the column is null in
  // the statement): most batches have none, and each parameter of each row costs the server's
  // parse and bind (15 typed parameters per row instead of 11 cost a first import of 20,000
  // offers about 0.3 s of server time).
  const rare = RARE_COLUMNS.filter((c) => drafts.some((d) => c.value(d) !== null));
  const values = drafts.map(
    (d) =>
      // Typed parameters: both drivers then send each value as its column's type.
      sql`(${d.offer_id}::uuid, ${d.organization_id}::uuid, ${d.external_id}::text, ${d.agent_id}::uuid, ${d.branch_id}::uuid,
        ${d.investment_id}::uuid, ${d.is_active}::boolean, ${d.offer_data_json}::text, ${d.created_at ?? null}::timestamptz,
        ${d.search_vector}::tsvector, ${d.made_slug_written ?? d.made_slug}::text${sql.join(
          rare.map((c) => sql`, ${c.value(d)}::${sql.raw(c.type)}`),
          sql``,
        )})`,
  );
  const given = new Set(rare.map((c) => c.name));
  const rareColumn = (c: RareColumn) => (given.has(c.name) ? sql`r.${sql.ref(c.name)}` : sql`null::${sql.raw(c.type)}`);
  const compared = givenCreatedAt ? [...OFFER_COMPARED, 'created_at'] : [...OFFER_COMPARED];
  // The made slug is written only by the insert (the update leaves a stored slug alone), as the
  // import's end would make it: ecs_slug of the text, 'offer' when nothing is left of it. The
  // import makes it (made_slug) unless the text has a letter only the database can lower; then
  // the insert makes it, only for an id not stored yet: ecs_slug costs more than the lookup (a
  // re-import of 20,000 offers spent about a second on slugs it threw away). ecs_translation_vector (SQL, not
  // inlined) is called only with translations: its executor costs about 5 µs even for null,
  // 0.1 s per 20,000 offers.
  const validFrom = given.has('prices_valid_from') ? sql`(select p.prices_valid_from from v as p where p.offer_id = w.offer_id)` : sql`null`;
  const result = await sql<{
    offer_id: string;
    organization_id: string;
    created: boolean;
    made_slug: string | null;
    new_photo_lists: boolean;
    priced: boolean;
  }>`
    with v as (
      select r.offer_id, r.organization_id, r.external_id, r.agent_id, r.branch_id, r.investment_id, r.is_active, r.data,
        r.created_at, r.search_vector, r.made_slug, ${sql.join(RARE_COLUMNS.map((c) => sql`${rareColumn(c)} as ${sql.ref(c.name)}`))}
      from (values ${sql.join(values)}) as r (offer_id, organization_id, external_id, agent_id, branch_id, investment_id,
        is_active, data, created_at, search_vector, made_slug${sql.join(
          rare.map((c) => sql`, ${sql.ref(c.name)}`),
          sql``,
        )})),
    written as (
    insert into offers (offer_id, organization_id, external_id, agent_id, branch_id, investment_id, is_active,
                        offer_data, offer_data_json, created_at, updated_at, search_vector, ancillary,
                        translations, translation_vector, slug)
    select v.offer_id, v.organization_id, v.external_id, v.agent_id, v.branch_id, v.investment_id, v.is_active,
           v.data::jsonb, v.data, coalesce(v.created_at, now()), now(), v.search_vector, v.ancillary,
           v.translations, case when v.translations is not null then ecs_translation_vector(v.translations) end,
           case when v.made_slug is not null then v.made_slug
             when v.slug_source is not null and not exists (select 1 from offers as o where o.offer_id = v.offer_id)
             then ${madeSlug(sql`v.slug_source`, 'offer')} end
    from v
    on conflict (offer_id) do update set
      external_id = excluded.external_id, agent_id = excluded.agent_id, branch_id = excluded.branch_id,
      investment_id = excluded.investment_id, is_active = excluded.is_active, offer_data = excluded.offer_data,
      offer_data_json = excluded.offer_data_json, search_vector = excluded.search_vector, ancillary = excluded.ancillary,
      translations = excluded.translations, translation_vector = excluded.translation_vector,
      ${givenCreatedAt ? sql`created_at = excluded.created_at,` : sql``}
      ${PRICE_CHANGE}
      version = offers.version + 1, updated_at = now()
    where offers.organization_id = excluded.organization_id
      and (${sql.join(compared.map((c) => sql.ref(`offers.${c}`)))}) is distinct from (${sql.join(compared.map((c) => sql.ref(`excluded.${c}`)))})
    returning offers.offer_id, offers.organization_id, (xmax = 0) as created,
      case when xmax = 0 then offers.slug end as made_slug, (${NEW_PHOTO_LISTS}) as new_photo_lists, ${ROW_PRICES}),
    first_prices as (${firstPriceEntries(sql`written`, validFrom)})
    select w.offer_id::text as offer_id, w.organization_id::text as organization_id, w.created, w.made_slug, w.new_photo_lists,
      f.offer_id is not null as priced
    from written as w left join first_prices as f on f.offer_id = w.offer_id`.execute(db);
  let created = 0;
  const written: string[] = [];
  const newPhotoLists: string[] = [];
  const madeSlugs: OfferMadeSlug[] = [];
  const firstPrices: string[] = [];
  const madeHere = new Map<string, string>();
  for (const d of drafts) if (d.made_slug !== null) madeHere.set(d.offer_id, d.made_slug);
  for (const row of result.rows) {
    written.push(row.offer_id);
    if (row.new_photo_lists) newPhotoLists.push(row.offer_id);
    if (row.priced) firstPrices.push(row.offer_id);
    if (row.created) created += 1;
    if (row.made_slug !== null) {
      const slug = madeHere.get(row.offer_id) ?? row.made_slug;
      madeSlugs.push({ offer_id: row.offer_id, organization_id: row.organization_id, slug, written: row.made_slug });
    }
  }
  return { created, changed: result.rows.length - created, written, newPhotoLists, madeSlugs, firstPrices };
}

/** Adds words to the search vocabulary (search_lexemes); a known word is kept as it is. */
export async function addSearchLexemes(db: Kysely<Database>, lexemes: readonly string[]): Promise<void> {
  await sql`insert into search_lexemes (lexeme) select unnest(${lexemes}::text[]) on conflict do nothing`.execute(db);
}
