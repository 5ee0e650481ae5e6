/**
 * The slugs' writes (extension E12), inside the import's transaction. A record may give its `slug`;
 * the import notes those in a temporary table while it writes the records (noteGivenSlugs), and its
 * finish step settles every slug at once, set-based (assignSlugs):
 *
 *   1. a given slug (made a slug by ecs_slug) must be free in its organization and kind: not the
 *      current or an old slug of another entity, not given to another record of the bundle;
 *      otherwise it is a problem of its record (nothing is written);
 *   2. a given slug becomes the entity's current slug, and is kept in `slugs` for good, so the old
 *      current one keeps resolving;
 *   3. an entity still without a slug (new, and its record gave none) gets one made from its title
 *      and city (offers) or name (investments); when that is taken, a suffix of its id's first hex
 *      digits (6, then 12, then all 32) makes it unique. Among new offers that make the same slug,
 *      the first in the bundle takes it; among investments (made here, at the end, where the
 *      bundle's order is not known), the one with the lowest id.
 *
 * A new offer is inserted with its made slug already (src/features/offers/write.ts), and noted
 * with that slug and its record's number (noteMadeSlugs), so that step 3 does not write every new
 * row a second time: the end keeps the made slugs that step 3's first round would give
 * (settleMadeSlugs) and marks the others lost; those go through step 3's later rounds as if they
 * had been inserted without one. The command writes offers in the bundle's order and knows which
 * made slugs it has written, so an offer whose made slug an earlier one took is inserted with the
 * first suffixed slug, still noted with its made slug: when the later round gives it that slug, its
 * row is not written again. A row is written a second time only when its made slug was taken by
 * an old or given slug, or by a stored offer of the same title and city, or when a stored offer
 * before it made the same slug but holds another (settleMadeSlugs gives it back). The end reads
 * the made slugs from the notes, never from the rows: an offer's jsonb body is not read again (it
 * is large, out of line).
 *
 * A record that gives no slug keeps the stored one (a title change keeps the slug). A changed slug
 * of a stored entity is a change of it: the offer's version grows, and its updated_at (and the
 * investment's) moves, so the change feed and the webhooks carry it; an entity the import already
 * changed (updated_at is the transaction's now()) is not counted twice.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database.js';
import { CHECKED, slugText } from './made-slug.js';
import { normalizeWebsiteUrls, SLUG_KINDS, SUFFIX_LENGTHS, urlTemplateProblem, type SlugKind, type WebsiteUrls } from './model.js';

/** A slug a record gives, and where the record is (for its problem). */
export interface GivenSlug {
  readonly kind: SlugKind;
  readonly entityId: string;
  readonly organizationId: string;
  readonly slug: string;
  readonly recordNo: number;
  readonly path: string;
}

export interface SlugProblem {
  readonly recordNo: number;
  /** The record's path (the problem is at its `slug`). */
  readonly path: string;
  readonly message: string;
}

export interface SlugsSettled {
  /** Problems of given slugs (nothing was changed then). */
  readonly problems: SlugProblem[];
  /** Stored entities whose only change in this import was their slug (they changed now). */
  readonly changed: Readonly<Record<SlugKind, number>>;
}

/** Where each kind lives. */
const TABLE = {
  offer: { table: sql.table('offers'), id: sql.ref('offer_id'), versioned: true },
  investment: { table: sql.table('investments'), id: sql.ref('investment_id'), versioned: false },
} as const;

/** The text an entity's slug is made from, on its table's row. */
const SOURCE_TEXT = {
  offer: sql`coalesce(t.offer_data->>'title', '') || ' ' || coalesce(t.offer_data->>'address_city', '')`,
  investment: sql`t.name`,
} as const;

/** The made slug of a text (step 3's rule): ecs_slug of it, the kind's name when nothing is left of it. */
export function madeSlug(text: RawBuilder<unknown>, kind: SlugKind): RawBuilder<string> {
  return sql<string>`coalesce(nullif(ecs_slug(${text}), ''), ${sql.lit(kind)})`;
}

