/**
 * The XML documents of the offer operations against golden files (test/xml/golden/*.xml, indented
 * for reading): both are parsed with saxes and compared element by element (name, order, text).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OFFER_DATA_FIELDS } from '../../../../src/contract/offer-fields.js';
import { FragmentCache } from '../../../../src/xml/fragment-cache.js';
import { offerToXml, offersPageToXml } from '../../../../src/features/offers/xml.js';
import { bareOffer, fullOffer, organization, sparseOffer } from '../../../helpers/offer-views.js';
import { parseXml } from '../../../helpers/xml-tree.js';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
const golden = (name: string) => readFileSync(new URL(`./golden/${name}`, import.meta.url), 'utf8');

function expectSameDocument(actual: string, goldenName: string): void {
  expect(actual.startsWith(`${DECLARATION}\n<`)).toBe(true);
  expect(actual).not.toContain('<![CDATA[');
  const parsed = parseXml(actual);
  expect(parsed.declaration).toEqual({ version: '1.0', encoding: 'UTF-8' });
  expect(parsed.lines).toEqual(parseXml(golden(goldenName)).lines);
}

/** Names of the child elements of the element at `path` (`offer/offer_data`), in order. */
function childNames(xml: string, path: string): string[] {
  const names: string[] = [];
  for (const line of parseXml(xml).lines) {
    const rest = line.startsWith(`${path}/`) ? line.slice(path.length + 1) : undefined;
    const name = rest?.match(/^([a-z_]+)(?:\[\d+\])?(?:\/$| = )/)?.[1];
    if (name !== undefined && !names.includes(name)) names.push(name);
  }
  return names;
}

describe('offerToXml', () => {
  it('renders a fully populated offer with all four entities included', () => {
    expectSameDocument(offerToXml(fullOffer), 'offer-full.xml');
  });

  it('renders an offer with null fields and no entity included as empty elements', () => {
    const xml = offerToXml(bareOffer);
    expectSameDocument(xml, 'offer-bare.xml');
    expect(xml).toContain('<version>1</version><agent/><branch/><organization/><investment/></offer>');
    expect(xml).toContain('<price/>');
  });

  it('puts the children of <offer> and <offer_data> in contract order', () => {
    const xml = offerToXml(fullOffer);
    expect(childNames(xml, 'offer')).toEqual([
      'offer_id', 'external_id', 'created_at', 'updated_at', 'offer_data', 'version',
      'agent', 'branch', 'organization', 'investment',
    ]);
    expect(childNames(xml, 'offer/offer_data')).toEqual(OFFER_DATA_FIELDS.map((f) => f.name));
  });

  it('writes created_at and updated_at with a space and +00:00', () => {
    const { leaves } = parseXml(offerToXml(fullOffer));
    expect(leaves.get('offer/created_at')).toBe('2025-01-20 08:00:00.123456+00:00');
    expect(leaves.get('offer/updated_at')).toBe('2025-01-31 09:15:00+00:00');
  });

  it('writes the document without layout whitespace', () => {
    expect(offerToXml(bareOffer)).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<offer><offer_id>/);
  });

  it('gives the same document again once offer_data is cached, and a new one when offer_data changes', () => {
    const fragments = new FragmentCache(1_000_000);
    const first = offerToXml(fullOffer, fragments);
    expect(fragments.size).toBeGreaterThan(0);
    expect(offerToXml({ ...fullOffer }, fragments)).toBe(first);
    const changedData = { ...fullOffer.offer_data, price: 1 };
    const changed = offerToXml({ ...fullOffer, offer_data: changedData, offer_data_json: JSON.stringify(changedData) }, fragments);
    expect(parseXml(changed).leaves.get('offer/offer_data/price')).toBe('1');
  });
});

describe('offersPageToXml', () => {
  it('renders a page of two offers in the <offers> envelope', () => {
    const page = { items: [fullOffer, sparseOffer], page: 2, size: 2, total: 5, pages: 3 };
    expectSameDocument(offersPageToXml(page), 'offers-page.xml');
  });

  it('writes an entity object shared by several offers the same way in each, and a new object afresh', () => {
    const shared = { ...organization };
    const page = {
      items: [
        { ...fullOffer, organization: shared },
        { ...bareOffer, organization: shared },
        { ...bareOffer, organization: { ...shared, name: 'Inna nazwa' } },
      ],
      page: 1,
      size: 3,
      total: 3,
      pages: 1,
    };
    const { leaves } = parseXml(offersPageToXml(page));
    expect(leaves.get('offers/items/offer/organization/name')).toBe('Nieruchomości Wawel');
    expect(leaves.get('offers/items/offer[2]/organization/name')).toBe('Nieruchomości Wawel');
    expect(leaves.get('offers/items/offer[3]/organization/name')).toBe('Inna nazwa');
    const organizations = parseXml(offersPageToXml(page)).lines.filter((l) => /offer(\[2\])?\/organization/.test(l));
    expect(organizations.length).toBeGreaterThan(20);
  });

  it('renders an empty page with an empty <items/>', () => {
    expect(offersPageToXml({ items: [], page: 1, size: 50, total: 0, pages: 0 })).toBe(
      `${DECLARATION}\n<offers><items/><page>1</page><size>50</size><total>0</total><pages>0</pages></offers>`,
    );
  });
});
