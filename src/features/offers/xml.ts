/**
 * XML renderings of the offer operations (CONTRACT 5): one offer, root <offer>, and the Offer page,
 * root <offers>. Element order follows the interface tables: the offer's own fields, offer_data in
 * the field catalogue's order, the included entities in the order of their schemas.
 *
 * offer_data is most of an offer and most of the escaping work (its HTML description), so its
 * rendered element may be kept in a FragmentCache (buildApp hands one to the routes) per offer,
 * checked against the stored offer_data JSON text: that text changes whenever offer_data does, so a
 * hit is always current, and on a hit offer_data itself is never read (the offer queries parse it
 * only on demand).
 */
import type { OfferView, OffersPageView } from './model.js';
import { OFFER_DATA_FIELDS } from '../../contract/offer-fields.js';
import { toXmlTimestamp } from '../../contract/timestamps.js';
import { AgentSchema, BranchSchema, InvestmentSchema, OrganizationSchema, WEEKDAYS } from '../../contract/resources.js';
import {
  fieldWritersFromSchema,
  listElement,
  objectElement,
  scalarElement,
  type ElementWriter,
} from '../../xml/element-writers.js';
import { escapeXmlText } from '../../xml/escape.js';
import type { FragmentCache } from '../../xml/fragment-cache.js';
import type { FieldSelection } from './sparse-fields.js';

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** Item element names of the array fields of the entities (offer_data's come from the catalogue). */
const ENTITY_ITEM_NAMES: Readonly<Record<string, string>> = {
  social_media_links: 'social_media_link',
  ...Object.fromEntries(WEEKDAYS.map((day) => [day, 'interval'])),
};

const OFFER_DATA_WRITERS = OFFER_DATA_FIELDS.map((field) => {
  if (field.kind !== 'url_list') return { key: field.name, write: scalarElement(field.name) };
  if (!field.xmlItem) throw new Error(`offer_data field ${field.name} has no XML item name`);
  return { key: field.name, write: listElement(field.name, scalarElement(field.xmlItem)) };
});
const writeOfferData = objectElement('offer_data', OFFER_DATA_WRITERS);

/**
 * The <offer_data> writer of a sparse selection (extension E13): only the selected elements, in
 * catalogue order. Made once per selection object (a request's, shared by the offers of its page).
 */
const sparseWriters = new WeakMap<FieldSelection, ElementWriter>();
function sparseOfferDataWriter(selection: FieldSelection): ElementWriter {
  let writer = sparseWriters.get(selection);
  if (writer === undefined) {
    writer = objectElement('offer_data', selection.indexes.map((i) => OFFER_DATA_WRITERS[i]!));
    sparseWriters.set(selection, writer);
  }
  return writer;
}

/**
 * Included entities are shared between the offers of a page (one organization object, one object
 * per agent or branch), so each object is written once and its element reused, for as long as the
 * object lives. Entity objects are built per request and never changed after being read.
 */
function oncePerObject(write: ElementWriter): ElementWriter {
  const written = new WeakMap<object, string>();
  return (value) => {
    if (typeof value !== 'object' || value === null) return write(value);
    let element = written.get(value);
    if (element === undefined) {
      element = write(value);
      written.set(value, element);
    }
    return element;
  };
}

const writeAgent = oncePerObject(objectElement('agent', fieldWritersFromSchema(AgentSchema, ENTITY_ITEM_NAMES)));
const writeBranch = oncePerObject(objectElement('branch', fieldWritersFromSchema(BranchSchema, ENTITY_ITEM_NAMES)));
const writeOrganization = oncePerObject(
  objectElement('organization', fieldWritersFromSchema(OrganizationSchema, ENTITY_ITEM_NAMES)),
);
const writeInvestment = oncePerObject(
  objectElement('investment', fieldWritersFromSchema(InvestmentSchema, ENTITY_ITEM_NAMES)),
);
const writeExternalId = scalarElement('external_id');
const writeVersion = scalarElement('version');

/**
 * A good size for the cache of rendered <offer_data> elements: 16 million characters (16-32 MB: V8
 * keeps text with any non-Latin-1 character, e.g. Polish, at two bytes a character) hold about
 * 1,100 offers of 6.5 KB, over ten pages of 100.
 */
export const OFFER_DATA_FRAGMENT_CHARS = 16_000_000;

function offerDataElement(offer: OfferView, fragments: FragmentCache | undefined): string {
  // A sparse element is kept apart from the offer's full one (its own key), checked the same way
  // against the (sparse) offer_data text it was written from.
  // So is a translated one (E12): its language is in the key, so the original's stays.
  const base = offer.fields ? `${offer.offer_id}\n${offer.fields.key}` : offer.offer_id;
  const key = offer.language === undefined ? base : `${base}\n@${offer.language}`;
  const cached = fragments?.get(key, offer.offer_data_json);
  if (cached !== undefined) return cached;
  const fragment = (offer.fields ? sparseOfferDataWriter(offer.fields) : writeOfferData)(offer.offer_data);
  fragments?.set(key, offer.offer_data_json, fragment);
  return fragment;
}

/** One <offer> element, children in the contract's order. */
function offerElement(offer: OfferView, fragments: FragmentCache | undefined): string {
  return (
    '<offer><offer_id>' +
    escapeXmlText(offer.offer_id) +
    '</offer_id>' +
    writeExternalId(offer.external_id) +
    '<created_at>' +
    toXmlTimestamp(offer.created_at) +
    '</created_at><updated_at>' +
    toXmlTimestamp(offer.updated_at) +
    '</updated_at>' +
    offerDataElement(offer, fragments) +
    writeVersion(offer.version) +
    writeAgent(offer.agent) +
    writeBranch(offer.branch) +
    writeOrganization(offer.organization) +
    writeInvestment(offer.investment) +
    '</offer>'
  );
}

/** A whole XML document (declaration included) for one offer: root <offer>. */
export function offerToXml(offer: OfferView, fragments?: FragmentCache): string {
  return XML_DECLARATION + offerElement(offer, fragments);
}

/** A whole XML document for an offer page: root <offers>. */
export function offersPageToXml(page: OffersPageView, fragments?: FragmentCache): string {
  let items = '';
  for (const offer of page.items) items += offerElement(offer, fragments);
  return (
    XML_DECLARATION +
    '<offers>' +
    (items === '' ? '<items/>' : '<items>' + items + '</items>') +
    `<page>${page.page}</page><size>${page.size}</size><total>${page.total}</total><pages>${page.pages}</pages>` +
    '</offers>'
  );
}
