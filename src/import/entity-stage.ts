/**
 * Organizations, websites (with their keys), branches, investments and agents: few and small, so
 * they are kept from the moment they are read until every entity they link to is known, then
 * checked and written in dependency order.
 */
import type { ImportContext } from './import-context.js';
import { ENTITY_ORDER, ID_FIELD, type EntityKind, type Entry, type Link, type LinkChecker } from './link-checker.js';
import { joinPath, within } from './problems.js';
import type { ReportKind } from './report.js';
import { agentRow, apiKeyDraft, branchRow, investmentRow, organizationRow, websiteRow } from './rows.js';
import type { RecordInputs } from './schemas.js';
import { isUuid } from './validate.js';
import { WebsiteKeys } from './website-keys.js';
import { storedOwners } from './lookups-sql.js';
import { upsertAgents, upsertBranches, upsertInvestments, upsertOrganizations } from '../features/catalog/index.js';
import { upsertApiKeys, upsertWebsites } from '../features/access/index.js';
import { normalizeWebsiteUrls, noteGivenSlugs, writeImportedWebsiteUrls } from '../features/seo/index.js';

const REPORT_KIND: Readonly<Record<EntityKind, ReportKind>> = {
  organization: 'organizations',
  website: 'websites',
  branch: 'branches',
  agent: 'agents',
  investment: 'investments',
};

const UPSERT = {
  organization: upsertOrganizations,
  branch: upsertBranches,
  investment: upsertInvestments,
  agent: upsertAgents,
} as const;

/** The investments and branches a website's scope names, each with its path in the record. */
function scopeLinks(scope: RecordInputs['website']['scope']): Link[] | undefined {
  if (!scope) return undefined;
  const links: Link[] = [];
  scope.investment_ids?.forEach((id, index) => links.push(['investment', joinPath(joinPath('scope', 'investment_ids'), index), id]));
  scope.branch_ids?.forEach((id, index) => links.push(['branch', joinPath(joinPath('scope', 'branch_ids'), index), id]));
  return links;
}

interface RecordAt {
  readonly recordNo: number;
  readonly path: string;
}

export class EntityStage {
  private pendingCount = 0;
  private readonly keys = new WebsiteKeys();

  constructor(
    private readonly ctx: ImportContext,
    private readonly links: LinkChecker,
  ) {}

  /** Some entity waits to be checked and written. */
  get hasPending(): boolean {
    return this.pendingCount > 0;
  }

