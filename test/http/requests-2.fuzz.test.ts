/**
 * Fuzzing, part 2 of 2 (the parts run in parallel): random and mutated requests through inject().
 * Never a 5xx, always a JSON error body, security headers on everything, heap flat. FUZZ_REQUESTS
 * sets the number per part (2,000 in `npm test`, 50,000 with TEST_FULL=1, see helpers/scale.ts);
 * FUZZ_SEED replays a run.
 */
import { describe, expect, it } from 'vitest';
import { scaled } from '../helpers/scale.js';
import { runFuzz } from './fuzz-runner.js';

const COUNT = scaled('FUZZ_REQUESTS', 2_000, 50_000);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) + 1 : 0x5eed0002;

describe('fuzzing, part 2', () => {
  it(`${COUNT} random and mutated requests: no 5xx, JSON errors, flat heap`, { timeout: 600_000 }, async () => {
    const figures = await runFuzz(SEED, COUNT);
    expect(figures.serverErrors).toBe(0);
    expect(figures.requests + figures.notSendable).toBe(COUNT);
    // Flat-ish: the key cache and the pools fill during warm-up; after that the heap may wobble,
    // not grow with the number of requests.
    expect(figures.heapMb.growth).toBeLessThan(48);
  });
});
