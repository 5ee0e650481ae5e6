/**
 * Offers (many, large) are never kept: each goes into a batch, and a batch is checked and written
 * as soon as every entity its offers link to is known. The rare offer that comes before such an
 * entity is only remembered by its record number (`deferred`) and read again in a second pass.
 *
 * Batches are pipelined: while the next batch is read and its rows prepared, the previous one is
 * checked and its write waits on the connection, so the database always has the next statement.
 */
import type { ImportContext } from './import-context.js';
import type { EntityStage } from './entity-stage.js';
import type { Link, LinkChecker } from './link-checker.js';
import { within } from './problems.js';
import { offerPriceEntry, offerRow } from './rows.js';
import type { OfferInput } from './schemas.js';
import { isUuid } from './validate.js';
import { storedOwners } from './lookups-sql.js';
import { rememberSeenOffers } from './session-sql.js';
import { SearchVocabulary } from './search-vocabulary.js';
import { addSearchLexemes, upsertOffers, type OfferRowDraft } from '../features/offers/index.js';
import { anyUnavailableSources, notePhotoOffers, photoUrlsOf, retryUnavailableSources } from '../features/photos/index.js';
import { appendPriceHistory, type PriceEntryDraft } from '../features/prices/index.js';
import { madeOfferSlug, noteGivenSlugs, noteMadeSlugs, suffixedMadeSlug } from '../features/seo/index.js';

/**
 * A batch is sent when it holds this many offers (batchSize) or this much offer_data text, whichever
 * first. 1 MB (about 160 offers of the benchmark's 6.5 KB) measured as fast as 2 MB on 100,000 offers
 * and kept the import's peak RSS about 30 MB lower (269 MB against 298 MB): two batches are in
 * flight, each also carrying its search vectors.
 */
const BATCH_BYTES = 1 * 1024 * 1024;

type OfferLinks = Pick<OfferInput, 'offer_id' | 'organization_id' | 'agent_id' | 'branch_id' | 'investment_id'>;

interface QueuedOffer {
  readonly recordNo: number;
  readonly path: string;
  /** The offer's id and links (the rest of the record is not kept). */
  readonly record: OfferLinks;
  /** The row, prepared while the previous batch is in the database (none once there is a problem). */
  readonly draft?: OfferRowDraft | undefined;
  /** The price entry it would append (extension E10), prepared with the row. */
  readonly prices?: PriceEntryDraft | undefined;
  /** The record is invalid: only its links are checked. */
  readonly checkOnly?: boolean;
  /** The photo and floor plan URLs of an active offer to write (queued for fetching with the batch). */
  readonly photos?: readonly string[] | undefined;
  /** The record's `slug` (E12), settled at the import's end. */
  readonly slug?: string | undefined;
}

interface CheckedOffer {
  readonly queued: QueuedOffer;
  /** Links are fine and the row is ready (false: only checked). */
  readonly write: boolean;
}

interface RecordAt {
  readonly recordNo: number;
  readonly path: string;
}

/** A UUID as 8 UTF-16 code units: the offer id set of a million offers stays small. */
function compactUuid(id: string): string {
  const hex = id.replace(/-/g, '');
  let out = '';
  for (let i = 0; i < 32; i += 4) out += String.fromCharCode(parseInt(hex.slice(i, i + 4), 16));
  return out;
}

/** The well-formed links of an offer record that is invalid otherwise (undefined: nothing to check). */
export function linksOfInvalidOffer(value: Record<string, unknown>): OfferLinks | undefined {
  const uuid = (field: string) => (isUuid(value[field]) ? (value[field] as string).toLowerCase() : undefined);
  const offerId = uuid('offer_id');
  const org = uuid('organization_id');
  if (offerId === undefined || org === undefined) return undefined;
  return { offer_id: offerId, organization_id: org, agent_id: uuid('agent_id'), branch_id: uuid('branch_id'), investment_id: uuid('investment_id') };
}

