/**
 * Offer reads: one offer by id, and a filtered, sorted page of offers. Only active offers of the
 * caller's organization exist here. offer_data is never parsed for JSON responses: the stored
 * offer_data_json is fetched as UTF-8 bytes and copied into the response as it is (for XML it is
 * decoded and parsed lazily).
 *
 * Each offer's body comes from the offer body cache (src/features/offers/body-cache.ts) that buildApp
 * hands the reader, when it holds the body of the row's current version: every query reads the row's version token
 * (xmin, version, updated_at: xmin changes with every write of the row), and only bodies that are
 * missing or stale are read, in one more query. Reading a body means fetching it from out-of-line
 * storage and decompressing it, most of the database's work for a page.
 *
 * A page past the first is read as a "deferred join": the inner query finds the page's offer ids
 * (and sort keys) in the wanted order, usually from an index alone, and only those rows are then
 * read. A deep page (OFFSET 4,950) then skips narrow index entries instead of whole rows, and the
 * planner has no reason to sort thousands of rows. docs/performance.md shows the plans.
 *
 * A scoped website (extension E7) sees only the offers of its scope: the lists add the scope's
 * conditions (src/features/access/scope-sql.ts), one offer by id is read by a statement of its own that
 * calls the scope rule. Without a scope every query keeps its text.
 */
import { sql, type AliasedRawBuilder, type RawBuilder } from 'kysely';
import type { OfferBodyCache } from './body-cache.js';
import { prepared } from '../../db/prepared.js';
import { offerInScopeSql, offerScopeCondition, scopeJson } from '../access/index.js';
import { DISTANCE, type OfferInclude, type OfferListRequest } from './query/language.js';
import type { OfferView, OffersPageView } from './model.js';
import type { Agent, Branch, Investment, Organization } from '../../contract/resources.js';
import type { Visibility } from '../access/index.js';
import { findAgentsByIds } from '../catalog/index.js';
import { findBranchesByIds } from '../catalog/index.js';
import { findInvestmentsByIds } from '../catalog/index.js';
import { sortExpression } from './query/sql.js';
import { filterCondition } from './query/operators-sql.js';
import { searchCondition, searchRelevance } from './query/search-sql.js';
import { findOrganization } from '../catalog/index.js';
import type { ReadDb } from '../../db/readonly.js';
import { fieldTextsOf, sparseJson, type FieldSelection } from './sparse-fields.js';
import type { OfferColumnsCache } from './facets/columns-cache.js';
import { offerColumnsLoader } from './facets/columns-read.js';
import { memoryCanAnswer, pageFromMemory, type CardRow } from './cards/memory-answers.js';
import { readContentVersion } from '../content-version/index.js';
import { translatedFieldTexts, translatedOfferData } from './translated.js';
import type { OfferTranslation } from '../translations/index.js';

export interface OfferListQuery extends OfferListRequest {
  /** Limits the list to one investment's offers. */
  investmentId?: string;
  include: ReadonlySet<OfferInclude>;
  /** Sparse fields (extension E13): offer_data holds only these; undefined: every field. */
  fields?: FieldSelection | undefined;
}

interface OfferRowSlice {
  /** With `lang` (E12): the offer's translation into it as JSON text; null when it has none. */
  translation?: string | null;
  offer_id: string;
  external_id: string;
  created_at: string;
  updated_at: string;
  /** xmin/version/updated_at of the row: equal tokens, equal offer_data. */
  row_token: string;
  /** offer_data_json as UTF-8 bytes; null or absent when the body cache holds them. */
  offer_data_bytes?: Uint8Array | null;
  version: number;
  agent_id: string | null;
  branch_id: string | null;
  investment_id: string | null;
  /** How many offers matched, when the page's own statement counted them (see listOffers). */
  matches?: string;
}

const rowToken = (alias: 'o' | 'r') =>
  sql<string>`concat(${sql.ref(`${alias}.xmin`)}, '/', ${sql.ref(`${alias}.version`)}, '/', ${sql.ref(`${alias}.updated_at`)})`;

/**
 * The columns of an offer response but its body, which withBodies() adds: read in the same query,
 * the body would be fetched and decompressed for every row a sort looks at, not only the page's.
 */
