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
  const list = typeof current === 'string' ? current.split(',').map((v) => v.trim()).filter(Boolean) : [];
  if (list.includes('*')) return;
  const named = new Set(list.map((v) => v.toLowerCase()));
  for (const value of values) {
    if (named.has(value.toLowerCase())) continue;
    named.add(value.toLowerCase());
    list.push(value);
  }
  reply.header('vary', list.join(', '));
}
