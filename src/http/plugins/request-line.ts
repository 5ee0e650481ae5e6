/**
 * The request line's bytes, put together here instead of by pino's general serializer.
 *
 * Why: the request line is written for every request, and pino's serializer (a loop over the
 * record's keys, a serializer and a redaction check for each, string pieces joined one by one) cost
 * about twice what this template does, which showed in the cheapest answers: a 401 for a missing or
 * unknown key (docs/performance.md, the key check).
 *
 * It is only a shortcut, never a second format: for each logger it is checked once, with two probe
 * lines, that pino itself would write exactly these bytes (its level label, time, bindings, key
 * order, string escaping and line end). A logger whose options change any of that (a formatter, a
 * mixin, a write hook, a stream that wants metadata) fails the check and keeps going through pino.
 */
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';

/** The fields of the request line, in the order the line has them. */
export interface RequestLine {
  reqId: string;
  method: string;
  route: string;
  url: string;
  status: number;
  durationMs: number;
  websiteId: string | null;
}

const INFO = 30;
const MESSAGE = 'request';
const { asJsonSym, chindingsSym, hooksSym, mixinSym, needsMetadataGsym, streamSym, timeSym } = pino.symbols;

/** What JSON.stringify writes escaped in a string: quote, backslash, control characters, lone surrogates. */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * A string as JSON.stringify writes it. Nearly every value of the line (ids, methods, routes, most
 * URLs) needs no escaping, and a regular expression's test is cheaper than a call into
 * JSON.stringify (it showed in the profile of the cheapest answers). A pair of surrogates (an
 * emoji) takes the escaping path too, where JSON.stringify writes it as it is.
 */
function quoted(value: string): string {
  return ESCAPED.test(value) ? JSON.stringify(value) : `"${value}"`;
}

/** The line as pino writes it at info, given pino's time piece (`,"time":…`) and the logger's bindings. */
export function serializeRequestLine(time: string, bindings: string, line: RequestLine): string {
  const websiteId = line.websiteId === null ? 'null' : quoted(line.websiteId);
  return (
    `{"level":${INFO}${time}${bindings},"reqId":${quoted(line.reqId)},"method":${quoted(line.method)}` +
    `,"route":${quoted(line.route)},"url":${quoted(line.url)},"status":${line.status}` +
    `,"durationMs":${line.durationMs},"websiteId":${websiteId},"msg":"${MESSAGE}"}\n`
  );
}

/** pino's internals, reached through pino.symbols (typed there as plain symbols). */
type PinoInternals = Record<symbol, unknown>;
type AsJson = (record: object, message: string, level: number, time: string) => string;
type LineStream = { write(text: string): unknown } & Record<symbol, unknown>;

/** Lines whose every field pino might write differently: quotes, escapes, non-ASCII, a number with decimals. */
const PROBES: RequestLine[] = [
  { reqId: 'probe-1', method: 'GET', route: '/api/v1/offers/:offer_id', url: '/a?q="x"\\y\u0001\u2028ż', status: 401, durationMs: 0.37, websiteId: null },
  { reqId: 'probe:2', method: 'POST', route: 'unmatched', url: '/', status: 200, durationMs: 12, websiteId: '3a4aeddd-a1a0-4122-828a-9ade34fb9866' },
];

type Writer = (line: RequestLine) => void;

/** Per logger: its writer, or null when pino would write something else. */
const writers = new WeakMap<object, Writer | null>();

function writerFor(logger: PinoInternals): Writer | null {
  const asJson = logger[asJsonSym] as AsJson | undefined;
  const time = logger[timeSym] as (() => string) | undefined;
  const stream = logger[streamSym] as LineStream | undefined;
  const hooks = logger[hooksSym] as { streamWrite?: unknown } | undefined;
  if (typeof asJson !== 'function' || typeof time !== 'function' || typeof logger[chindingsSym] !== 'string') return null;
  if (logger[mixinSym] || hooks?.streamWrite || typeof stream?.write !== 'function' || stream[needsMetadataGsym] === true) return null;
  for (const probe of PROBES) {
    const now = time.call(logger);
    if (asJson.call(logger, { ...probe }, MESSAGE, INFO, now) !== serializeRequestLine(now, logger[chindingsSym], probe)) return null;
  }
  // Bindings are read at each line: pino's setBindings() may change them.
  return (line) => stream.write(serializeRequestLine(time.call(logger), logger[chindingsSym] as string, line));
}

/**
 * Writes the request line through `logger` (a pino logger whose level lets info through): directly
 * when pino would write the same bytes, else with logger.info().
 */
export function writeRequestLine(logger: FastifyBaseLogger, line: RequestLine): void {
  let writer = writers.get(logger);
  if (writer === undefined) {
    writer = writerFor(logger as unknown as PinoInternals);
    writers.set(logger, writer);
  }
  if (writer) writer(line);
  else logger.info(line, MESSAGE);
}