function offerColumns(alias: 'o' | 'r', lang: string | undefined): AliasedRawBuilder<unknown, string>[] {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  return [
    ...(lang === undefined ? [] : [translationColumn(alias, lang)]),
    sql<string>`${col('offer_id')}`.as('offer_id'),
    sql<string>`${col('external_id')}`.as('external_id'),
    sql<string>`${col('created_at')}`.as('created_at'),
    sql<string>`${col('updated_at')}`.as('updated_at'),
    rowToken(alias).as('row_token'),
    sql<number>`${col('version')}`.as('version'),
    sql<string | null>`${col('agent_id')}`.as('agent_id'),
    sql<string | null>`${col('branch_id')}`.as('branch_id'),
    sql<string | null>`${col('investment_id')}`.as('investment_id'),
  ];
}

/** The offer's translation into `lang` (E12), as JSON text: small, read with the row. */
const translationColumn = (alias: 'o' | 'r', lang: string) =>
  sql<string | null>`(${sql.ref(`${alias}.translations`)} -> ${lang}::text)::text`.as('translation');

function activeOffersOf(db: ReadDb, visibility: Visibility) {
  const active = db.selectFrom('offers as o').where('o.organization_id', '=', visibility.organizationId).where('o.is_active', '=', true);
  const inScope = offerScopeCondition(visibility.scope, 'o');
  return inScope ? active.where(inScope) : active;
}

/** The row version token of `o` / `r`, as SQL text (see rowToken). */
const O_TOKEN = sql<string>`concat(o.xmin, '/', o.version, '/', o.updated_at)`;
const R_TOKEN = sql<string>`concat(r.xmin, '/', r.version, '/', r.updated_at)`;

/**
 * The offer reads of the API. buildApp makes one with the process's body cache (without one, every
 * body is read from the database).
 */
export class OfferReader {
  constructor(
    private readonly db: ReadDb,
    private readonly bodies?: OfferBodyCache,
    /** The organizations' offer columns and cards: sparse pages they hold are answered from them. */
    private readonly columns?: OfferColumnsCache,
  ) {}

  /** One active offer the caller may see, or undefined. */
  find(
    visibility: Visibility,
    offerId: string,
    include: ReadonlySet<OfferInclude>,
    fields?: FieldSelection,
    lang?: string,
  ): Promise<OfferView | undefined> {
    return findOffer(this.db, this.bodies, visibility, offerId, include, fields, lang);
  }

  /**
   * The active offers the caller may see among these ids, in no particular order (similar offers,
   * extension E13): found by the primary key, so a handful of ids reads a handful of rows.
   */
  findMany(visibility: Visibility, offerIds: readonly string[], fields?: FieldSelection, lang?: string): Promise<OfferView[]> {
    return findOffers(this.db, this.bodies, visibility, offerIds, fields, lang);
  }

  /** One page of the active offers the caller may see that match the query. */
  async list(visibility: Visibility, query: OfferListQuery): Promise<OffersPageView> {
    if (this.columns !== undefined && memoryCanAnswer(query)) {
      const page = await listFromMemory(this.db, this.columns, visibility, { ...query, fields: query.fields });
      if (page !== undefined) return page;
    }
    return listOffers(this.db, this.bodies, visibility, query);
  }

  /** The views of offer rows made from cards (cards/memory-answers.ts): `include` read as for any page. */
  viewsOfCards(visibility: Visibility, rows: readonly CardRow[], include: ReadonlySet<OfferInclude>, fields: FieldSelection): Promise<OfferView[]> {
    return withRelated(this.db, visibility, rows, include, alreadyCut(fields), undefined);
  }
}

/**
 * A sparse page from the organization's columns and cards at the database's current content
 * version (no count, page or body statement); undefined when they cannot answer it (the
 * organization too large to hold, or an offer without a card): the body path answers then.
 */
async function listFromMemory(
  db: ReadDb,
  columns: OfferColumnsCache,
  visibility: Visibility,
  query: OfferListQuery & { fields: FieldSelection },
): Promise<OffersPageView | undefined> {
  const version = await readContentVersion(db);
  if (version === undefined) return undefined;
  const snapshot = await columns.get(visibility.organizationId, version, offerColumnsLoader(db));
  if (snapshot === undefined) return undefined;
  const found = pageFromMemory(snapshot, { scope: visibility.scope, investmentId: query.investmentId }, query);
  if (found === undefined) return undefined;
  return {
    items: await withRelated(db, visibility, found.rows, query.include, alreadyCut(query.fields), undefined), // memory answers no `lang`
    page: query.page,
    size: query.size,
    total: found.total,
    pages: found.total === 0 ? 0 : Math.ceil(found.total / query.size),
  };
}

