/**
 * Schemas registered once (Fastify addSchema) and referenced by $id from the routes: they become
 * components/schemas of /openapi.json, and the request validator resolves $ref through the same list.
 */
import type { TSchema } from 'typebox';
import {
  AgentSchema,
  BranchSchema,
  IntervalSchema,
  InvestmentSchema,
  LocationSchema,
  OfferDataSchema,
  OfferSchema,
  OffersPageSchema,
  OpenTimeSchema,
  OrganizationSchema,
} from '../../contract/resources.js';
import type { JsonSchema, SchemaRegistry } from './json-schema.js';
import { ChangeFeedSchema, ChangeSchema } from '../../features/change-feed/index.js';
import {
  FacetsResponseSchema,
  FieldCatalogueSchema,
  SparseOfferDataSchema,
  SparseOfferSchema,
  SparseOffersPageSchema,
  SimilarOfferSchema,
  SimilarOffersSchema,
  BboxSchema,
  ClusterSchema,
  ClustersResponseSchema,
} from '../../features/offers/index.js';
import { OfferPhotosSchema, PhotoSchema, PhotoVariantSchema } from '../../features/photos/index.js';
import { AncillaryPriceSchema, PriceEntrySchema, PriceHistorySchema } from '../../features/prices/index.js';
import { SlugSchema } from '../../features/seo/index.js';
import { ErrorResponseSchema, HTTPValidationErrorSchema, ValidationErrorSchema } from './error-responses.js';

export const SHARED_SCHEMAS: readonly TSchema[] = [
  LocationSchema,
  IntervalSchema,
  OpenTimeSchema,
  OrganizationSchema,
  BranchSchema,
  AgentSchema,
  InvestmentSchema,
  OfferDataSchema,
  OfferSchema,
  OffersPageSchema,
  ErrorResponseSchema,
  ValidationErrorSchema,
  HTTPValidationErrorSchema,
  FacetsResponseSchema,
  FieldCatalogueSchema,
  SparseOfferDataSchema,
  SparseOfferSchema,
  SparseOffersPageSchema,
  SimilarOfferSchema,
  SimilarOffersSchema,
  BboxSchema,
  ClusterSchema,
  ClustersResponseSchema,
  ChangeSchema,
  ChangeFeedSchema,
  PhotoVariantSchema,
  PhotoSchema,
  OfferPhotosSchema,
  AncillaryPriceSchema,
  PriceEntrySchema,
  PriceHistorySchema,
  SlugSchema,
];

export const SCHEMA_REGISTRY: SchemaRegistry = new Map(
  SHARED_SCHEMAS.map((schema) => [(schema as JsonSchema).$id!, schema as JsonSchema]),
);
