/** Accept-Encoding and If-None-Match parsing (the wiring is tested in test/http/response-cache.test.ts). */
import { describe, expect, it } from 'vitest';
import { variantEtag } from '../../src/http/caching/response-cache.js';
import { preferredEncoding } from '../../src/http/caching/accept-encoding.js';
import { ifNoneMatchHits } from '../../src/http/caching/if-none-match.js';

describe('preferredEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['GZIP;Q=1, BR;Q=0.9', 'gzip'],
    ['br;q=0.9, gzip;q=0.9', 'br'],
    ['br;q=0', undefined],
    ['br;q=0, *', 'gzip'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['*', 'br'],
    ['identity', undefined],
    ['deflate, compress', undefined],
    ['gzip;q=abc', undefined],
    ['gzip;q=2', undefined],
  ])('%s -> %s', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});

describe('ifNoneMatchHits', () => {
  const tag = '"abc"';
  it.each([
    [undefined, false],
    ['', false],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['"x",W/"abc" ', true],
    ['*', true],
    [' * ', true],
    ['"abcd"', false],
    ['abc', false],
    ['"ab"c"', false],
  ])('%s -> %s', (header, expected) => {
    expect(ifNoneMatchHits(header, [tag])).toBe(expected);
  });

  it('matches any of several tags (the codings of one body)', () => {
    const tags = [tag, variantEtag(tag, 'br'), variantEtag(tag, 'gzip')];
    expect(tags).toEqual(['"abc"', '"abc-br"', '"abc-gzip"']);
    expect(ifNoneMatchHits('"abc-gzip"', tags)).toBe(true);
    expect(ifNoneMatchHits('W/"abc-br"', tags)).toBe(true);
    expect(ifNoneMatchHits('"abc-deflate"', tags)).toBe(false);
  });
});
