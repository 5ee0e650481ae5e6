import { describe, expect, it } from 'vitest';
import { FragmentCache } from '../../src/xml/fragment-cache.js';

describe('FragmentCache', () => {
  it('hits only when the source text is the same', () => {
    const cache = new FragmentCache(1000);
    cache.set('a', '{"x":1}', '<x>1</x>');
    expect(cache.get('a', '{"x":1}')).toBe('<x>1</x>');
    expect(cache.get('a', '{"x":2}')).toBeUndefined();
    expect(cache.get('b', '{"x":1}')).toBeUndefined();
  });

  it('replaces the entry of a key and counts its characters once', () => {
    const cache = new FragmentCache(1000);
    cache.set('a', 'ss', 'ff');
    cache.set('a', 'sss', 'fff');
    expect(cache.size).toBe(6);
    expect(cache.get('a', 'ss')).toBeUndefined();
    expect(cache.get('a', 'sss')).toBe('fff');
  });

  it('evicts the least recently used entries when over its character bound', () => {
    const cache = new FragmentCache(12); // three entries of 4 characters
    cache.set('a', 'aa', 'AA');
    cache.set('b', 'bb', 'BB');
    cache.set('c', 'cc', 'CC');
    expect(cache.get('a', 'aa')).toBe('AA'); // a is now the most recent
    cache.set('d', 'dd', 'DD');
    expect(cache.get('b', 'bb')).toBeUndefined();
    expect(cache.get('a', 'aa')).toBe('AA');
    expect(cache.get('c', 'cc')).toBe('CC');
    expect(cache.get('d', 'dd')).toBe('DD');
    expect(cache.size).toBe(12);
  });

  it('does not keep an entry larger than the whole bound', () => {
    const cache = new FragmentCache(4);
    cache.set('a', 'aaa', 'AAA');
    expect(cache.get('a', 'aaa')).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
