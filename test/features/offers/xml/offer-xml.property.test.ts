/**
 * Whatever the content, the XML of an offer parses with a strict parser and gives back every value:
 * text minus the characters XML 1.0 forbids, numbers as JSON writes them, booleans, nulls as empty
 * elements. The expected document is built by a plain recursive walk over the input (objects nest,
 * arrays hold named items), independent of the renderer's schema-compiled writers.
 */
import fc from 'fast-check';
import type { TSchema } from 'typebox';
import { describe, expect, it } from 'vitest';
import { OFFER_DATA_FIELDS } from '../../../../src/contract/offer-fields.js';
import type { OfferView } from '../../../../src/features/offers/model.js';
import { AgentSchema, BranchSchema, InvestmentSchema, OrganizationSchema } from '../../../../src/contract/resources.js';
import { escapeXmlText } from '../../../../src/xml/escape.js';
import { offerToXml, offersPageToXml } from '../../../../src/features/offers/xml.js';
import { parseXml } from '../../../helpers/xml-tree.js';

/** XML 1.0 Char production, by code point. */
const allowedInXml = (cp: number) =>
  cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || cp >= 0x10000;

/** `text` minus forbidden characters; iterating a string yields lone surrogates on their own. */
function expectedText(text: string): string {
  let out = '';
  for (const char of text) if (allowedInXml(char.codePointAt(0)!)) out += char;
  return out;
}

const ITEM_NAMES: Record<string, string> = {
  photos_urls: 'photo_url',
  floor_plan_urls: 'floor_plan_url',
  social_media_links: 'social_media_link',
  monday: 'interval',
  tuesday: 'interval',
  wednesday: 'interval',
  thursday: 'interval',
  friday: 'interval',
  saturday: 'interval',
  sunday: 'interval',
};

/** The lines parseXml gives for `value` written as element `name` at `path`. */
function expectedLines(path: string, name: string, value: unknown, out: string[]): void {
  const leaf = (text: string) => {
    out.push(`${path} = ${text === '' ? '(empty)' : JSON.stringify(text)}`);
  };
  if (value === null || value === undefined) {
    leaf('');
  } else if (Array.isArray(value)) {
    if (value.length === 0) {
      leaf('');
    } else {
      const item = ITEM_NAMES[name]!;
      out.push(`${path}/`);
      value.forEach((entry, i) => expectedLines(`${path}/${item}${i === 0 ? '' : `[${i + 1}]`}`, item, entry, out));
    }
  } else if (typeof value === 'object') {
    out.push(`${path}/`);
    for (const [key, child] of Object.entries(value)) expectedLines(`${path}/${key}`, key, child, out);
  } else if (typeof value === 'string') {
    leaf(expectedText(value));
  } else if (typeof value === 'number') {
    leaf(Number.isFinite(value) ? JSON.stringify(value) : '');
  } else if (typeof value === 'boolean') {
    leaf(String(value));
  } else {
    throw new Error(`unexpected ${typeof value}`);
  }
}

// --- arbitraries ---------------------------------------------------------------------------------

const troublesome = fc.constantFrom(
  ']]>', '&', '<', '>', '"', "'", '&amp;', '&#0;', '<![CDATA[', '<!--', '\r\n', '\r', '\n', '\t', ' ',
  '\u0000', '\u0008', '\u000B', '\u000C', '\u001F', '\u007F', '\u0085', '\u2028',
  '\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uDE00\uD83D', '\uFFFE', '\uFFFF', '\uFFFD',
  '😀', '👨‍👩‍👧', '\u{10FFFF}', 'zażółć',
);
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
const codePoint = fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c));
const text = fc
  .array(fc.oneof(troublesome, codeUnit, codePoint, fc.string({ unit: 'binary' })), { maxLength: 12 })
  .map((parts) => parts.join(''));

const number = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -0, 1e21, 1e-7, 123456789.125, Number.MAX_VALUE, Number.MIN_VALUE, NaN, Infinity, -Infinity),
);
const orNull = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(null) });

const offerData: fc.Arbitrary<Record<string, unknown>> = fc.record(
  Object.fromEntries(
    OFFER_DATA_FIELDS.map((field) => {
      switch (field.kind) {
        case 'number':
        case 'integer':
          return [field.name, orNull(number)];
        case 'boolean':
          return [field.name, orNull(fc.boolean())];
        case 'url_list':
          return [field.name, orNull(fc.array(orNull(text), { maxLength: 4 }))];
        default:
          return [field.name, orNull(text)];
      }
    }),
  ),
);

/** Values of the shape a schema describes (any field may be null), keys in schema order. */
function fromSchema(schema: TSchema): fc.Arbitrary<unknown> {
  const s = schema as { anyOf?: TSchema[]; type?: string; properties?: Record<string, TSchema>; items?: TSchema };
  if (s.anyOf) return fc.oneof(...s.anyOf.map(fromSchema));
  switch (s.type) {
    case 'null':
      return fc.constant(null);
    case 'object':
      return fc.record(Object.fromEntries(Object.entries(s.properties!).map(([k, v]) => [k, orNull(fromSchema(v))])));
    case 'array':
      return fc.array(fromSchema(s.items!), { maxLength: 3 });
    case 'number':
    case 'integer':
      return number;
    case 'boolean':
      return fc.boolean();
    default:
      return text;
  }
}