/**
 * Whether this database's ecs_slug gives the twin's slug for every character the twin checks (each
 * alone, and all of them in one text): when not (a locale that lowers them otherwise), the import
 * leaves every made slug to the database.
 */
export async function madeSlugsAgree(db: Kysely<Database>): Promise<boolean> {
  const texts = [...CHECKED, CHECKED.join(''), CHECKED.join(' ')];
  const { rows } = await sql<{ s: string }>`select ecs_slug(x) as s from unnest(${texts}::text[]) with ordinality as t(x, n) order by n`.execute(db);
  return rows.length === texts.length && rows.every((r, i) => r.s === slugText(texts[i]!));
}

/**
 * Called at the import's start: the given slugs of this import, and the new entities inserted with
 * a made slug (temporary tables, gone at commit).
 */
export async function createImportSlugTables(db: Kysely<Database>): Promise<void> {
  await sql`create temporary table import_given_slugs (
    kind text not null, entity_id uuid not null, organization_id uuid not null, given text not null,
    record_no integer not null, path text not null) on commit drop`.execute(db);
  // written: the slug the row was inserted with (the made slug, or its first suffixed form when an
  // offer before it in the bundle had made the same). place: the record's number, the order in
  // which new offers take a made slug. lost: the made slug is not the one step 3's first round
  // gives, and no later round has given the entity its slug yet.
  await sql`create temporary table import_made_slugs (
    kind text not null, entity_id uuid not null, organization_id uuid not null, slug text not null,
    written text not null, place integer not null, lost boolean not null default false) on commit drop`.execute(db);
  // By id: the later rounds mark the lost ones they settle (thousands in a first import).
  await sql`create index on import_made_slugs (entity_id)`.execute(db);
}

/** A new entity inserted with its made slug, and the slug its row holds (the made one, or its first suffixed form). */
export interface MadeSlug {
  readonly entityId: string;
  readonly organizationId: string;
  readonly slug: string;
  readonly written: string;
  /** Its record's number in the bundle: the first of the new entities that make a slug takes it. */
  readonly place: number;
}

/** Notes new entities this import inserted with their made slug (judged at the end by settleMadeSlugs). */
export async function noteMadeSlugs(db: Kysely<Database>, kind: SlugKind, made: readonly MadeSlug[]): Promise<void> {
  if (made.length === 0) return;
  await sql`insert into import_made_slugs (kind, entity_id, organization_id, slug, written, place)
    select ${kind}, * from unnest(${made.map((m) => m.entityId)}::uuid[], ${made.map((m) => m.organizationId)}::uuid[],
      ${made.map((m) => m.slug)}::text[], ${made.map((m) => m.written)}::text[], ${made.map((m) => m.place)}::integer[])`.execute(db);
}

export async function noteGivenSlugs(db: Kysely<Database>, given: readonly GivenSlug[]): Promise<void> {
  if (given.length === 0) return;
  const values = given.map(
    (g) => sql`(${g.kind}::text, ${g.entityId}::uuid, ${g.organizationId}::uuid, ${g.slug}::text, ${g.recordNo}::integer, ${g.path}::text)`,
  );
  await sql`insert into import_given_slugs (kind, entity_id, organization_id, given, record_no, path) values ${sql.join(values)}`.execute(db);
}

