/**
 * What one API key may see. Today that is its website's organization: every query is limited to
 * it, and ids of other organizations do not exist for the caller.
 */
export interface Visibility {
  readonly organizationId: string;
}
