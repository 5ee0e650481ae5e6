/**
 * Vary is set by several parts of a reply's life (the offer routes: Accept; response caching:
 * Authorization and Accept-Encoding; CORS: Origin), each adding its own values and keeping the
 * others'. This is the one place that merges them.
 */
import type { FastifyReply } from 'fastify';

/** Adds `values` to the reply's Vary header, in order, skipping those already named (any letter case); `*` covers everything. */
export function addVary(reply: FastifyReply, ...values: string[]): void {
  const current = reply.getHeader('vary');
  // The common case (a cache hit): nothing set yet, and the callers' values are distinct.
  if (current === undefined) {
    reply.header('vary', values.join(', '));
    return;
  }
  // One pass over the current value, no intermediate arrays or set: lists here are a few names.
  const list: string[] = [];
  const named: string[] = [];
  if (typeof current === 'string') {
    for (const part of current.split(',')) {
      const name = part.trim();
      if (name === '') continue;
      if (name === '*') return;
      list.push(name);
      named.push(name.toLowerCase());
    }
  }
  for (const value of values) {
    const lower = value.toLowerCase();
    if (named.includes(lower)) continue;
    named.push(lower);
    list.push(value);
  }
  reply.header('vary', list.join(', '));
}