/** The problems of the given slugs (step 1), in record order. */
async function givenSlugProblems(db: Kysely<Database>): Promise<SlugProblem[]> {
  const result = await sql<{ record_no: number; path: string; slug: string; kind: string; other: string | null; other_record: number | null }>`
    with given as (select g.*, ecs_slug(g.given) as slug from import_given_slugs g)
    select g.record_no, g.path, g.slug, g.kind,
      (select s.entity_id::text from slugs s
        where s.organization_id = g.organization_id and s.kind = g.kind and s.slug = g.slug and s.entity_id <> g.entity_id) as other,
      (select min(h.record_no) from given h
        where h.organization_id = g.organization_id and h.kind = g.kind and h.slug = g.slug and h.entity_id <> g.entity_id
          and h.record_no < g.record_no) as other_record
    from given g
    order by g.record_no`.execute(db);
  const problems: SlugProblem[] = [];
  for (const row of result.rows) {
    let message: string | undefined;
    if (row.slug === '') message = 'a slug needs at least one letter or digit';
    else if (row.other !== null) message = `slug '${row.slug}' is already used by ${row.kind} ${row.other} of the organization (slugs are never reused: old ones keep resolving)`;
    else if (row.other_record !== null) message = `slug '${row.slug}' is also given to another ${row.kind} (record ${row.other_record})`;
    if (message !== undefined) problems.push({ recordNo: row.record_no, path: row.path, message });
  }
  return problems;
}

/**
 * Sets an entity's current slug (and keeps it in `slugs`). A stored entity the import did not
 * otherwise change (its updated_at is not the transaction's now()) changes now; returns how many did.
 */
async function setSlugs(db: Kysely<Database>, kind: SlugKind, rows: RawBuilder<unknown>, settleLost = false): Promise<number> {
  const { table, id, versioned } = TABLE[kind];
  const result = await sql<{ bump: boolean }>`
    with chosen as (${rows}),
    kept as (
      insert into slugs (organization_id, kind, slug, entity_id)
      select organization_id, ${kind}, slug, entity_id from chosen
      on conflict (organization_id, kind, slug) do nothing
    )${
      settleLost
        ? sql`,
    settled as (
      update import_made_slugs as m set lost = false
      from chosen c where m.kind = ${kind} and m.lost and m.entity_id = c.entity_id
    )`
        : sql``
    }
    update ${table} as t set slug = c.slug,
      ${versioned ? sql`version = t.version + case when c.bump then 1 else 0 end,` : sql``}
      updated_at = case when c.bump then now() else t.updated_at end
    from (
      select c.entity_id, c.slug, (x.slug is not null and x.updated_at <> now()) as bump
      from chosen c join ${table} as x on x.${id} = c.entity_id
      where x.slug is distinct from c.slug
    ) as c
    where t.${id} = c.entity_id
    returning c.bump`.execute(db);
  return result.rows.filter((r) => r.bump).length;
}

/** Step 2: every given slug becomes current. */
function applyGivenSlugs(db: Kysely<Database>, kind: SlugKind): Promise<number> {
  return setSlugs(
    db,
    kind,
    sql`select organization_id, entity_id, ecs_slug(given) as slug from import_given_slugs where kind = ${kind}`,
  );
}

/**
 * Step 3, one round: the entities of these organizations without a slug take their made slug
 * with `suffix` hex digits of their id (0: none) where it is free; among several that would take
 * the same, the first by id (for suffixed ones the same digits of two ids: about never). With
 * `lost`, the import's lost made slugs (settleMadeSlugs) count as no slug: their made slug is the
 * noted one, and a round that gives them one writes it over it.
 */
async function makeSlugsRound(db: Kysely<Database>, kind: SlugKind, organizationIds: readonly string[], suffix: number, lost: boolean): Promise<void> {
  const { table, id } = TABLE[kind];
  const made = madeSlug(SOURCE_TEXT[kind], kind);
  const withSuffix = (base: RawBuilder<unknown>, entityId: RawBuilder<unknown>) =>
    suffix === 0 ? base : sql`${base} || '-' || left(replace(${entityId}::text, '-', ''), ${sql.lit(suffix)})`;
  await setSlugs(
    db,
    kind,
    sql`select organization_id, entity_id, slug from (
        select c.*, row_number() over (partition by c.organization_id, c.slug order by c.entity_id) as n
        from (
          select t.organization_id, t.${id} as entity_id, ${withSuffix(made, sql`t.${id}`)} as slug
          from ${table} as t
          where t.organization_id = any(${[...organizationIds]}::uuid[]) and t.slug is null
          ${lost ? sql`union all ${lostMadeSlugs(kind, withSuffix(sql`m.slug`, sql`m.entity_id`))}` : sql``}
        ) as c
        where not exists (select 1 from slugs s where s.organization_id = c.organization_id and s.kind = ${kind} and s.slug = c.slug)
      ) as free
      where n = 1`,
    lost,
  );
}