async function findOffer(
  db: ReadDb,
  bodies: OfferBodyCache | undefined,
  visibility: Visibility,
  offerId: string,
  include: ReadonlySet<OfferInclude>,
  fields: FieldSelection | undefined,
  lang: string | undefined,
): Promise<OfferView | undefined> {
  const { organizationId, scope } = visibility;
  // The body only when the cache does not hold the current one (a null token never matches).
  // Raw SQL with a fixed text: the hottest query of the service, built without a query builder.
  const held = bodies?.tokenOf(offerId) ?? null;
  const inScope = scope ? sql`and ${offerInScopeSql(scopeJson(scope), 'o')}` : sql``;
  // With `lang` (E12), statements of their own: the texts without it stay as they are.
  const name = `find_offer${scope ? '_scoped' : ''}${lang === undefined ? '' : '_lang'}`;
  const translation = lang === undefined ? sql`` : sql`(o.translations -> ${lang}::text)::text as translation,`;
  const result = await sql<OfferRowSlice>`${prepared(name)}
    select ${translation} o.offer_id, o.external_id, o.created_at, o.updated_at, ${O_TOKEN} as row_token, o.version,
      o.agent_id, o.branch_id, o.investment_id,
      case when ${O_TOKEN} = ${held}::text then null else convert_to(o.offer_data_json, 'UTF8') end as offer_data_bytes
    from offers as o
    where o.organization_id = ${organizationId} and o.is_active and o.offer_id = ${offerId} ${inScope}`.execute(db);
  const row = result.rows[0];
  if (!row) return undefined;
  const rows = await withBodies(db, organizationId, [row], bodies);
  const [view] = await withRelated(db, visibility, rows, include, sparse(bodies, fields), lang, bodies);
  return view;
}

async function findOffers(
  db: ReadDb,
  bodies: OfferBodyCache | undefined,
  visibility: Visibility,
  offerIds: readonly string[],
  fields: FieldSelection | undefined,
  lang: string | undefined,
): Promise<OfferView[]> {
  if (offerIds.length === 0) return [];
  const { organizationId, scope } = visibility;
  const inScope = scope ? sql`and ${offerInScopeSql(scopeJson(scope), 'o')}` : sql``;
  const translation = lang === undefined ? sql`` : sql`(o.translations -> ${lang}::text)::text as translation,`;
  const rows = (
    await sql<OfferRowSlice>`select ${translation} o.offer_id, o.external_id, o.created_at, o.updated_at, ${O_TOKEN} as row_token, o.version,
      o.agent_id, o.branch_id, o.investment_id
    from offers as o
    where o.organization_id = ${organizationId} and o.is_active and o.offer_id = any(${[...offerIds]}::uuid[]) ${inScope}`.execute(db)
  ).rows;
  const withData = await withBodies(db, organizationId, rows, bodies);
  return withRelated(db, visibility, withData, new Set(), sparse(bodies, fields), lang, bodies);
}

/**
 * Gives every row its body bytes: from the cache when it holds the row's current version,
 * otherwise read (all missing ones in one query) and kept.
 */
async function withBodies(
  db: ReadDb,
  organizationId: string,
  rows: readonly OfferRowSlice[],
  bodies: OfferBodyCache | undefined,
): Promise<OfferRowSlice[]> {
  const missing: OfferRowSlice[] = [];
  for (const row of rows) {
    if (row.offer_data_bytes) {
      bodies?.set(row.offer_id, row.row_token, asBuffer(row.offer_data_bytes));
      continue;
    }
    const held = bodies?.get(row.offer_id, row.row_token);
    if (held) row.offer_data_bytes = held;
    else missing.push(row);
  }
  if (missing.length === 0) return [...rows];
  const read = (
    await sql<{ offer_id: string; row_token: string; bytes: Uint8Array }>`${prepared('read_offer_bodies')}
      select r.offer_id, ${R_TOKEN} as row_token, convert_to(r.offer_data_json, 'UTF8') as bytes
      from offers as r
      where r.organization_id = ${organizationId} and r.offer_id = any(${missing.map((row) => row.offer_id)}::uuid[])`.execute(db)
  ).rows;
  const byId = new Map(read.map((r) => [r.offer_id, r]));
  for (const row of missing) {
    const found = byId.get(row.offer_id);
    if (!found) continue;
    const bytes = asBuffer(found.bytes);
    // Read a moment later than its row: an import in between gives the newer body, kept under its own token.
    bodies?.set(row.offer_id, found.row_token, bytes);
    row.offer_data_bytes = bytes;
  }
  // A row deleted between the two reads has no body; it is left out rather than failing the page.
  return rows.filter((row) => row.offer_data_bytes);
}

/** Largest OFFSET we send; a page past it is empty anyway. */
const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

