/**
 * What one import changed for one website: the shape shared by the change feed, which computes
 * it inside the import's transaction, and the webhook outbox, which turns it into a
 * `content.changed` message for each of the website's endpoints.
 */

/** The kinds of entity the change feed reports, in the order counts are written. */
export const CHANGE_KINDS = ['organization', 'branch', 'agent', 'investment', 'offer'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface ChangeCounts {
  upsert: number;
  delete: number;
}

export interface WebsiteChangeSummary {
  websiteId: string;
  /** The change feed's cursor after this import's changes (GET /api/v1/changes?since=…). */
  cursor: string;
  /** Per kind that changed: how many entities the website now sees anew or changed, and how many it no longer sees. */
  counts: Partial<Record<ChangeKind, ChangeCounts>>;
}