/**
 * The import's lost made slugs still waiting for their slug, as (organization_id, entity_id, slug)
 * with `slug` the candidate made of the noted made slug. A lost one is settled (no longer lost)
 * once a round gives it its slug (rounds give only suffixed slugs to them: their made slug is
 * taken); when the row already holds that slug (inserted with it: written), it is not written again.
 */
function lostMadeSlugs(kind: SlugKind, candidate: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`select m.organization_id, m.entity_id, ${candidate}
    from import_made_slugs m
    where m.kind = ${kind} and m.lost`;
}

/**
 * Before step 3: the entities inserted with their made slug keep it when step 3's first round would
 * give it to them: no slug of the organization (current or old, given in this import included) is
 * the same, and no other new entity that made it comes before it in the bundle (an entity without
 * a slug, not noted, comes after the noted ones, by id). Those are kept in `slugs`; the others are
 * marked lost, and step 3's later rounds write theirs over it. The noted slug is the one made from
 * the record's title and city, the same text the row's offer_data gives (both are strings or
 * absent); the row holds it, or its first suffixed form when an offer before it in the bundle had
 * made it too. Such an offer loses here unless that one turned out to be stored (it claimed the
 * slug in the command, but a stored offer keeps its own): then its row is given the made slug now.
 * Returns how many lost.
 */
async function settleMadeSlugs(db: Kysely<Database>, kind: SlugKind, organizationIds: readonly string[]): Promise<number> {
  const { table, id } = TABLE[kind];
  const made = madeSlug(SOURCE_TEXT[kind], kind);
  const result = await sql<{ lost: number }>`
    with competing as (
      select m.organization_id, m.entity_id, m.slug as made, m.written, m.place, true as noted
      from import_made_slugs m
      where m.kind = ${kind}
      union all
      select t.organization_id, t.${id}, ${made}, null, null, false
      from ${table} as t
      where t.organization_id = any(${[...organizationIds]}::uuid[]) and t.slug is null
    ),
    judged as (
      select c.*, c.noted
        and row_number() over (partition by c.organization_id, c.made order by c.place nulls last, c.entity_id) = 1
        and not exists (select 1 from slugs s where s.organization_id = c.organization_id and s.kind = ${kind} and s.slug = c.made) as keeps
      from competing c
    ),
    kept as (
      insert into slugs (organization_id, kind, slug, entity_id)
      select organization_id, ${kind}, made, entity_id from judged where keeps
    ),
    given_back as (
      update ${table} as t set slug = j.made
      from judged j
      where j.keeps and j.written <> j.made and t.${id} = j.entity_id
    ),
    lost as (
      update import_made_slugs as m set lost = true
      from judged j
      where m.kind = ${kind} and m.entity_id = j.entity_id and j.noted and not j.keeps
      returning 1
    )
    select count(*)::int as lost from lost`.execute(db);
  return result.rows[0]!.lost;
}

/** Entities of these organizations still without their slug (with `lost`: the import's lost made slugs too). */
async function withoutSlug(db: Kysely<Database>, kind: SlugKind, organizationIds: readonly string[], lost: boolean): Promise<number> {
  const { table } = TABLE[kind];
  const result = await sql<{ n: number }>`
    select (select count(*)::int from ${table} where organization_id = any(${[...organizationIds]}::uuid[]) and slug is null)
      ${lost ? sql`+ (select count(*)::int from (${lostMadeSlugs(kind, sql`m.slug`)}) as l)` : sql``} as n`.execute(db);
  return result.rows[0]!.n;
}

/**
 * Settles the slugs of the import (call it after every record is written, before the problems are
 * judged): the problems of given slugs (then nothing was changed), else every entity of these
 * organizations has its slug, and the count of stored ones that changed by it alone.
 */