  /** A valid entity record; a second record with the same id is a problem. */
  add(kind: EntityKind, at: RecordAt, input: RecordInputs[EntityKind]): void {
    const record = input as unknown as Record<string, unknown>;
    const idField = ID_FIELD[kind];
    const id = record[idField] as string;
    const entities = this.links.entities(kind);
    const first = entities.get(id);
    if (first) {
      this.ctx.problem(at.recordNo, within(at.path, idField), `duplicate ${kind} id ${id} (also record ${first.recordNo})`);
      return;
    }
    const org = record.organization_id as string;
    this.ctx.organizationsNamed.add(org);
    const entry: Entry = { kind, id, org, recordNo: at.recordNo, path: at.path, state: 'pending' };
    switch (kind) {
      case 'organization':
        entry.row = organizationRow(input as RecordInputs['organization']);
        break;
      case 'website': {
        const website = input as RecordInputs['website'];
        entry.website = websiteRow(website);
        entry.keys = (website.api_keys ?? []).map((k) => apiKeyDraft(id, k));
        entry.scopeLinks = scopeLinks(website.scope);
        if (website.urls !== undefined) {
          const urls = normalizeWebsiteUrls(website.urls);
          entry.urls = urls === null ? null : JSON.stringify(urls);
        }
        this.keys.note(at.recordNo, at.path, entry.keys, (recordNo, path, message) => this.ctx.problem(recordNo, path, message));
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
        entry.givenSlug = (input as RecordInputs['investment']).slug;
        break;
    }
    entities.set(id, entry);
    this.pendingCount += 1;
  }

  /**
   * An invalid entity record still claims its id (so that links to it are not reported as
   * dangling too), and its own links that are well-formed are still checked.
   */
  addInvalid(kind: EntityKind, at: RecordAt, value: Record<string, unknown>): void {
    const uuid = (field: string) => (isUuid(value[field]) ? (value[field] as string).toLowerCase() : undefined);
    const id = uuid(ID_FIELD[kind]);
    if (id === undefined) return;
    const entities = this.links.entities(kind);
    if (entities.has(id)) return;
    const org = uuid('organization_id');
    const entry: Entry = { kind, id, org, recordNo: at.recordNo, path: at.path, state: 'failed' };
    if (org !== undefined) {
      entry.state = 'pending';
      entry.checkOnly = true;
      entry.branchId = uuid('branch_id');
      this.pendingCount += 1;
    }
    entities.set(id, entry);
  }

  /**
   * Checks and writes the entities that wait, in dependency order. Before the end of the file an
   * entity whose links are not known yet keeps waiting; at the end (final) such a link is dangling.
   */
  async flush(final: boolean): Promise<void> {
    for (const kind of ENTITY_ORDER) {
      const pending = [...this.links.entities(kind).values()].filter((e) => e.state === 'pending');
      if (pending.length === 0) continue;
      if (kind !== 'organization') await this.links.lookUp('organization', pending.map((e) => e.org));
      if (kind === 'agent') await this.links.lookUp('branch', pending.map((e) => e.branchId));
      if (kind === 'website') {
        const named = pending.flatMap((e) => e.scopeLinks ?? []);
        await this.links.lookUp('investment', named.filter(([k]) => k === 'investment').map(([, , id]) => id));
        await this.links.lookUp('branch', named.filter(([k]) => k === 'branch').map(([, , id]) => id));
      }
      const owners = kind === 'organization' ? new Map<string, string>() : await storedOwners(this.ctx.db, kind, pending.map((e) => e.id));
      const storedKeys = kind === 'website' ? await this.keys.stored(this.ctx.db, pending.flatMap((w) => w.keys ?? [])) : [];

      const ready: Entry[] = [];
      for (const entry of pending) {
        const links: Link[] = kind === 'organization' ? [] : [['organization', 'organization_id', entry.org]];
        if (kind === 'agent') links.push(['branch', 'branch_id', entry.branchId]);
        if (entry.scopeLinks) links.push(...entry.scopeLinks);
        const { wait, problems } = this.links.check(links, entry.org!, final);
        if (wait) continue;
        const owner = owners.get(entry.id);
        if (owner !== undefined && owner !== entry.org) {
          problems.push([ID_FIELD[kind], `${kind} ${entry.id} already exists under another organization`]);
        }
        if (kind === 'website') problems.push(...this.keys.check(entry.id, entry.keys ?? [], storedKeys));
        for (const [field, message] of problems) this.ctx.problem(entry.recordNo, within(entry.path, field), message);
        entry.state = problems.length > 0 || entry.checkOnly ? 'failed' : 'accepted';
        this.pendingCount -= 1;
        if (entry.state === 'accepted') ready.push(entry);
      }
      await this.write(kind, ready);
    }
  }

  private async write(kind: EntityKind, ready: Entry[]): Promise<void> {
    const { ctx } = this;
    const reportKind = REPORT_KIND[kind];
    ctx.counts.accept(reportKind, ready.length);
    const keys = ready.flatMap((e) => e.keys ?? []);
    ctx.counts.accept('api_keys', keys.length);
    if (ctx.writing) {
      for (let i = 0; i < ready.length; i += ctx.batchSize) {
        const batch = ready.slice(i, i + ctx.batchSize);
        if (kind === 'website') {
          const written = await upsertWebsites(ctx.db, batch.map((e) => e.website!));
          ctx.counts.add(reportKind, written);
          ctx.scopeChanges.push(...written.scopeChanges);
          await writeImportedWebsiteUrls(ctx.db, batch.flatMap((e) => (e.urls === undefined ? [] : [{ websiteId: e.id, urls: e.urls }])));
        } else {
          ctx.counts.add(reportKind, await UPSERT[kind](ctx.db, batch.map((e) => e.row!)));
        }
      }
      for (let i = 0; i < keys.length; i += ctx.batchSize) {
        ctx.counts.add('api_keys', await upsertApiKeys(ctx.db, keys.slice(i, i + ctx.batchSize)));
      }
      // Settled with every other slug at the import's end (src/features/seo/write.ts).
      await noteGivenSlugs(
        ctx.db,
        ready.flatMap((e) =>
          e.givenSlug === undefined
            ? []
            : [{ kind: 'investment' as const, entityId: e.id, organizationId: e.org!, slug: e.givenSlug, recordNo: e.recordNo, path: e.path }],
        ),
      );
    }
    // Written (or never to be): the rows need not stay in memory.
    for (const entry of ready) {
      entry.row = undefined;
      entry.website = undefined;
      entry.keys = undefined;
      entry.scopeLinks = undefined;
    }
  }
}