async function listOffers(
  db: ReadDb,
  bodies: OfferBodyCache | undefined,
  visibility: Visibility,
  query: OfferListQuery,
): Promise<OffersPageView> {
  const { organizationId } = visibility;
  let matching = activeOffersOf(db, visibility);
  if (query.investmentId !== undefined) matching = matching.where('o.investment_id', '=', query.investmentId);
  for (const filter of query.filters) matching = matching.where(filterCondition(filter));
  if (query.search !== undefined) matching = matching.where(searchCondition(query.search, organizationId, query.lang));

  // As asked; else the best matches of a search first; else newest first. offer_id breaks ties,
  // so pages never overlap.
  const sortKey = query.sort
    ? sortExpression(query.sort)
    : query.search !== undefined
      ? searchRelevance(query.search)
      : sql.ref('o.created_at');
  const descending = query.sort ? query.sort.direction === 'desc' : true;
  const order = (key: RawBuilder<unknown> | ReturnType<typeof sql.ref>) =>
    query.sort
      ? sql`${key} ${sql.raw(descending ? 'desc' : 'asc')} nulls last`
      : sql`${key} desc`;

  const offset = Math.min((query.page - 1) * query.size, MAX_OFFSET);
  // A search in relevance order, or a distance sort, computes the order of every match anyway (no
  // index gives it), so the page's statement also counts them; a separate count would find the
  // matches a second time.
  const countInPage = query.sort ? query.sort.field.name === DISTANCE.name : query.search !== undefined;
  const countColumn = countInPage ? [sql<string>`count(*) over ()`.as('matches')] : [];
  // The first page reads its rows directly (the index gives the order, LIMIT stops early); a later
  // page first finds its keys past the OFFSET, then reads only those rows (a deferred join). So does
  // a distance sort's first page: offers_org_location_idx holds the coordinates and offer_id, so
  // every match is found, measured and ranked from the index alone, and only the page's rows are
  // read from the table (not the 700 rows of a 3 km circle). And so does a search in relevance
  // order: the relevance is computed as each match is read and the count keeps only keys, where
  // selecting the page's columns made the count hold every match's wide row (spilling to disk for
  // a common word) and compute the relevance afterwards. These are the pages that count in their
  // statement.
  const pageQuery =
    offset === 0 && !countInPage
      ? matching
          .select([...offerColumns('o', query.lang), ...countColumn])
          .orderBy(order(sortKey))
          .orderBy('o.offer_id', 'asc')
          .limit(query.size)
      : db
          .selectFrom(
            matching
              .select([sql.ref('o.offer_id').as('offer_id'), sql`${sortKey}`.as('sort_key'), ...countColumn])
              // By the output column: the key is computed once per match, not again for the sort.
              .orderBy(order(sql.ref('sort_key')))
              .orderBy('o.offer_id', 'asc')
              .limit(query.size)
              .offset(offset)
              .as('p'),
          )
          .innerJoin('offers as r', 'r.offer_id', 'p.offer_id')
          .select([...offerColumns('r', query.lang), ...(countInPage ? [sql<string>`p.matches`.as('matches')] : [])])
          // Redundant with the inner query; kept so that no row of another organization can ever join.
          .where('r.organization_id', '=', organizationId)
          .orderBy(order(sql.ref('p.sort_key')))
          .orderBy('p.offer_id', 'asc');

  const countAll = async () => Number((await matching.select(sql<string>`count(*)`.as('total')).executeTakeFirstOrThrow()).total);
  const readPage = () => pageQuery.execute() as Promise<unknown> as Promise<OfferRowSlice[]>;
  let rows: OfferRowSlice[];
  let total: number;
  if (countInPage) {
    rows = await readPage();
    // A page past the last holds no row to carry the count.
    total = rows[0]?.matches !== undefined ? Number(rows[0].matches) : offset === 0 ? 0 : await countAll();
  } else {
    [total, rows] = await Promise.all([countAll(), readPage()]);
  }
  const items = await withBodies(db, organizationId, rows, bodies);
  return {
    items: await withRelated(db, visibility, items, query.include, sparse(bodies, query.fields), query.lang, bodies),
    page: query.page,
    size: query.size,
    total,
    pages: total === 0 ? 0 : Math.ceil(total / query.size),
  };
}

/**
 * Loads the included entities of a set of offers (limited to the organization; investments also to
 * the scope, which in-scope offers satisfy anyway) and builds the views.
 */
