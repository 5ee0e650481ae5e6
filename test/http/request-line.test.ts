/**
 * The request line is put together by src/http/plugins/request-line.ts, not by pino's serializer;
 * these tests hold it to writing exactly pino's bytes, and to stepping aside when pino's options
 * would write something else.
 */
import pino from 'pino';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/http/plugins/request-log.js';
import { writeRequestLine, type RequestLine } from '../../src/http/plugins/request-line.js';

/** A pino logger with the service's options writing into a string; time fixed so that lines compare. */
function capturing(options: pino.LoggerOptions = {}) {
  let text = '';
  const stream = { write: (line: string) => void (text += line) };
  const base = loggerOptions('info', { level: 'info' }) as pino.LoggerOptions;
  const logger = pino({ ...base, timestamp: () => ',"time":1795730000000', ...options }, stream);
  return { logger, take: () => [text, (text = '')][0]! };
}

/** Counts the calls of the logger's own serializer. */
function countSerializations(logger: pino.Logger): () => number {
  const internals = logger as unknown as Record<symbol, (...args: unknown[]) => string>;
  const original = internals[pino.symbols.asJsonSym]!;
  let calls = 0;
  internals[pino.symbols.asJsonSym] = function (this: unknown, ...args: unknown[]) {
    calls++;
    return original.apply(this, args);
  };
  return () => calls;
}

const text = fc.string({ unit: 'binary', maxLength: 300 });
const line: fc.Arbitrary<RequestLine> = fc.record({
  reqId: text,
  method: fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS', 'DELETE'),
  route: fc.oneof(fc.constant('/api/v1/offers/:offer_id'), text),
  url: text,
  status: fc.integer({ min: 100, max: 599 }),
  durationMs: fc.double({ min: 0, max: 1e7, noNaN: true }).map((ms) => Math.round(ms * 100) / 100),
  websiteId: fc.option(fc.oneof(fc.uuid(), text), { nil: null }),
});

describe('the request line', () => {
  it('is byte for byte the line pino writes for the same record, whatever the texts hold', () => {
    const direct = capturing({ base: { pid: 7, hostname: 'h"ost' } });
    const viaPino = capturing({ base: { pid: 7, hostname: 'h"ost' } });
    const serialized = countSerializations(direct.logger);
    fc.assert(
      fc.property(line, (record) => {
        writeRequestLine(direct.logger, record);
        viaPino.logger.info({ ...record }, 'request');
        expect(direct.take()).toBe(viaPino.take());
      }),
      { numRuns: 500 },
    );
    // Two probe lines checked the shortcut once; every line after that skipped pino's serializer.
    expect(serialized()).toBe(2);
  });

  it('keeps the logger\'s bindings as they are when the line is written', () => {
    const { logger, take } = capturing();
    const record: RequestLine = { reqId: 'r1', method: 'GET', route: '/r', url: '/r', status: 200, durationMs: 1, websiteId: null };
    writeRequestLine(logger, record);
    logger.setBindings({ zone: 'eu' });
    writeRequestLine(logger, record);
    const [first, second] = take().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(first!.zone).toBeUndefined();
    expect(second!.zone).toBe('eu');
  });

  it('goes through pino when pino\'s options would write another line', () => {
    const cases: pino.LoggerOptions[] = [
      { mixin: () => ({ region: 'eu' }) },
      { formatters: { level: (label) => ({ severity: label }) } },
      { messageKey: 'message' },
      { hooks: { streamWrite: (s) => s.replace('"msg"', '"m"') } },
    ];
    for (const options of cases) {
      const direct = capturing(options);
      const viaPino = capturing(options);
      const record: RequestLine = { reqId: 'r1', method: 'GET', route: '/r', url: '/u?x="1"', status: 404, durationMs: 0.5, websiteId: null };
      writeRequestLine(direct.logger, record);
      viaPino.logger.info({ ...record }, 'request');
      expect(direct.take(), JSON.stringify(Object.keys(options))).toBe(viaPino.take());
    }
  });
});