export async function assignSlugs(db: Kysely<Database>, organizationIds: readonly string[]): Promise<SlugsSettled> {
  const problems = await givenSlugProblems(db);
  if (problems.length > 0) return { problems, changed: { offer: 0, investment: 0 } };
  const changed = { offer: await applyGivenSlugs(db, 'offer'), investment: await applyGivenSlugs(db, 'investment') };
  if (organizationIds.length > 0) for (const kind of SLUG_KINDS) await settleMadeSlugs(db, kind, organizationIds);
  await makeSlugs(db, organizationIds, true);
  return { problems: [], changed };
}

/** Step 3 alone: every offer and investment of these organizations without a slug gets one made. */
export function makeMissingSlugs(db: Kysely<Database>, organizationIds: readonly string[]): Promise<void> {
  return makeSlugs(db, organizationIds, false);
}

/** Step 3's rounds (with `lost`: in an import, over its lost made slugs too). */
async function makeSlugs(db: Kysely<Database>, organizationIds: readonly string[], lost: boolean): Promise<void> {
  if (organizationIds.length === 0) return;
  for (const kind of SLUG_KINDS) {
    for (const suffix of SUFFIX_LENGTHS) {
      if ((await withoutSlug(db, kind, organizationIds, lost)) === 0) break;
      await makeSlugsRound(db, kind, organizationIds, suffix, lost);
    }
    if ((await withoutSlug(db, kind, organizationIds, lost)) > 0) throw new Error(`could not make a unique ${kind} slug`);
  }
}

// URL templates per website.

/** A mistake in what was asked on the command line (unknown website, a malformed template). */
export class UrlTemplateError extends Error {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Sets a website's URL templates: `set` gives the templates to set (the others stay as they are),
 * or null to remove both. Returns the website's templates after it, and whether they changed. The
 * sitemap is never served from the response cache, so nothing else needs to know.
 */
export async function setWebsiteUrls(
  db: Kysely<Database>,
  websiteId: string,
  set: WebsiteUrls | null,
): Promise<{ urls: WebsiteUrls | null; changed: boolean }> {
  if (!UUID.test(websiteId)) throw new UrlTemplateError(`website id must be a UUID, got "${websiteId}"`);
  for (const template of Object.values(set ?? {})) {
    const problem = urlTemplateProblem(template);
    if (problem) throw new UrlTemplateError(problem);
  }
  return db.transaction().execute(async (trx) => {
    const found = await sql<{ urls: WebsiteUrls | null }>`
      select urls from websites where website_id = ${websiteId.toLowerCase()}::uuid for update`.execute(trx);
    if (found.rows.length === 0) throw new UrlTemplateError(`unknown website ${websiteId.toLowerCase()}`);
    const before = found.rows[0]!.urls;
    const urls = set === null ? null : normalizeWebsiteUrls({ ...before, ...set });
    const changed = JSON.stringify(before) !== JSON.stringify(urls);
    if (changed) {
      await sql`update websites set urls = ${urls === null ? null : JSON.stringify(urls)}::jsonb
        where website_id = ${websiteId.toLowerCase()}::uuid`.execute(trx);
    }
    return { urls, changed };
  });
}

/** A website record's `urls` in a bundle: JSON text (null: none). */
export interface ImportedWebsiteUrls {
  readonly websiteId: string;
  readonly urls: string | null;
}

/**
 * The import's writes of URL templates: only for the website records that give `urls` (or null);
 * a record without it keeps the stored templates, as it keeps its scope.
 */
export async function writeImportedWebsiteUrls(db: Kysely<Database>, rows: readonly ImportedWebsiteUrls[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((r) => sql`(${r.websiteId}::uuid, ${r.urls}::jsonb)`);
  await sql`update websites as w set urls = v.urls
    from (values ${sql.join(values)}) as v (website_id, urls)
    where w.website_id = v.website_id and w.urls is distinct from v.urls`.execute(db);
}
