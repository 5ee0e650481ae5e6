/**
 * The import of a content bundle: all or nothing, in one transaction.
 *
 * Records are read once, validated and written in batches as they come. Organizations, websites,
 * branches, agents and investments (few, small) are kept until they can be written in dependency
 * order; offers (many, large) are never kept: an offer is written with its batch as soon as every
 * entity it links to is known, and the rare offer that comes before such an entity is only
 * remembered by its record number and read again in a second pass. What stays in memory is
 * compact: the set of offer ids (for duplicates), a few maps of entity ids, two batches.
 *
 * Every problem anywhere (schema, duplicate id, dangling link, another organization's entity) is
 * collected; once there is one, nothing more is written and the transaction is rolled back at the
 * end, so the database is left exactly as it was and the caller gets the complete list.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { ImportBusyError, ImportRejectedError } from './errors.js';
import { storedKeys, storedOwners } from './lookups.js';
import { joinPath, ProblemList, type Problem } from './problems.js';
import {
  agentRow,
  apiKeyDraft,
  branchRow,
  derivedKeyId,
  investmentRow,
  offerRow,
  organizationRow,
  websiteRow,
  type ApiKeyRowDraft,
  type OfferRowDraft,
  type Row,
} from './rows.js';
import type { OfferInput, RecordInputs, RecordKind } from './schemas.js';
import type { RecordSource, SourceItem } from './source.js';
import { isUuid, validateRecord } from './validate.js';
import {
  bumpContentVersion,
  createSeenOffersTable,
  currentContentVersion,
  pruneOffers,
  rememberSeenOffers,
  upsertAgents,
  upsertApiKeys,
  upsertBranches,
  upsertInvestments,
  upsertOffers,
  upsertOrganizations,
  upsertWebsites,
  type WriteCounts,
} from './write.js';

/** The key of the transaction-scoped advisory lock that lets one import run at a time ("ECSI"). */
export const IMPORT_LOCK_KEY = 0x45435349;