async function withRelated(
  db: ReadDb,
  visibility: Visibility,
  rows: readonly OfferRowSlice[],
  include: ReadonlySet<OfferInclude>,
  cut: SparseCut | undefined,
  lang: string | undefined,
  /** Where a translated offer_data is kept between requests (with `lang`). */
  bodies?: OfferBodyCache,
): Promise<OfferView[]> {
  if (rows.length === 0) return [];
  const { organizationId } = visibility;
  const ids = (pick: (row: OfferRowSlice) => string | null) => [
    ...new Set(rows.map(pick).filter((id): id is string => id !== null)),
  ];
  const none = Promise.resolve(new Map<string, never>());
  const [agents, branches, investments, organization] = await Promise.all([
    include.has('agent') ? findAgentsByIds(db, organizationId, ids((r) => r.agent_id)) : none,
    include.has('branch') ? findBranchesByIds(db, organizationId, ids((r) => r.branch_id)) : none,
    include.has('investment') ? findInvestmentsByIds(db, visibility, ids((r) => r.investment_id), lang) : none,
    include.has('organization') ? findOrganization(db, organizationId) : Promise.resolve(undefined),
  ]);
  return rows.map((row) =>
    toOfferView(
      row,
      {
        agent: (row.agent_id && agents.get(row.agent_id)) || null,
        branch: (row.branch_id && branches.get(row.branch_id)) || null,
        investment: (row.investment_id && investments.get(row.investment_id)) || null,
        organization: organization ?? null,
      },
      cut,
      lang,
      bodies,
    ),
  );
}

/** Bytes from the driver (pg: Buffer; PGlite: Uint8Array) as a Buffer, without copying. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Cuts a row's stored offer_data down to a selection of fields (sparse fields, extension E13):
 * from the field texts the body cache keeps with the body, made once per stored version.
 */
interface SparseCut {
  readonly selection: FieldSelection;
  readonly bytesOf: (row: OfferRowSlice, stored: Buffer, translation: OfferTranslation | undefined) => Buffer;
}

/** Rows whose bytes are the sparse offer_data already (made from cards). */
function alreadyCut(selection: FieldSelection): SparseCut {
  return { selection, bytesOf: (_row, stored) => stored };
}

function sparse(bodies: OfferBodyCache | undefined, selection: FieldSelection | undefined): SparseCut | undefined {
  if (selection === undefined) return undefined;
  return {
    selection,
    bytesOf: (row, stored, translation) => {
      const texts = bodies ? bodies.fieldTexts(row.offer_id, row.row_token, stored) : fieldTextsOf(stored.toString('utf8'));
      return Buffer.from(sparseJson(translation ? translatedFieldTexts(texts, translation) : texts, selection));
    },
  };
}

/** A translated offer's offer_data (E12), kept by the body cache beside the stored body when it holds it. */
function translatedBody(bodies: OfferBodyCache | undefined, row: OfferRowSlice, stored: Buffer, lang: string, translation: () => OfferTranslation): Buffer {
  const make = () => translatedOfferData(stored, translation());
  return bodies ? bodies.translated(row.offer_id, row.row_token, lang, make) : make();
}

function toOfferView(
  row: OfferRowSlice,
  related: { agent: Agent | null; branch: Branch | null; organization: Organization | null; investment: Investment | null },
  cut: SparseCut | undefined,
  lang: string | undefined,
  bodies: OfferBodyCache | undefined,
): OfferView {
  const stored = asBuffer(row.offer_data_bytes!);
  // With `lang` (E12) and a translation into it, the translated fields replace the original ones.
  const translated = lang !== undefined && !!row.translation && row.translation !== 'null';
  const translation = () => JSON.parse(row.translation!) as OfferTranslation;
  // With sparse fields, the cut text stands for offer_data everywhere (JSON bytes, XML object).
  const bytes = cut
    ? cut.bytesOf(row, stored, translated ? translation() : undefined)
    : translated
      ? translatedBody(bodies, row, stored, lang, translation)
      : stored;
  let text: string | undefined;
  let parsed: Record<string, unknown> | undefined;
  // Decoded only if a renderer asks for the text (XML); JSON copies the bytes.
  const dataJson = (): string => (text ??= bytes.toString('utf8'));
  return {
    offer_id: row.offer_id,
    external_id: row.external_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    // Parsed only if a renderer asks for it (XML); JSON copies the stored bytes.
    get offer_data(): Record<string, unknown> {
      parsed ??= JSON.parse(dataJson()) as Record<string, unknown>;
      return parsed;
    },
    get offer_data_json(): string {
      return dataJson();
    },
    offer_data_json_bytes: bytes,
    ...(cut ? { fields: cut.selection } : {}),
    ...(translated ? { language: lang } : {}),
    version: row.version,
    ...related,
  };
}
