/**
 * The route table: every public URL of the service, in one place, each bound to the operation of
 * the wing that answers it (src/features/<wing>/http.ts). Every /api/v1 operation is a keyed one
 * (a test holds every /api/v1 entry to `auth`). GET /docs (Swagger UI) is served by
 * @fastify/swagger-ui, see http/plugins/openapi.ts.
 */
import { route, type RouteEntry } from './http/route-registration.js';
import { health, openApiDocument, rootRedirect } from './http/service-routes.js';
import {
  listAgentsOperation,
  listBranchAgentsOperation,
  listBranchesOperation,
  listInvestmentsOperation,
  readAgent,
  readBranch,
  readInvestment,
  readOrganization,
} from './features/catalog/http.js';
import { listChangesOperation } from './features/change-feed/http.js';
import { investmentOfferFacetsOperation, offerFacetsOperation } from './features/offers/facets/facets-http.js';
import { listInvestmentOffers, listOffersOperation, readOffer } from './features/offers/http.js';
import { offerFieldCatalogue } from './features/offers/meta/meta-http.js';
import { investmentOfferClustersOperation, offerClustersOperation } from './features/offers/clusters/clusters-http.js';
import { similarOffersOperation } from './features/offers/similar/similar-http.js';
import { listOfferPhotos, readDemoPhoto, readPhotoVariant } from './features/photos/http.js';
import { readPriceHistoryOperation } from './features/prices/http.js';
import { datasetMd5Operation, datasetXmlOperation, dayPricesOperation, todayPricesOperation } from './features/transparency/http.js';
import { resolveSlugOperation, sitemapOperation, structuredDataOperation } from './features/seo/http.js';

export type { RouteEntry } from './http/route-registration.js';

export const ROUTES: readonly RouteEntry[] = [
  route('GET', '/', rootRedirect, { hidden: true }),
  route('GET', '/health', health),
  route('GET', '/openapi.json', openApiDocument, { hidden: true }),

  route('GET', '/api/v1/organization', readOrganization),
  route('GET', '/api/v1/branches', listBranchesOperation),
  route('GET', '/api/v1/branches/:branch_id', readBranch),
  route('GET', '/api/v1/branches/:branch_id/agents', listBranchAgentsOperation),
  route('GET', '/api/v1/agents', listAgentsOperation),
  route('GET', '/api/v1/agents/:agent_id', readAgent),
  route('GET', '/api/v1/investments', listInvestmentsOperation),
  route('GET', '/api/v1/investments/:investment_id', readInvestment),
  route('POST', '/api/v1/investments/:investment_id/offers', listInvestmentOffers),
  route('GET', '/api/v1/offers/:offer_id', readOffer),
  route('POST', '/api/v1/offers', listOffersOperation),

  // Extensions (search): facets and statistics, the field catalogue.
  route('POST', '/api/v1/offers/facets', offerFacetsOperation),
  route('POST', '/api/v1/investments/:investment_id/offers/facets', investmentOfferFacetsOperation),
  route('GET', '/api/v1/meta/offers', offerFieldCatalogue),

  // Extensions (lists and maps, E13): similar offers, map clusters.
  route('GET', '/api/v1/offers/:offer_id/similar', similarOffersOperation),
  route('POST', '/api/v1/offers/clusters', offerClustersOperation),
  route('POST', '/api/v1/investments/:investment_id/offers/clusters', investmentOfferClustersOperation),

  // Extensions (sync): the change feed.
  route('GET', '/api/v1/changes', listChangesOperation, { uncached: true }),

  // Extensions (photos): an offer's photos (never cached: a photo turns ready without an import),
  // and the public, signed variant URLs they list.
  route('GET', '/api/v1/offers/:offer_id/photos', listOfferPhotos, { uncached: true }),
  route('GET', '/images/:offer_id/:photo/:hash/:signature/:file', readPhotoVariant),
  route('GET', '/demo/photos/:file', readDemoPhoto, { hidden: true }),
  // Extensions (prices): an offer's price history.
  route('GET', '/api/v1/offers/:offer_id/price-history', readPriceHistoryOperation),

  // Extensions (prices): the public price-transparency dataset, no key (rate-limited per client address).
  route('GET', '/open-data/:organization_id/prices.csv', todayPricesOperation),
  route('GET', '/open-data/:organization_id/prices/:file', dayPricesOperation),
  route('GET', '/open-data/:organization_id/dataset.xml', datasetXmlOperation),
  route('GET', '/open-data/:organization_id/dataset.xml.md5', datasetMd5Operation),

  // Extensions (search engines): slugs, the sitemap.
  route('GET', '/api/v1/slugs/:kind/:slug', resolveSlugOperation),
  route('GET', '/api/v1/sitemap.xml', sitemapOperation, { uncached: true }),
  route('GET', '/api/v1/offers/:offer_id/structured-data', structuredDataOperation),
];