export const REPORT_KINDS = ['organizations', 'websites', 'api_keys', 'branches', 'agents', 'investments', 'offers'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export interface KindCounts {
  created: number;
  changed: number;
  unchanged: number;
}

export interface ImportReport {
  counts: Record<ReportKind, KindCounts>;
  /** Offers made inactive by --prune. */
  pruned: number;
  /** Records read. */
  records: number;
  /** content_state.content_version after the import (bumped only when something changed). */
  contentVersion: string;
  changed: boolean;
}

export interface ImportProgress {
  phase: 'reading' | 'rereading';
  records: number;
  bytesRead: number;
  totalBytes: number | undefined;
}

export interface ImportOptions {
  /** Active offers of the bundle's organizations that the bundle does not hold become inactive. */
  prune?: boolean;
  onProgress?: (progress: ImportProgress) => void;
  /** Rows per INSERT statement. */
  batchSize?: number;
}

type EntityKind = Exclude<RecordKind, 'offer'>;
/** Dependency order: an entity is written after the ones it links to. */
const ENTITY_ORDER: readonly EntityKind[] = ['organization', 'website', 'branch', 'investment', 'agent'];
const ID_FIELD: Readonly<Record<RecordKind, string>> = {
  organization: 'organization_id',
  website: 'website_id',
  branch: 'branch_id',
  agent: 'agent_id',
  investment: 'investment_id',
  offer: 'offer_id',
};
const REPORT_KIND: Readonly<Record<RecordKind, ReportKind>> = {
  organization: 'organizations',
  website: 'websites',
  branch: 'branches',
  agent: 'agents',
  investment: 'investments',
  offer: 'offers',
};

interface Entry {
  readonly kind: EntityKind;
  readonly id: string;
  readonly org: string | undefined;
  readonly recordNo: number;
  readonly path: string;
  /** pending: not yet written; accepted: written (or would be); failed: has problems. */
  state: 'pending' | 'accepted' | 'failed';
  row?: Row | undefined;
  keys?: ApiKeyRowDraft[] | undefined;
  branchId?: string | null | undefined;
  /** The record itself is invalid; its links are still checked, so that every problem is told. */
  checkOnly?: boolean;
}

interface QueuedOffer {
  readonly recordNo: number;
  readonly path: string;
  /** The offer's id and links (the rest of the record is not kept). */
  readonly record: OfferLinks;
  /** The row, prepared while the previous batch is in the database (none once there is a problem). */
  readonly draft?: OfferRowDraft | undefined;
  readonly checkOnly?: boolean;
}

interface CheckedOffer {
  readonly queued: QueuedOffer;
  /** Links are fine and the row is ready (false: only checked). */
  readonly write: boolean;
}

type OfferLinks = Pick<OfferInput, 'offer_id' | 'organization_id' | 'agent_id' | 'branch_id' | 'investment_id'>;

/**
 * Records come from buffers as resolved promises, which would keep the database's answers waiting
 * until a buffer is empty; every few records the loop lets them in, so the next statement goes out
 * at once.
 */
const YIELD_EVERY = 16;
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A batch is sent when it holds this many offers or this much offer_data text, whichever first. */
const BATCH_BYTES = 2 * 1024 * 1024;

type RefStatus = 'ok' | 'wait' | { problem: string };

/** A path inside a record, joined to the record's own path ("offers[3]" + "offer_data.price"). */
function within(recordPath: string, relative: string): string {
  if (recordPath === '') return relative;
  if (relative === '') return recordPath;
  return relative.startsWith('[') ? recordPath + relative : `${recordPath}.${relative}`;
}

/** The well-formed links of an offer record that is invalid otherwise (undefined: nothing to check). */
function linksOfInvalidOffer(value: Record<string, unknown>): OfferLinks | undefined {
  const uuid = (field: string) => (isUuid(value[field]) ? (value[field] as string).toLowerCase() : undefined);
  const offerId = uuid('offer_id');
  const org = uuid('organization_id');
  if (offerId === undefined || org === undefined) return undefined;
  return { offer_id: offerId, organization_id: org, agent_id: uuid('agent_id'), branch_id: uuid('branch_id'), investment_id: uuid('investment_id') };
}

/** A UUID as 8 UTF-16 code units: the offer id set of a million offers stays small. */
function compactUuid(id: string): string {
  const hex = id.replace(/-/g, '');
  let out = '';
  for (let i = 0; i < 32; i += 4) out += String.fromCharCode(parseInt(hex.slice(i, i + 4), 16));
  return out;
}

function emptyCounts(): Record<ReportKind, KindCounts & { accepted: number }> {
  return Object.fromEntries(REPORT_KINDS.map((k) => [k, { created: 0, changed: 0, unchanged: 0, accepted: 0 }])) as Record<
    ReportKind,
    KindCounts & { accepted: number }
  >;
}

class ImportRun {
  readonly problems = new ProblemList();
  private readonly entities = new Map<EntityKind, Map<string, Entry>>(ENTITY_ORDER.map((k) => [k, new Map()]));
  private pendingEntities = 0;
  /** Stored organization of ids not in the file (null: not stored), per kind. */
  private readonly stored = new Map<EntityKind, Map<string, string | null>>(ENTITY_ORDER.map((k) => [k, new Map()]));
  private readonly offerIds = new Set<string>();
  private readonly keyIds = new Map<string, number>();
  private readonly keyHashes = new Map<string, number>();
  readonly organizationsNamed = new Set<string>();
  readonly counts = emptyCounts();
  private batch: QueuedOffer[] = [];
  private batchBytes = 0;
  /** The link checks of the batches handed on, one after the other. */
  private checking: Promise<unknown> = Promise.resolve();
  /** Writes handed to the database and not yet finished (at most two). */
  private readonly writes: Array<Promise<void>> = [];
  /** Record numbers of offers that came before an entity they link to (read again in pass 2). */
  private readonly deferred: number[] = [];
  records = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly source: RecordSource,
    private readonly options: ImportOptions,
    private readonly batchSize: number,
  ) {}

  /** Nothing is written once a problem is known; checking goes on to find the others. */
  private get writing(): boolean {
    return this.problems.count === 0;
  }

  private problem(recordNo: number | undefined, path: string, message: string): void {
    const p: Problem = { record: recordNo, path, message };
    this.problems.add(p);
  }

  private progress(phase: ImportProgress['phase'], records = this.records): void {
    this.options.onProgress?.({ phase, records, bytesRead: this.source.bytesRead, totalBytes: this.source.totalBytes });
  }

  async run(): Promise<void> {
    for await (const item of this.source.records()) {
      if (item.recordNo !== undefined) {
        this.records += 1;
        if (this.records % 1000 === 0) this.progress('reading');
        if (this.records % YIELD_EVERY === 0) await yieldToEventLoop();
      }
      if ('problem' in item) {
        this.problem(item.recordNo, item.path, item.problem);
        continue;
      }
      const validation = validateRecord(item.kind, item.value);
      if (!validation.ok) {
        for (const p of validation.problems) this.problem(item.recordNo, within(item.path, p.path), p.message);
        await this.rememberInvalid(item);
        continue;
      }
      if (item.kind === 'offer') await this.queueOffer(item, validation.record as OfferInput, false);
      else this.addEntity(item.kind, item, validation.record as RecordInputs[EntityKind]);
    }
    this.progress('reading');
    await this.sendBatch(false);
    await this.drain();
    await this.flushEntities(true);
    if (this.deferred.length > 0) await this.rereadDeferred();
  }

  /** Pass 2: the offers that waited for an entity further down the file. */
  private async rereadDeferred(): Promise<void> {
    let next = 0;
    let seen = 0;
    for await (const item of this.source.records()) {
      if (next >= this.deferred.length) break;
      if (item.recordNo === undefined) continue;
      seen += 1;
      if (seen % 1000 === 0) this.progress('rereading', seen);
      if (seen % YIELD_EVERY === 0) await yieldToEventLoop();
      if (item.recordNo !== this.deferred[next]) continue;
      next += 1;
      if ('problem' in item || item.kind !== 'offer') {
        this.problem(item.recordNo, item.path, 'the file changed while it was being imported');
        continue;
      }
      const validation = validateRecord('offer', item.value);
      // An invalid offer's problems were reported in pass 1; only its links are checked again.
      const links = validation.ok ? undefined : linksOfInvalidOffer(item.value as Record<string, unknown>);
      if (validation.ok) await this.queueOffer({ recordNo: item.recordNo, path: item.path }, validation.record, true);
      else if (links) await this.queueChecked({ recordNo: item.recordNo, path: item.path, record: links, checkOnly: true }, true);
    }
    await this.sendBatch(true);
    await this.drain();
  }

  /**
   * An invalid record still claims its id (so that links to it are not reported as dangling too),
   * and its own links that are well-formed are still checked.
   */
  private async rememberInvalid(item: Extract<SourceItem, { kind: RecordKind }>): Promise<void> {
    const value = item.value as Record<string, unknown> | null;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    const uuid = (field: string) => (isUuid(value[field]) ? (value[field] as string).toLowerCase() : undefined);
    const id = uuid(ID_FIELD[item.kind]);
    const org = uuid('organization_id');
    if (id === undefined) return;
    if (item.kind === 'offer') {
      const compact = compactUuid(id);
      if (this.offerIds.has(compact)) return;
      this.offerIds.add(compact);
      const links = linksOfInvalidOffer(value);
      if (links) await this.queueChecked({ recordNo: item.recordNo, path: item.path, record: links, checkOnly: true }, false);
      return;
    }
    const map = this.entities.get(item.kind)!;
    if (map.has(id)) return;
    const entry: Entry = { kind: item.kind, id, org, recordNo: item.recordNo, path: item.path, state: 'failed' };
    if (org !== undefined) {
      entry.state = 'pending';
      entry.checkOnly = true;
      entry.branchId = uuid('branch_id');
      this.pendingEntities += 1;
    }
    map.set(id, entry);
  }

  private addEntity(kind: EntityKind, item: Extract<SourceItem, { kind: RecordKind }>, input: RecordInputs[EntityKind]): void {
    const record = input as unknown as Record<string, unknown>;
    const idField = ID_FIELD[kind];
    const id = record[idField] as string;
    const map = this.entities.get(kind)!;
    const first = map.get(id);
    if (first) {
      this.problem(item.recordNo, within(item.path, idField), `duplicate ${kind} id ${id} (also record ${first.recordNo})`);
      return;
    }
    const org = record.organization_id as string;
    this.organizationsNamed.add(org);
    const entry: Entry = { kind, id, org, recordNo: item.recordNo, path: item.path, state: 'pending' };
    switch (kind) {
      case 'organization':
        entry.row = organizationRow(input as RecordInputs['organization']);
        break;
      case 'website': {
        const website = input as RecordInputs['website'];
        entry.row = websiteRow(website);
        entry.keys = (website.api_keys ?? []).map((k) => apiKeyDraft(id, k));
        entry.keys.forEach((draft, index) => {
          const keyPath = within(item.path, joinPath('api_keys', index));
          if (draft.key_id !== undefined) {
            const other = this.keyIds.get(draft.key_id);
            if (other !== undefined) this.problem(item.recordNo, `${keyPath}.key_id`, `duplicate key id ${draft.key_id} (also record ${other})`);
            else this.keyIds.set(draft.key_id, item.recordNo);
          }
          const other = this.keyHashes.get(draft.key_sha256);
          if (other !== undefined) this.problem(item.recordNo, keyPath, `the same key is listed twice (also record ${other})`);
          else this.keyHashes.set(draft.key_sha256, item.recordNo);
        });
        break;
      }
      case 'branch':
        entry.row = branchRow(input as RecordInputs['branch']);
        break;
      case 'agent':
        entry.row = agentRow(input as RecordInputs['agent']);
        entry.branchId = (input as RecordInputs['agent']).branch_id ?? null;
        break;
      case 'investment':
        entry.row = investmentRow(input as RecordInputs['investment']);
        break;
    }
    map.set(id, entry);
    this.pendingEntities += 1;
  }

  private async queueOffer(item: { recordNo: number; path: string }, record: OfferInput, final: boolean): Promise<void> {
    if (!final) {
      const compact = compactUuid(record.offer_id);
      if (this.offerIds.has(compact)) {
        this.problem(item.recordNo, within(item.path, 'offer_id'), `duplicate offer id ${record.offer_id} (it appears earlier in the file)`);
        return;
      }
      this.offerIds.add(compact);
      this.organizationsNamed.add(record.organization_id);
    }
    // Normalized now, while the database works on the previous batch; useless once there is a
    // problem, since nothing more will be written.
    const draft = this.writing ? offerRow(record) : undefined;
    const links: OfferLinks = {
      offer_id: record.offer_id,
      organization_id: record.organization_id,
      agent_id: record.agent_id,
      branch_id: record.branch_id,
      investment_id: record.investment_id,
    };
    await this.queueChecked({ recordNo: item.recordNo, path: item.path, record: links, draft }, final);
  }

  private async queueChecked(queued: QueuedOffer, final: boolean): Promise<void> {
    this.batch.push(queued);
    this.batchBytes += queued.draft?.offer_data_json.length ?? 0;
    if (this.batch.length >= this.batchSize || this.batchBytes >= BATCH_BYTES) await this.sendBatch(final);
  }

  /**
   * Hands a full batch on while the next one is read. Checks run one batch at a time, in file
   * order; the writes are queued on the connection as soon as their batch is checked, so the
   * database always has the next statement waiting. At most two batches wait there (bounded
   * memory).
   */
  private async sendBatch(final: boolean): Promise<void> {
    const batch = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    if (batch.length === 0) return;
    while (this.writes.length >= 2) await this.writes.shift();
    const checked = this.checking.then(() => this.checkOffers(batch, final));
    this.checking = checked.catch(() => {});
    const written = checked.then((offers) => this.writeOffers(offers));
    written.catch(() => {}); // awaited later (drain); this only keeps it from counting as unhandled
    this.writes.push(written);
  }

  /** Waits for every batch handed on; rethrows a database fault of any of them. */
  private async drain(): Promise<void> {
    await this.checking;
    while (this.writes.length > 0) await this.writes.shift();
  }

  /** How a link to an entity resolves: known and of this organization, not yet known, or wrong. */
  private refStatus(kind: EntityKind, id: string, org: string, final: boolean): RefStatus {
    const entry = this.entities.get(kind)!.get(id);
    if (entry) {
      if (entry.state === 'pending') return final ? 'ok' : 'wait';
      if (entry.state === 'failed' || kind === 'organization') return 'ok';
      return entry.org === org ? 'ok' : { problem: `${kind} ${id} belongs to another organization` };
    }
    const storedOrg = this.stored.get(kind)!.get(id);
    if (storedOrg === undefined || storedOrg === null) {
      return final ? { problem: `unknown ${kind} ${id} (not in the file nor in the database)` } : 'wait';
    }
    if (kind === 'organization') return 'ok';
    return storedOrg === org ? 'ok' : { problem: `${kind} ${id} belongs to another organization` };
  }

  /** Asks the database about ids that are neither in the file nor asked about before. */
  private async lookUp(kind: EntityKind, ids: Iterable<string | null | undefined>): Promise<void> {
    const inFile = this.entities.get(kind)!;
    const cache = this.stored.get(kind)!;
    const unknown = new Set<string>();
    for (const id of ids) if (id && !inFile.has(id) && !cache.has(id)) unknown.add(id);
    if (unknown.size === 0) return;
    const owners = await storedOwners(this.db, kind, [...unknown]);
    for (const id of unknown) cache.set(id, owners.get(id) ?? null);
  }

  /** Checks the links of a batch; returns the offers to write (or, with problems, to check only). */
  private async checkOffers(batch: readonly QueuedOffer[], final: boolean): Promise<CheckedOffer[]> {
    if (this.pendingEntities > 0) await this.flushEntities(false);
    const records = batch.map((q) => q.record);
    await this.lookUp('organization', records.map((r) => r.organization_id));
    await this.lookUp('agent', records.map((r) => r.agent_id));
    await this.lookUp('branch', records.map((r) => r.branch_id));
    await this.lookUp('investment', records.map((r) => r.investment_id));

    const checked: CheckedOffer[] = [];
    for (const queued of batch) {
      const r = queued.record;
      const links: Array<[EntityKind, string, string | null | undefined]> = [
        ['organization', 'organization_id', r.organization_id],
        ['agent', 'agent_id', r.agent_id],
        ['branch', 'branch_id', r.branch_id],
        ['investment', 'investment_id', r.investment_id],
      ];
      const problems: Array<[string, string]> = [];
      let wait = false;
      for (const [kind, field, id] of links) {
        if (!id) continue;
        const status = this.refStatus(kind, id, r.organization_id, final);
        if (status === 'wait') wait = true;
        else if (status !== 'ok') problems.push([field, status.problem]);
      }
      if (wait && !final) {
        this.deferred.push(queued.recordNo);
        continue;
      }
      for (const [field, message] of problems) this.problem(queued.recordNo, within(queued.path, field), message);
      checked.push({ queued, write: problems.length === 0 && !queued.checkOnly && queued.draft !== undefined });
    }
    return checked;
  }

  /**
   * Writes a checked batch and makes sure none of its offer ids is stored under another
   * organization. The write cannot touch such a row (its WHERE requires the same organization),
   * and the check runs right behind it on the connection, so neither waits for the other.
   */
  private async writeOffers(checked: readonly CheckedOffer[]): Promise<void> {
    if (checked.length === 0) return;
    const drafts = this.writing ? checked.flatMap((c) => (c.write ? [c.queued.draft!] : [])) : [];
    this.counts.offers.accepted += drafts.length;
    const writing = drafts.length > 0 ? upsertOffers(this.db, drafts) : undefined;
    const seen = drafts.length > 0 && this.options.prune ? rememberSeenOffers(this.db, drafts.map((d) => d.offer_id)) : undefined;
    const owners = storedOwners(this.db, 'offer', checked.map((c) => c.queued.record.offer_id));
    const [counts, stored] = await Promise.all([writing, owners, seen]);
    if (counts) this.add('offers', counts);
    for (const { queued } of checked) {
      const r = queued.record;
      const owner = stored.get(r.offer_id);
      if (owner !== undefined && owner !== r.organization_id) {
        this.problem(queued.recordNo, within(queued.path, 'offer_id'), `offer ${r.offer_id} belongs to another organization`);
      }
    }
  }

  private add(kind: ReportKind, counts: WriteCounts): void {
    this.counts[kind].created += counts.created;
    this.counts[kind].changed += counts.changed;
  }

  /**
   * Checks and writes the entities that wait, in dependency order. Before the end of the file an
   * entity whose links are not known yet keeps waiting; at the end (final) such a link is dangling.
   */
  private async flushEntities(final: boolean): Promise<void> {
    for (const kind of ENTITY_ORDER) {
      const pending = [...this.entities.get(kind)!.values()].filter((e) => e.state === 'pending');
      if (pending.length === 0) continue;
      if (kind !== 'organization') await this.lookUp('organization', pending.map((e) => e.org));
      if (kind === 'agent') await this.lookUp('branch', pending.map((e) => e.branchId));
      const owners = kind === 'organization' ? new Map<string, string>() : await storedOwners(this.db, kind, pending.map((e) => e.id));
      const keys = kind === 'website' ? await this.keysOf(pending) : [];

      const ready: Entry[] = [];
      for (const entry of pending) {
        const problems: Array<[string, string]> = [];
        let wait = false;
        const links: Array<[EntityKind, string, string | null | undefined]> =
          kind === 'organization' ? [] : [['organization', 'organization_id', entry.org]];
        if (kind === 'agent') links.push(['branch', 'branch_id', entry.branchId]);
        for (const [refKind, field, id] of links) {
          if (!id) continue;
          const status = this.refStatus(refKind, id, entry.org!, final);
          if (status === 'wait') wait = true;
          else if (status !== 'ok') problems.push([field, status.problem]);
        }
        if (wait) continue;
        const owner = owners.get(entry.id);
        if (owner !== undefined && owner !== entry.org) {
          problems.push([ID_FIELD[kind], `${kind} ${entry.id} already exists under another organization`]);
        }
        if (kind === 'website') problems.push(...this.checkKeys(entry, keys));
        for (const [field, message] of problems) this.problem(entry.recordNo, within(entry.path, field), message);
        entry.state = problems.length > 0 || entry.checkOnly ? 'failed' : 'accepted';
        this.pendingEntities -= 1;
        if (entry.state === 'accepted') ready.push(entry);
      }
      await this.writeEntities(kind, ready);
    }
  }

  private async keysOf(websites: readonly Entry[]) {
    const drafts = websites.flatMap((w) => w.keys ?? []);
    return storedKeys(
      this.db,
      drafts.flatMap((d) => (d.key_id ? [d.key_id] : [])),
      drafts.map((d) => d.key_sha256),
    );
  }

  /** A key belongs to its website: it may not move, and a key (hash) is registered once. */
  private checkKeys(website: Entry, stored: ReadonlyArray<{ key_id: string; website_id: string; key_sha256: string }>): Array<[string, string]> {
    const problems: Array<[string, string]> = [];
    (website.keys ?? []).forEach((draft, index) => {
      const path = joinPath('api_keys', index);
      const byId = draft.key_id ? stored.find((k) => k.key_id === draft.key_id) : undefined;
      if (byId && byId.website_id !== website.id) {
        problems.push([`${path}.key_id`, `key ${draft.key_id} belongs to another website`]);
        return;
      }
      const byHash = stored.find((k) => k.key_sha256 === draft.key_sha256);
      if (byHash && (draft.key_id ? byHash.key_id !== draft.key_id : byHash.website_id !== website.id)) {
        problems.push([path, `this key is already registered as key ${byHash.key_id}`]);
        return;
      }
      draft.key_id ??= byHash?.key_id ?? derivedKeyId(draft.key_sha256);
    });
    return problems;
  }

  private async writeEntities(kind: EntityKind, ready: Entry[]): Promise<void> {
    const reportKind = REPORT_KIND[kind];
    this.counts[reportKind].accepted += ready.length;
    const keys = ready.flatMap((e) => e.keys ?? []);
    this.counts.api_keys.accepted += keys.length;
    if (this.writing) {
      const upsert = {
        organization: upsertOrganizations,
        website: upsertWebsites,
        branch: upsertBranches,
        investment: upsertInvestments,
        agent: upsertAgents,
      }[kind];
      for (let i = 0; i < ready.length; i += this.batchSize) {
        this.add(reportKind, await upsert(this.db, ready.slice(i, i + this.batchSize).map((e) => e.row!)));
      }
      for (let i = 0; i < keys.length; i += this.batchSize) {
        this.add('api_keys', await upsertApiKeys(this.db, keys.slice(i, i + this.batchSize)));
      }
    }
    for (const entry of ready) {
      entry.row = undefined;
      entry.keys = undefined;
    }
  }

  report(pruned: number, contentVersion: string): ImportReport {
    const counts = {} as Record<ReportKind, KindCounts>;
    let changed = pruned > 0;
    for (const kind of REPORT_KINDS) {
      const c = this.counts[kind];
      counts[kind] = { created: c.created, changed: c.changed, unchanged: c.accepted - c.created - c.changed };
      if (c.created + c.changed > 0) changed = true;
    }
    return { counts, pruned, records: this.records, contentVersion, changed };
  }
}

