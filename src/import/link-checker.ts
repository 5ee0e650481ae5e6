/**
 * The one place that decides whether a record's links hold: every link (website, branch, agent,
 * investment, offer -> organization; agent -> branch; offer -> agent, branch, investment; a
 * website's scope -> its investments and branches) must name an entity that is in the file or in
 * the database, of the same organization.
 *
 * It holds the entities of the file as they are read (the entity registry) and what the database
 * said about ids that are not in the file (asked once per id, in chunks).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { storedOwners } from './lookups-sql.js';
import type { Row } from '../db/upsert.js';
import type { ApiKeyRowDraft, WebsiteRowDraft } from '../features/access/index.js';
import type { RecordKind } from './schemas.js';

export type EntityKind = Exclude<RecordKind, 'offer'>;

/**
 * Dependency order: an entity is written after the ones it links to (a website last: its scope
 * names investments and branches).
 */
export const ENTITY_ORDER: readonly EntityKind[] = ['organization', 'branch', 'investment', 'agent', 'website'];

export const ID_FIELD: Readonly<Record<RecordKind, string>> = {
  organization: 'organization_id',
  website: 'website_id',
  branch: 'branch_id',
  agent: 'agent_id',
  investment: 'investment_id',
  offer: 'offer_id',
};

/** An entity record of the file. */
export interface Entry {
  readonly kind: EntityKind;
  readonly id: string;
  readonly org: string | undefined;
  readonly recordNo: number;
  readonly path: string;
  /** pending: not yet written; accepted: written (or would be); failed: has problems. */
  state: 'pending' | 'accepted' | 'failed';
  row?: Row | undefined;
  /** A website's row (its scope may be left out: see websiteRow). */
  website?: WebsiteRowDraft | undefined;
  keys?: ApiKeyRowDraft[] | undefined;
  branchId?: string | null | undefined;
  /** A website's scope: the investments and branches it names, with their paths in the record. */
  scopeLinks?: Link[] | undefined;
  /** The record itself is invalid; its links are still checked, so that every problem is told. */
  checkOnly?: boolean;
  /** A website's URL templates as JSON text (null: none; undefined: keep the stored ones). */
  urls?: string | null | undefined;
  /** An investment's `slug`, as its record gives it (E12). */
  givenSlug?: string | undefined;
}

/** One link of a record: the kind it names, the record's field, the id (absent: no link). */
export type Link = readonly [kind: EntityKind, field: string, id: string | null | undefined];

export interface LinkCheck {
  /** Some linked entity is not known yet (it may come further down the file). */
  readonly wait: boolean;
  /** [field, message] of every link that does not hold. */
  readonly problems: Array<[string, string]>;
}

type LinkStatus = 'ok' | 'wait' | { problem: string };

export class LinkChecker {
  private readonly inFile = new Map<EntityKind, Map<string, Entry>>(ENTITY_ORDER.map((kind) => [kind, new Map()]));
  /** Stored organization of ids not in the file (null: not stored), per kind. */
  private readonly stored = new Map<EntityKind, Map<string, string | null>>(ENTITY_ORDER.map((kind) => [kind, new Map()]));

  constructor(private readonly db: Kysely<Database>) {}

  /** The entities of one kind read from the file so far, by id. */
  entities(kind: EntityKind): Map<string, Entry> {
    return this.inFile.get(kind)!;
  }

  /** Asks the database about ids that are neither in the file nor asked about before. */
  async lookUp(kind: EntityKind, ids: Iterable<string | null | undefined>): Promise<void> {
    const inFile = this.inFile.get(kind)!;
    const cache = this.stored.get(kind)!;
    const unknown = new Set<string>();
    for (const id of ids) if (id && !inFile.has(id) && !cache.has(id)) unknown.add(id);
    if (unknown.size === 0) return;
    const owners = await storedOwners(this.db, kind, [...unknown]);
    for (const id of unknown) cache.set(id, owners.get(id) ?? null);
  }

  /**
   * Checks the links of a record of organization `org` (look the ids up first). Before the end of
   * the file a link to an entity not known yet waits; at the end (`final`) it is dangling.
   */
  check(links: readonly Link[], org: string, final: boolean): LinkCheck {
    const problems: Array<[string, string]> = [];
    let wait = false;
    for (const [kind, field, id] of links) {
      if (!id) continue;
      const status = this.status(kind, id, org, final);
      if (status === 'wait') wait = true;
      else if (status !== 'ok') problems.push([field, status.problem]);
    }
    return { wait, problems };
  }

  private status(kind: EntityKind, id: string, org: string, final: boolean): LinkStatus {
    const entry = this.inFile.get(kind)!.get(id);
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
}
