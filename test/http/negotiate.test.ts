/**
 * Accept negotiation for the offer operations (CONTRACT 5): a table of headers, a check that no
 * input makes it throw, and a check that its parser ranks our media types exactly as the
 * `negotiator` package does (the reference for RFC 9110 matching and precedence).
 */
import fc from 'fast-check';
import Negotiator from 'negotiator';
import { describe, expect, it } from 'vitest';
import { scaled } from '../helpers/scale.js';
import { OFFERED_TYPES, preferredFormat, rateOfferedTypes } from '../../src/http/negotiate.js';

describe('preferredFormat', () => {
  it.each<[string | undefined, 'json' | 'xml']>([
    // Defaults
    [undefined, 'json'],
    ['', 'json'],
    ['   ', 'json'],
    ['*/*', 'json'],
    ['application/json', 'json'],
    ['application/*', 'json'],
    // XML asked for
    ['application/xml', 'xml'],
    ['text/xml', 'xml'],
    ['APPLICATION/XML', 'xml'],
    ['application/xml; charset=utf-8', 'xml'],
    ['application/xml;charset="UTF-8"', 'xml'],
    ['application/xml, */*;q=0.1', 'xml'],
    ['text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8', 'xml'],
    // q-values decide
    ['application/xml;q=0.9, application/json;q=0.8', 'xml'],
    ['application/json;q=0.8, application/xml;q=0.9', 'xml'],
    ['application/xml, application/json;q=0.5', 'xml'],
    ['application/json;q=0.5, text/xml', 'xml'],
    ['application/xml;q=0.5, application/json', 'json'],
    ['application/json;q=0, */*', 'xml'],
    // Equal q: XML only when named and JSON is not
    ['application/json, application/xml', 'json'],
    ['application/xml, application/json', 'json'],
    ['application/xml;charset=utf-8, application/json', 'json'],
    ['application/xml;q=0.5, */*;q=0.5', 'xml'],
    ['application/xml, */*', 'xml'],
    ['application/xml, application/*', 'xml'],
    ['text/xml, */*', 'xml'],
    ['text/*, */*', 'json'],
    // text/xml speaks for XML only where named (we send application/xml)
    ['text/*', 'json'],
    ['text/*;q=1, application/*;q=0.5', 'json'],
    ['text/xml;charset=utf-8;q=0.6, application/*;q=0.5', 'xml'],
    ['text/xml;q=0.5, application/*', 'json'],
    // The most specific range sets a type's q
    ['application/xml;q=0, */*', 'json'],
    ['application/*;q=0.1, application/xml;q=0.2, */*', 'xml'],
    ['application/*;q=0.1, */*', 'json'],
    ['*/*;q=0.1, application/xml;q=0.5', 'xml'],
    ['application/xml;charset=utf-8;q=0.9, application/xml;q=0.1, application/json;q=0.5', 'xml'],
    ['application/xml;charset=latin1, application/json;q=0.5', 'json'],
    // Nothing acceptable, or nothing we serve
    ['application/xml;q=0', 'json'],
    ['*/*;q=0', 'json'],
    ['text/html', 'json'],
    ['image/png, text/plain;q=0.5', 'json'],
    ['application/xhtml+xml', 'json'],
    // Malformed
    ['xml', 'json'],
    ['junk', 'json'],
    [',,,;;;', 'json'],
    ['application/xml;q=abc', 'json'],
    ['application/xml;q=1.5', 'json'],
    ['application/xml;q', 'json'],
    ['*/xml', 'json'],
    ['application / xml', 'json'],
    ['application/xml;foo="unterminated', 'json'],
    ['text/plain;foo="a, application/xml, b"', 'json'], // a quoted comma does not split
    ['application/xml;foo="a,b", application/json;q=0.5', 'json'], // foo: not our representation
    ['application/xml, junk', 'xml'],
  ])('Accept %j -> %s', (accept, format) => {
    expect(preferredFormat(accept)).toBe(format);
  });

  it('never throws, whatever the header', () => {
    const pieces = fc.constantFrom(
      'application', 'xml', 'json', 'text', '*', '/', ';', ',', '=', 'q', '0', '1', '.', '"', '\\', ' ', '\t',
      'charset', 'utf-8', '\u0000', '\uD800', '😀', 'q=0.5', 'q=', '""', '\r\n',
    );
    const header = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
      fc.array(pieces, { maxLength: 40 }).map((p) => p.join('')),
    );
    fc.assert(
      fc.property(header, (accept) => {
        expect(['json', 'xml']).toContain(preferredFormat(accept));
      }),
      { numRuns: scaled('NEGOTIATE_RUNS', 1000, 5000) },
    );
  });

  it('answers JSON for values that are not strings', () => {
    expect(preferredFormat(null as unknown as string)).toBe('json');
    expect(preferredFormat(['application/xml'] as unknown as string)).toBe('json');
  });
});

describe('the Accept parser against negotiator', () => {
  const offeredStrings = OFFERED_TYPES.map((t) => `${t.type}/${t.subtype}; charset=utf-8`);

  /** Well-formed headers over the ranges and parameters that matter to us. */
  const range = fc.record({
    type: fc.constantFrom(
      'application/json', 'application/xml', 'text/xml', 'application/*', 'text/*', '*/*',
      'text/html', 'image/png', 'APPLICATION/XML', 'Text/Xml', 'application/xhtml+xml',
    ),
    params: fc.subarray(['charset=utf-8', 'charset=UTF-8', 'charset="utf-8"', 'charset=latin1', 'level=1']),
    q: fc.option(fc.constantFrom('0', '0.0', '0.001', '0.1', '0.5', '0.50', '0.8', '0.999', '1', '1.0', '1.000'), { nil: undefined }),
    space: fc.constantFrom('', ' ', '\t'),
  });
  const header = fc.array(range, { minLength: 1, maxLength: 6 }).map((ranges) =>
    ranges
      .map((r) => [r.type, ...r.params, ...(r.q === undefined ? [] : [`q=${r.q}`])].join(`;${r.space}`))
      .join(', '),
  );

  it('ranks the offered types in negotiator\'s order', () => {
    fc.assert(
      fc.property(header, (accept) => {
        const ours = rateOfferedTypes(accept)
          .map((rating, i) => ({ ...rating, i }))
          .filter((r) => r.q > 0)
          .sort((a, b) => b.q - a.q || b.specificity - a.specificity || a.rangeIndex - b.rangeIndex || a.i - b.i)
          .map((r) => offeredStrings[r.i]);
        const theirs = new Negotiator({ headers: { accept } }).mediaTypes(offeredStrings);
        expect(ours).toEqual(theirs);
      }),
      { numRuns: scaled('NEGOTIATE_ORDER_RUNS', 1000, 3000) },
    );
  });
});