export class OfferBatches {
  /** Offer ids of the file (compact), for duplicates. */
  private readonly ids = new Set<string>();
  private batch: QueuedOffer[] = [];
  private batchBytes = 0;
  /** The link checks of the batches handed on, one after the other. */
  private checking: Promise<unknown> = Promise.resolve();
  /** Writes handed to the database and not yet finished (at most two). */
  private readonly writes: Array<Promise<void>> = [];
  /** Whether any photo source was unavailable (asked once, at the first unchanged offer with photos). */
  private unavailablePhotos: Promise<boolean> | undefined;
  /** Words of the written offers already added to the search vocabulary. */
  private readonly vocabulary = new SearchVocabulary();
  /**
   * The made slugs already written, per organization id, in the order offers are written (the
   * bundle's): the first new offer of the bundle that makes a slug takes it (E12), so a later one
   * is inserted with the suffixed slug it will get instead, and no row is written twice.
   * An offer that turns out to be stored (it keeps its slug) claims too: a later new offer then
   * takes its suffixed slug at once, and should the plain one still be free, the import's end
   * writes it over (rare: it needs a stored offer of the same title and city that has another slug).
   */
  private readonly claimed = new Map<string, Set<string>>();
  /** Record numbers of offers that came before an entity they link to (read again in pass 2), in file order. */
  readonly deferred: number[] = [];

  constructor(
    private readonly ctx: ImportContext,
    private readonly links: LinkChecker,
    private readonly entities: EntityStage,
  ) {}

  /**
   * A valid offer record. In pass 1 (`final` false) a second record with the same id is a problem;
   * in pass 2 (`final`) the offer is one that waited, and every link must hold now.
   */
  async add(at: RecordAt, record: OfferInput, final: boolean): Promise<void> {
    if (!final) {
      const compact = compactUuid(record.offer_id);
      if (this.ids.has(compact)) {
        this.ctx.problem(at.recordNo, within(at.path, 'offer_id'), `duplicate offer id ${record.offer_id} (it appears earlier in the file)`);
        return;
      }
      this.ids.add(compact);
      this.ctx.organizationsNamed.add(record.organization_id);
    }
    // Normalized now, while the database works on the previous batch; useless once there is a
    // problem, since nothing more will be written.
    const draft = this.ctx.writing ? offerRow(record) : undefined;
    // A new offer's made slug, made here when the text allows (else by the insert).
    if (draft && draft.slug_source !== null && this.ctx.madeSlugsHere) draft.made_slug = madeOfferSlug(draft.slug_source) ?? null;
    const prices = this.ctx.writing ? offerPriceEntry(record) : undefined;
    const links: OfferLinks = {
      offer_id: record.offer_id,
      organization_id: record.organization_id,
      agent_id: record.agent_id,
      branch_id: record.branch_id,
      investment_id: record.investment_id,
    };
    const photos = draft && draft.is_active ? photoUrlsOf(record.offer_data as Record<string, unknown> | null).map((p) => p.url) : undefined;
    // Only the record number and path of `at` are kept (not the record it may carry).
    await this.queue({ recordNo: at.recordNo, path: at.path, record: links, draft, photos, prices, slug: record.slug }, final);
  }

  /**
   * An invalid offer record: it claims its id once, and its well-formed links are still checked
   * (in pass 2, `final`, for an invalid offer that waited).
   */
  async addInvalid(at: RecordAt, value: Record<string, unknown>, final: boolean): Promise<void> {
    const links = linksOfInvalidOffer(value);
    if (!final) {
      const id = isUuid(value.offer_id) ? compactUuid(value.offer_id.toLowerCase()) : undefined;
      if (id === undefined || this.ids.has(id)) return;
      this.ids.add(id);
    }
    if (links) await this.queue({ recordNo: at.recordNo, path: at.path, record: links, checkOnly: true }, final);
  }

