/**
 * What one API key may see. Its website's organization: every query is limited to it, and ids of
 * other organizations do not exist for the caller. Within it, the website's scope (extension E7;
 * src/domain/website-scope.ts) may narrow what exists further: offers out of scope, and
 * investments out of scope when the scope lists investments, answer as if they did not exist.
 */
import type { WebsiteScope } from './website-scope.js';

export interface Visibility {
  readonly organizationId: string;
  /** null or absent: the whole organization. */
  readonly scope?: WebsiteScope | null;
}
