/**
 * IMAGE_MEMORY_CACHE_MB (src/features/photos/variant-memory.ts): whatever is served, the answers
 * kept are counted at no more than the budget, each one at least its bytes; the URL served last is
 * kept when it fits, an answer larger than the budget never is; an entry is found under its exact
 * URL only (a changed signature or file misses).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VariantMemory, type VariantFile, type VariantUrlParts } from '../../../src/features/photos/variant-memory.js';

const HASH = 'c1dc47c05cbcaa6e4bf9d6ad1dbf4483022ea3f98f956460fc399f828fad5462';

const urlOf = (photo: number, file: string, signature = 'qkTmVjpfr78IrQ4-ICMz6g'): VariantUrlParts => ({
  offer_id: '2e808d9d-a971-4ff7-96fc-03ee795245ce',
  photo: `photo-${photo}`,
  hash: HASH,
  signature,
  file,
});

const answer = (size: number): VariantFile => ({ bytes: Buffer.alloc(size, 7), contentType: 'image/webp', etag: `"${size}"` });

describe('the memory of served variants', () => {
  it('never counts more than its budget, counts each answer at least at its bytes, keeps the last one that fits', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000, max: 200_000 }),
        fc.array(fc.record({ photo: fc.integer({ min: 0, max: 40 }), width: fc.constantFrom(320, 640, 1280), size: fc.integer({ min: 0, max: 250_000 }) }), {
          minLength: 1,
          maxLength: 80,
        }),
        (budget, served) => {
          const memory = new VariantMemory(budget);
          for (const { photo, width, size } of served) {
            const url = urlOf(photo, `${width}.webp`);
            memory.set(url, answer(size));
            expect(memory.bytes).toBeLessThanOrEqual(budget);
            if (size >= budget) expect(memory.get(url)).toBeUndefined();
          }
          let keptBytes = 0;
          const seen = new Set<string>();
          for (const { photo, width } of served) {
            const key = `${photo}/${width}`;
            if (seen.has(key)) continue;
            seen.add(key);
            keptBytes += memory.get(urlOf(photo, `${width}.webp`))?.bytes.length ?? 0;
          }
          expect(keptBytes).toBeLessThanOrEqual(memory.bytes);
          const last = served.at(-1)!;
          if (last.size + 1_000 <= budget) expect(memory.get(urlOf(last.photo, `${last.width}.webp`))?.bytes.length).toBe(last.size);
        },
      ),
    );
  });

  it('finds an answer under its exact URL only', () => {
    const memory = new VariantMemory(1024 * 1024);
    const kept = answer(2500);
    memory.set(urlOf(0, '640.webp'), kept);
    expect(memory.get(urlOf(0, '640.webp'))).toBe(kept);
    expect(memory.get(urlOf(0, '640.webp', 'qkTmVjpfr78IrQ4-ICMz6h'))).toBeUndefined();
    expect(memory.get(urlOf(0, '320.webp'))).toBeUndefined();
    expect(memory.get(urlOf(1, '640.webp'))).toBeUndefined();
    expect(memory.get({ ...urlOf(0, '640.webp'), hash: HASH.replace(/^c/, 'd') })).toBeUndefined();
    expect(memory.get({ ...urlOf(0, '640.webp'), offer_id: '2e808d9d-a971-4ff7-96fc-03ee795245cf' })).toBeUndefined();
  });
});