  private async queue(queued: QueuedOffer, final: boolean): Promise<void> {
    this.batch.push(queued);
    this.batchBytes += queued.draft?.offer_data_json.length ?? 0;
    if (this.batch.length >= this.ctx.batchSize || this.batchBytes >= BATCH_BYTES) await this.send(final);
  }

  /**
   * Hands the batch on while the next one is read. Checks run one batch at a time, in file order;
   * the writes are queued on the connection as soon as their batch is checked. At most two batches
   * wait there (bounded memory).
   */
  async send(final: boolean): Promise<void> {
    const batch = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    if (batch.length === 0) return;
    while (this.writes.length >= 2) await this.writes.shift();
    const checked = this.checking.then(() => this.check(batch, final));
    this.checking = checked.catch(() => {});
    const written = checked.then((offers) => this.write(offers));
    written.catch(() => {}); // awaited later (drain); this only keeps it from counting as unhandled
    this.writes.push(written);
  }

  /** Sets the unavailable ones of these photo sources pending again (looked for once some exist). */
  private async retryUnavailable(urls: readonly string[]): Promise<void> {
    this.unavailablePhotos ??= anyUnavailableSources(this.ctx.db);
    if (await this.unavailablePhotos) await retryUnavailableSources(this.ctx.db, urls);
  }

  /** Waits for every batch handed on; rethrows a database fault of any of them. */
  async drain(): Promise<void> {
    await this.checking;
    while (this.writes.length > 0) await this.writes.shift();
  }

  /** Checks the links of a batch; returns the offers to write (or, with problems, to check only). */
  private async check(batch: readonly QueuedOffer[], final: boolean): Promise<CheckedOffer[]> {
    // An offer may link to an entity read just before it: settle those first.
    if (this.entities.hasPending) await this.entities.flush(false);
    const records = batch.map((q) => q.record);
    await this.links.lookUp('organization', records.map((r) => r.organization_id));
    await this.links.lookUp('agent', records.map((r) => r.agent_id));
    await this.links.lookUp('branch', records.map((r) => r.branch_id));
    await this.links.lookUp('investment', records.map((r) => r.investment_id));

    const checked: CheckedOffer[] = [];
    for (const queued of batch) {
      const r = queued.record;
      const links: Link[] = [
        ['organization', 'organization_id', r.organization_id],
        ['agent', 'agent_id', r.agent_id],
        ['branch', 'branch_id', r.branch_id],
        ['investment', 'investment_id', r.investment_id],
      ];
      const { wait, problems } = this.links.check(links, r.organization_id, final);
      if (wait && !final) {
        this.deferred.push(queued.recordNo);
        continue;
      }
      for (const [field, message] of problems) this.ctx.problem(queued.recordNo, within(queued.path, field), message);
      checked.push({ queued, write: problems.length === 0 && !queued.checkOnly && queued.draft !== undefined });
    }
    return checked;
  }

