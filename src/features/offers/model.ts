/**
 * What an offer response is made of, once read from the database: the offer's own fields, its
 * stored offer_data (parsed, for XML, and as pre-rendered JSON text, for JSON) and the related
 * entities that were asked for with `include` (null when not included or not linked).
 * The JSON renderers here and the XML renderers in src/xml/ both take these views.
 */
import type { Agent, Branch, Investment, Organization } from '../../contract/resources.js';
import { toApiTimestamp } from '../../contract/timestamps.js';
import type { FieldSelection } from './sparse-fields.js';

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
  /**
   * The same text as UTF-8 bytes, when the query fetched bytes (JSON responses): pages are then
   * assembled as bytes, with no decoding of offer_data to a string and no encoding back.
   */
  offer_data_json_bytes?: Buffer;
  /**
   * Sparse fields (extension E13): offer_data (and its texts) hold only these fields. Not a field
   * of the answer; the XML renderer writes only their elements.
   */
  fields?: FieldSelection;
  /**
   * With `lang` (extension E12): the language tag whose translated fields offer_data holds; absent
   * when none was served (no translation into it). Not a field of the answer.
   */
  language?: string;
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

/**
 * Included entities are shared by the offers of a page (one organization, a few agents), so each
 * object is serialized once per page.
 */
class EntityJson {
  private readonly rendered = new Map<object, string>();

  of(entity: object | null): string {
    if (entity === null) return 'null';
    let text = this.rendered.get(entity);
    if (text === undefined) {
      text = json(entity);
      this.rendered.set(entity, text);
    }
    return text;
  }
}

function offerJsonParts(offer: OfferView, entities: EntityJson, parts: Buffer[]): void {
  parts.push(
    Buffer.from(
      `{"offer_id":${json(offer.offer_id)},"external_id":${json(offer.external_id)}` +
        `,"created_at":"${toApiTimestamp(offer.created_at)}","updated_at":"${toApiTimestamp(offer.updated_at)}"` +
        `,"offer_data":`,
    ),
    offer.offer_data_json_bytes ?? Buffer.from(offer.offer_data_json),
    Buffer.from(
      `,"version":${offer.version},"agent":${entities.of(offer.agent)},"branch":${entities.of(offer.branch)}` +
        `,"organization":${entities.of(offer.organization)},"investment":${entities.of(offer.investment)}}`,
    ),
  );
}

/** offerToJson as UTF-8 bytes, the stored offer_data bytes copied as they are. */
export function offerToJsonBytes(offer: OfferView): Buffer {
  const parts: Buffer[] = [];
  offerJsonParts(offer, new EntityJson(), parts);
  return Buffer.concat(parts);
}

/** offersPageToJson as UTF-8 bytes (the same text, byte for byte). */
export function offersPageToJsonBytes(page: OffersPageView): Buffer {
  const entities = new EntityJson();
  const parts: Buffer[] = [Buffer.from('{"items":[')];
  const comma = Buffer.from(',');
  page.items.forEach((offer, i) => {
    if (i > 0) parts.push(comma);
    offerJsonParts(offer, entities, parts);
  });
  parts.push(Buffer.from(`],"page":${page.page},"size":${page.size},"total":${page.total},"pages":${page.pages}}`));
  return Buffer.concat(parts);
}