/**
 * offer_data is stored twice (jsonb and text) and TOAST-compressed; lz4 compresses (and later
 * decompresses) several times faster than the default pglz. Used where the server has it.
 */
async function preferFastCompression(db: Kysely<Database>): Promise<void> {
  const result = await sql<{ lz4: boolean }>`
    select coalesce('lz4' = any(enumvals), false) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(db);
  if (result.rows[0]?.lz4) await sql`set local default_toast_compression = 'lz4'`.execute(db);
}

/**
 * Imports a bundle. Resolves with the counts; rejects with ImportRejectedError (every problem,
 * nothing written), ImportBusyError (another import holds the lock) or a database fault.
 */
export async function importBundle(db: Kysely<Database>, source: RecordSource, options: ImportOptions = {}): Promise<ImportReport> {
  const batchSize = Math.max(1, options.batchSize ?? 500);
  const report = await db.transaction().execute(async (trx) => {
    const lock = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(${sql.lit(IMPORT_LOCK_KEY)}) as locked`.execute(trx);
    if (!lock.rows[0]?.locked) throw new ImportBusyError();
    // A big import is one long transaction; the server's per-statement limit is not for it.
    await sql`set local statement_timeout = 0`.execute(trx);
    await preferFastCompression(trx);
    if (options.prune) await createSeenOffersTable(trx);

    const run = new ImportRun(trx, source, options, batchSize);
    await run.run();
    if (run.problems.count > 0) throw new ImportRejectedError(run.problems.list(), run.problems.count);

    const pruned = options.prune ? await pruneOffers(trx, [...run.organizationsNamed]) : 0;
    const draft = run.report(pruned, '');
    const contentVersion = draft.changed ? await bumpContentVersion(trx) : await currentContentVersion(trx);
    return { ...draft, contentVersion } satisfies ImportReport;
  });
  await refreshPlannerStatistics(db, report);
  return report;
}

/** Below this many written rows, autovacuum's own pace is good enough. */
const ANALYZE_AFTER_ROWS = 1000;

/**
 * Vacuums and analyzes after a large import, so that the very next list query uses the offer
 * indexes (index-only where it can) instead of waiting for autovacuum, which may take minutes or be
 * off. Outside the import transaction: the data is already committed.
 */
async function refreshPlannerStatistics(db: Kysely<Database>, report: ImportReport): Promise<void> {
  const written = Object.values(report.counts).reduce((sum, c) => sum + c.created + c.changed, report.pruned);
  if (written < ANALYZE_AFTER_ROWS) return;
  // VACUUM as well: index-only counts and deep pages need the visibility map, and autovacuum may
  // be off or slow. It cannot run inside a transaction, hence here, after the commit.
  await sql`vacuum (analyze) offers`.execute(db);
  await sql`analyze agents, branches, investments`.execute(db);
}