  /**
   * Writes a checked batch and makes sure none of its offer ids is stored under another
   * organization. The write cannot touch such a row (its WHERE requires the same organization),
   * and the check runs right behind it on the connection, so neither waits for the other.
   */
  private async write(checked: readonly CheckedOffer[]): Promise<void> {
    if (checked.length === 0) return;
    const { ctx } = this;
    const written = ctx.writing ? checked.filter((c) => c.write) : [];
    const drafts = written.map((c) => c.queued.draft!);
    for (const d of drafts) {
      if (d.made_slug === null) continue;
      // A set per organization: the slugs alone, not a joined key per offer (about a third less
      // memory for 100,000 new offers).
      let slugs = this.claimed.get(d.organization_id);
      if (slugs === undefined) this.claimed.set(d.organization_id, (slugs = new Set()));
      if (slugs.has(d.made_slug)) d.made_slug_written = suffixedMadeSlug(d.made_slug, d.offer_id);
      else slugs.add(d.made_slug);
    }
    ctx.counts.accept('offers', drafts.length);
    // The price history is appended for the offers created or changed: an unchanged offer's
    // prices are its latest entry's (only the import writes offers, and each write that changes
    // prices appends an entry). A new offer without history gets its first entry from the upsert
    // itself; the others right behind the rows (the statement reads and updates them). Photos: the
    // offers whose URL lists are new to the store are noted in the import's transaction (a row
    // of an id each; after it commits, the photo fetcher of a running instance inserts their
    // sources, as stored then, and fetches them: the import hashes and writes no source); of any
    // other offer, its sources queued (or noted) when its lists were written, only the
    // unavailable ones are retried, if any source was unavailable when the import first met such an offer.
    const writing =
      drafts.length > 0
        ? upsertOffers(ctx.db, drafts).then(async (counts) => {
            // Offers the upsert gave their first price entry are done (a first import: all of them).
            const priced = new Set(counts.firstPrices);
            const changed = new Set(counts.written.filter((id) => !priced.has(id)));
            const recordOf = new Map(written.map(({ queued: q }) => [q.record.offer_id, q.recordNo]));
            const newPhotoLists = new Set(counts.newPhotoLists);
            const noted: string[] = [];
            const known: string[] = [];
            for (const { queued: q } of written) {
              if (!q.photos || q.photos.length === 0) continue;
              if (newPhotoLists.has(q.record.offer_id)) noted.push(q.record.offer_id);
              else known.push(...q.photos);
            }
            const [late] = await Promise.all([
              appendPriceHistory(ctx.db, written.flatMap(({ queued: q }) => (changed.has(q.record.offer_id) ? [q.prices!] : []))),
              noteMadeSlugs(
                ctx.db,
                'offer',
                counts.madeSlugs.map((m) => ({
                  entityId: m.offer_id,
                  organizationId: m.organization_id,
                  slug: m.slug,
                  written: m.written,
                  place: recordOf.get(m.offer_id)!,
                })),
              ),
              noted.length > 0 ? notePhotoOffers(ctx.db, noted) : undefined,
              known.length > 0 ? this.retryUnavailable(known) : undefined,
            ]);
            return { counts, late };
          })
        : undefined;
    const lexemes = this.vocabulary.unsent(drafts);
    const adding = lexemes ? addSearchLexemes(ctx.db, lexemes) : undefined;
    const seen = drafts.length > 0 && ctx.prune ? rememberSeenOffers(ctx.db, drafts.map((d) => d.offer_id)) : undefined;
    const owners = storedOwners(ctx.db, 'offer', checked.map((c) => c.queued.record.offer_id));
    const given = written.flatMap(({ queued: q }) =>
      q.slug !== undefined
        ? [{ kind: 'offer' as const, entityId: q.record.offer_id, organizationId: q.record.organization_id, slug: q.slug, recordNo: q.recordNo, path: q.path }]
        : [],
    );
    const noting = given.length > 0 ? noteGivenSlugs(ctx.db, given) : undefined;
    const [outcome, stored] = await Promise.all([writing, owners, seen, adding, noting]);
    if (outcome) ctx.counts.add('offers', outcome.counts);
    if (outcome && outcome.late.length > 0) {
      const late = new Set(outcome.late);
      for (const { queued } of written) {
        if (late.has(queued.record.offer_id)) {
          ctx.problem(queued.recordNo, within(queued.path, 'prices_valid_from'), 'earlier than the latest entry of the offer\'s price history; prices must be given in the order they held');
        }
      }
    }
    for (const { queued } of checked) {
      const r = queued.record;
      const owner = stored.get(r.offer_id);
      if (owner !== undefined && owner !== r.organization_id) {
        ctx.problem(queued.recordNo, within(queued.path, 'offer_id'), `offer ${r.offer_id} belongs to another organization`);
      }
    }
  }
}
