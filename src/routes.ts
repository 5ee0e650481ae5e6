/**
 * The route table: every public URL of the service, in one place. Operations live in routes/
 * (one file per resource); app.ts registers this table. Every /api/v1 route requires an API key
 * (`auth: true`; a test holds every /api/v1 entry to it). GET /docs (Swagger UI) is served by
 * @fastify/swagger-ui, see plugins/openapi.ts.
 */
import type { Operation } from './http/operation.js';
import { listAgentsOperation, readAgent } from './features/catalog/http.js';
import { listChangesOperation } from './features/change-feed/http.js';
import { listBranchAgentsOperation, listBranchesOperation, readBranch } from './features/catalog/http.js';
import { listInvestmentsOperation, readInvestment } from './features/catalog/http.js';
import { offerFieldCatalogue } from './features/offers/meta/meta-http.js';
import { investmentOfferFacetsOperation, offerFacetsOperation } from './features/offers/facets/facets-http.js';
import { listInvestmentOffers, listOffersOperation, readOffer } from './features/offers/http.js';
import { readOrganization } from './features/catalog/http.js';
import { health, openApiDocument, rootRedirect } from './http/service-routes.js';

export interface RouteEntry {
  readonly method: 'GET' | 'POST';
  /** Fastify syntax: `:name` is a path parameter. */
  readonly url: string;
  /** Requires an API key (and so names the APIKeyHeader security scheme in the docs). */
  readonly auth: boolean;
  /** Left out of /openapi.json. */
  readonly hidden?: boolean;
  /**
   * Never answered from the response cache (ETags, 304 and compression still apply): the change
   * feed must show an import from the moment it commits, and its pages differ per website.
   */
  readonly uncached?: boolean;
  // `any`: the table holds operations of many input types (each is checked by defineOperation).
  readonly operation: Operation<any>;
}

export const ROUTES: readonly RouteEntry[] = [
  { method: 'GET', url: '/', auth: false, hidden: true, operation: rootRedirect },
  { method: 'GET', url: '/health', auth: false, operation: health },
  { method: 'GET', url: '/openapi.json', auth: false, hidden: true, operation: openApiDocument },

  { method: 'GET', url: '/api/v1/organization', auth: true, operation: readOrganization },
  { method: 'GET', url: '/api/v1/branches', auth: true, operation: listBranchesOperation },
  { method: 'GET', url: '/api/v1/branches/:branch_id', auth: true, operation: readBranch },
  { method: 'GET', url: '/api/v1/branches/:branch_id/agents', auth: true, operation: listBranchAgentsOperation },
  { method: 'GET', url: '/api/v1/agents', auth: true, operation: listAgentsOperation },
  { method: 'GET', url: '/api/v1/agents/:agent_id', auth: true, operation: readAgent },
  { method: 'GET', url: '/api/v1/investments', auth: true, operation: listInvestmentsOperation },
  { method: 'GET', url: '/api/v1/investments/:investment_id', auth: true, operation: readInvestment },
  { method: 'POST', url: '/api/v1/investments/:investment_id/offers', auth: true, operation: listInvestmentOffers },
  { method: 'GET', url: '/api/v1/offers/:offer_id', auth: true, operation: readOffer },
  { method: 'POST', url: '/api/v1/offers', auth: true, operation: listOffersOperation },

  // Extensions (search): facets and statistics, the field catalogue.
  { method: 'POST', url: '/api/v1/offers/facets', auth: true, operation: offerFacetsOperation },
  { method: 'POST', url: '/api/v1/investments/:investment_id/offers/facets', auth: true, operation: investmentOfferFacetsOperation },
  { method: 'GET', url: '/api/v1/meta/offers', auth: true, operation: offerFieldCatalogue },

  // Extensions (sync): the change feed.
  { method: 'GET', url: '/api/v1/changes', auth: true, uncached: true, operation: listChangesOperation },
];
