/** What an import did, per kind of record: created, changed, unchanged (and offers pruned). */
import type { WebsiteChangeSummary } from '../features/change-feed/index.js';
import type { WriteCounts } from '../db/upsert.js';
import type { ScopeChange } from '../features/access/index.js';

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
  /** The websites whose change feed the import changed, with their new cursor (E5, E6). */
  feed: WebsiteChangeSummary[];
  /** Websites that existed before and whose scope the import set, changed or removed. */
  scopeChanges: ScopeChange[];
}

/** Counts as the import goes: rows accepted (written or unchanged) and what the writes report. */
export class ImportCounts {
  private readonly counts = Object.fromEntries(
    REPORT_KINDS.map((kind) => [kind, { created: 0, changed: 0, accepted: 0 }]),
  ) as Record<ReportKind, { created: number; changed: number; accepted: number }>;

  /** Rows that passed every check and are written (or would be, were there no problem elsewhere). */
  accept(kind: ReportKind, rows: number): void {
    this.counts[kind].accepted += rows;
  }

  /** What a write reported. */
  add(kind: ReportKind, written: WriteCounts): void {
    this.counts[kind].created += written.created;
    this.counts[kind].changed += written.changed;
  }

  report(pruned: number, records: number, contentVersion: string): Omit<ImportReport, 'feed' | 'scopeChanges'> {
    const counts = {} as Record<ReportKind, KindCounts>;
    let changed = pruned > 0;
    for (const kind of REPORT_KINDS) {
      const c = this.counts[kind];
      counts[kind] = { created: c.created, changed: c.changed, unchanged: c.accepted - c.created - c.changed };
      if (c.created + c.changed > 0) changed = true;
    }
    return { counts, pruned, records, contentVersion, changed };
  }
}
