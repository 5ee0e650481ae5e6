/**
 * What an offer response is made of, once read from the database: the offer's own fields, its
 * stored offer_data (parsed, for XML, and as pre-rendered JSON text, for JSON) and the related
 * entities that were asked for with `include` (null when not included or not linked).
 * The JSON renderers here and the XML renderers in src/xml/ both take these views.
 */
import type { Agent, Branch, Investment, Organization } from '../schemas/resources.js';
import { toApiTimestamp } from './timestamps.js';

export interface OfferView {
  offer_id: string;
  external_id: string;
  /** timestamptz as the database returns it ("2025-01-31 09:15:00.123456+00"). */
  created_at: string;
  updated_at: string;
  /** offer_data, every field present in table order. */
  offer_data: Record<string, unknown>;
  /** The same offer_data as stored JSON text. */
  offer_data_json: string;
  version: number;
  agent: Agent | null;
  branch: Branch | null;
  organization: Organization | null;
  investment: Investment | null;
}

export interface OffersPageView {
  items: OfferView[];
  page: number;
  size: number;
  total: number;
  pages: number;
}

const json = JSON.stringify;

/** One offer as JSON text, fields in table order, offer_data spliced from its stored text. */
export function offerToJson(offer: OfferView): string {
  return (
    `{"offer_id":${json(offer.offer_id)},"external_id":${json(offer.external_id)}` +
    `,"created_at":"${toApiTimestamp(offer.created_at)}","updated_at":"${toApiTimestamp(offer.updated_at)}"` +
    `,"offer_data":${offer.offer_data_json},"version":${offer.version}` +
    `,"agent":${json(offer.agent)},"branch":${json(offer.branch)}` +
    `,"organization":${json(offer.organization)},"investment":${json(offer.investment)}}`
  );
}

/** The Offer page envelope as JSON text. */
export function offersPageToJson(page: OffersPageView): string {
  return (
    `{"items":[${page.items.map(offerToJson).join(',')}]` +
    `,"page":${page.page},"size":${page.size},"total":${page.total},"pages":${page.pages}}`
  );
}
