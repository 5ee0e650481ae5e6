/**
 * The offer body cache (src/features/offers/body-cache.ts) keeps an offer's translated offer_data
 * (extension E12) beside its stored body: made once per stored version and language, never served
 * for another version, and counted in the cache's size.
 */
import { describe, expect, it } from 'vitest';
import { OfferBodyCache } from '../../../src/features/offers/body-cache.js';

const ID = '00000000-0000-4000-8000-000000000001';
const BODY = Buffer.from('{"title":"Mieszkanie","description":"<p>Jasne</p>"}');

/** A maker that counts its calls. */
function maker(text: string) {
  let calls = 0;
  return { make: () => (calls++, Buffer.from(text)), calls: () => calls };
}

describe('translated bodies in the offer body cache', () => {
  it('are made once per version and language while the body is held', () => {
    const cache = new OfferBodyCache(1 << 20);
    cache.set(ID, 'v1', BODY);
    const en = maker('{"title":"Flat"}');
    const uk = maker('{"title":"Квартира"}');
    for (let i = 0; i < 3; i++) {
      expect(cache.translated(ID, 'v1', 'en', en.make).toString()).toBe('{"title":"Flat"}');
      expect(cache.translated(ID, 'v1', 'uk', uk.make).toString()).toBe('{"title":"Квартира"}');
    }
    expect([en.calls(), uk.calls()]).toEqual([1, 1]);
    // The body itself is still the stored one.
    expect(cache.get(ID, 'v1')).toEqual(BODY);
  });

  it('are never served for another version of the offer, and not kept when the body is not held', () => {
    const cache = new OfferBodyCache(1 << 20);
    cache.set(ID, 'v1', BODY);
    cache.translated(ID, 'v1', 'en', () => Buffer.from('{"title":"Flat"}'));
    const newer = maker('{"title":"Flat, renovated"}');
    expect(cache.translated(ID, 'v2', 'en', newer.make).toString()).toBe('{"title":"Flat, renovated"}');
    expect(cache.translated(ID, 'v2', 'en', newer.make).toString()).toBe('{"title":"Flat, renovated"}');
    expect(newer.calls()).toBe(2);
    cache.set(ID, 'v2', BODY);
    expect(cache.translated(ID, 'v2', 'en', newer.make).toString()).toBe('{"title":"Flat, renovated"}');
    expect(cache.translated(ID, 'v2', 'en', newer.make).toString()).toBe('{"title":"Flat, renovated"}');
    expect(newer.calls()).toBe(3);
  });

  it('count in the cache\'s size: a translation that does not fit beside the bodies pushes the oldest out', () => {
    const cache = new OfferBodyCache(5_000);
    const other = '00000000-0000-4000-8000-000000000002';
    cache.set(other, 'v1', BODY);
    cache.set(ID, 'v1', BODY);
    expect(cache.get(other, 'v1')).toEqual(BODY);
    // Both bodies take about 300 bytes; a 4.7 KB translation of the first leaves no room for the other.
    cache.translated(ID, 'v1', 'en', () => Buffer.alloc(4_700, 'x'));
    expect(cache.get(other, 'v1')).toBeUndefined();
    expect(cache.get(ID, 'v1')).toEqual(BODY);
  });
});
