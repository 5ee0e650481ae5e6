/**
 * addVary (src/http/vary.ts) against the rule it states, written the plain way: the current names
 * (comma-separated, trimmed, empty ones dropped), untouched when one is `*`, then each value not
 * named yet in any letter case, in order, joined with ", ".
 */
import fc from 'fast-check';
import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { addVary } from '../../src/http/vary.js';

function reference(current: string | undefined, values: string[]): string | undefined {
  if (current === undefined) return values.join(', ');
  const list = current.split(',').map((v) => v.trim()).filter(Boolean);
  if (list.includes('*')) return current;
  const named = new Set(list.map((v) => v.toLowerCase()));
  for (const value of values) {
    if (named.has(value.toLowerCase())) continue;
    named.add(value.toLowerCase());
    list.push(value);
  }
  return list.join(', ');
}

/** Just the two methods addVary uses, over one header value. */
function replyWith(vary: string | undefined) {
  let value = vary;
  const reply = {
    getHeader: (name: string) => (name === 'vary' ? value : undefined),
    header: (name: string, v: string) => {
      if (name === 'vary') value = v;
      return reply;
    },
  };
  return { reply: reply as unknown as FastifyReply, value: () => value };
}

const name = fc.constantFrom('Accept', 'accept', 'Accept-Encoding', 'Authorization', 'AUTHORIZATION', 'Origin', '*', '');
const header = fc.array(fc.tuple(fc.constantFrom('', ' ', '  '), name, fc.constantFrom('', ' ')), { maxLength: 5 }).map((parts) => parts.map(([a, n, b]) => `${a}${n}${b}`).join(','));

describe('addVary', () => {
  it('merges as the plain rule does', () => {
    fc.assert(
      fc.property(fc.option(header, { nil: undefined }), fc.array(name.filter((n) => n !== ''), { minLength: 1, maxLength: 4 }), (current, values) => {
        const { reply, value } = replyWith(current);
        addVary(reply, ...values);
        expect(value()).toBe(reference(current, values));
      }),
      { numRuns: 2_000 },
    );
  });
});