const offer: fc.Arbitrary<OfferView> = fc
  .record({
    offer_id: text,
    external_id: text,
    offer_data: offerData,
    version: fc.integer(),
    agent: orNull(fromSchema(AgentSchema)),
    branch: orNull(fromSchema(BranchSchema)),
    organization: orNull(fromSchema(OrganizationSchema)),
    investment: orNull(fromSchema(InvestmentSchema)),
  })
  .map((r) => ({
    ...r,
    created_at: '2025-01-31 09:15:00.5+00',
    updated_at: '2025-02-01 00:00:00+00',
    offer_data_json: JSON.stringify(r.offer_data),
  })) as fc.Arbitrary<OfferView>;

function expectedOffer(path: string, o: OfferView, out: string[]): void {
  out.push(`${path}/`);
  expectedLines(`${path}/offer_id`, 'offer_id', o.offer_id, out);
  expectedLines(`${path}/external_id`, 'external_id', o.external_id, out);
  out.push(`${path}/created_at = "2025-01-31 09:15:00.500000+00:00"`, `${path}/updated_at = "2025-02-01 00:00:00+00:00"`);
  expectedLines(`${path}/offer_data`, 'offer_data', o.offer_data, out);
  for (const key of ['version', 'agent', 'branch', 'organization', 'investment'] as const) {
    expectedLines(`${path}/${key}`, key, o[key], out);
  }
}

describe('XML of arbitrary content', () => {
  it('parses strictly and gives back every value of an offer', () => {
    fc.assert(
      fc.property(offer, (o) => {
        const expected: string[] = [];
        expectedOffer('offer', o, expected);
        expect(parseXml(offerToXml(o)).lines).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('parses strictly and gives back every value of a page', () => {
    fc.assert(
      fc.property(fc.array(offer, { maxLength: 3 }), fc.nat(), fc.nat(), (items, page, total) => {
        const expected: string[] = ['offers/'];
        if (items.length === 0) expected.push('offers/items = (empty)');
        else expected.push('offers/items/');
        items.forEach((o, i) => expectedOffer(`offers/items/offer${i === 0 ? '' : `[${i + 1}]`}`, o, expected));
        expected.push(`offers/page = "${page}"`, 'offers/size = "3"', `offers/total = "${total}"`, 'offers/pages = "7"');
        const xml = offersPageToXml({ items, page, size: 3, total, pages: 7 });
        expect(parseXml(xml).lines).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});

describe('escapeXmlText', () => {
  it.each([
    ['plain text', 'plain text'],
    ['a & b < c > d', 'a &amp; b &lt; c &gt; d'],
    ['x]]>y', 'x]]&gt;y'],
    ['"quoted" \'single\'', '"quoted" \'single\''],
    ['line\r\nbreak', 'line&#13;\nbreak'],
    ['tab\tand\nnewline', 'tab\tand\nnewline'],
    ['nul\u0000 bell\u0007 vt\u000B ff\u000C us\u001F', 'nul bell vt ff us'],
    ['\u007F\u0085\u2028 are allowed', '\u007F\u0085\u2028 are allowed'],
    ['emoji 😀 kept', 'emoji 😀 kept'],
    ['lone \uD83D high, lone \uDE00 low, reversed \uDE00\uD83D', 'lone  high, lone  low, reversed '],
    ['\uFFFE\uFFFF\uFFFD', '\uFFFD'],
    ['<![CDATA[x]]>', '&lt;![CDATA[x]]&gt;'],
  ])('%j -> %j', (input, output) => {
    expect(escapeXmlText(input)).toBe(output);
  });

  it('drops exactly the forbidden characters of any string', () => {
    fc.assert(
      fc.property(text, (s) => {
        const escaped = escapeXmlText(s);
        expect(escaped).not.toMatch(/[<>\r]|&(?!amp;|lt;|gt;|#13;)/);
        const unescaped = escaped.replace(/&(amp|lt|gt|#13);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', '#13': '\r' })[e]!);
        expect(unescaped).toBe(expectedText(s));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('values of an unexpected shape', () => {
  it('are written as their JSON text, so the document stays well formed', () => {
    const o = {
      offer_id: 'x',
      external_id: 'y',
      created_at: '2025-01-31 09:15:00+00',
      updated_at: '2025-01-31 09:15:00+00',
      offer_data: { price: { amount: '<1>' }, photos_urls: 'not-a-list', title: ['a'] },
      offer_data_json: '{"unexpected":1}',
      version: 1,
      agent: 'not-an-object',
      branch: null,
      organization: null,
      investment: null,
    } as unknown as OfferView;
    const { leaves } = parseXml(offerToXml(o));
    expect(leaves.get('offer/offer_data/price')).toBe('{"amount":"<1>"}');
    expect(leaves.get('offer/offer_data/photos_urls')).toBe('"not-a-list"');
    expect(leaves.get('offer/offer_data/title')).toBe('["a"]');
    expect(leaves.get('offer/offer_data/rooms')).toBe('');
    expect(leaves.get('offer/agent')).toBe('"not-an-object"');
  });
});
