/**
 * Accept negotiation for the offer operations (CONTRACT 5): JSON unless the client prefers XML.
 *
 * Each media type we can send gets the q-value of the most specific Accept range that matches it
 * (RFC 9110 12.5.1: type/subtype;params, then type/subtype, then type/*, then the any-type range;
 * among equally specific ranges the higher q). XML wins when its q is higher than JSON's, or equal
 * and above zero with application/xml (or text/xml) named explicitly and application/json not.
 * text/xml counts only where the header names it. JSON wins everything else, including an
 * absent, empty or unparseable header.
 *
 * The header is parsed here rather than by `negotiator`: negotiator returns the types in
 * preference order but never their q-values, and the tie rule above needs them (negotiator ranks
 * "application/xml, application/json" XML first, by position, where the contract says JSON).
 * The tests check that this parser ranks the types exactly as negotiator does.
 */
export type ResponseFormat = 'json' | 'xml';

/** A representation we can send, as Accept ranges are matched against it. */
interface Offered {
  readonly format: ResponseFormat;
  readonly type: string;
  readonly subtype: string;
  /** Parameters of the representation (lower-case names and values). */
  readonly params: Readonly<Record<string, string>>;
}

/** JSON and XML are sent as UTF-8; text/xml is not sent, but a client naming it asks for XML. */
export const OFFERED_TYPES: readonly Offered[] = [
  { format: 'json', type: 'application', subtype: 'json', params: { charset: 'utf-8' } },
  { format: 'xml', type: 'application', subtype: 'xml', params: { charset: 'utf-8' } },
  { format: 'xml', type: 'text', subtype: 'xml', params: { charset: 'utf-8' } },
];

/** One media range of an Accept header. */
interface MediaRange {
  readonly type: string; // lower case, '*' for any
  readonly subtype: string;
  readonly params: ReadonlyMap<string, string>; // without q; names lower case
  readonly q: number;
  /** Position in the header (0-based). */
  readonly index: number;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** RFC 9110 qvalue: 0 to 1 with at most three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * Splits `text` at `separator` where it is not inside a quoted-string (RFC 9110 5.6.4, with
 * backslash escapes); an unterminated quote runs to the end.
 */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '\\') i++;
      else if (char === '"') quoted = false;
    } else if (char === '"') {
      quoted = true;
    } else if (char === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** A parameter value: a token, or a quoted-string with its escapes undone; undefined if neither. */
function parameterValue(raw: string): string | undefined {
  if (TOKEN.test(raw)) return raw;
  if (!raw.startsWith('"')) return undefined;
  let value = '';
  for (let i = 1; i < raw.length; i++) {
    const char = raw[i]!;
    if (char === '"') return i === raw.length - 1 ? value : undefined; // text after the closing quote
    if (char === '\\') {
      i++;
      if (i === raw.length) return undefined;
      value += raw[i];
    } else {
      value += char;
    }
  }
  return undefined; // no closing quote
}

/** One comma-separated member of the header; undefined when it is not a valid media range. */
function parseMediaRange(member: string, index: number): MediaRange | undefined {
  const [rawRange = '', ...rawParams] = splitOutsideQuotes(member, ';');
  const range = rawRange.trim().toLowerCase();
  const slash = range.indexOf('/');
  if (slash < 0) return undefined;
  const type = range.slice(0, slash);
  const subtype = range.slice(slash + 1);
  if (!TOKEN.test(type) || !TOKEN.test(subtype)) return undefined;
  if (type === '*' && subtype !== '*') return undefined; // "*/xml" is not a media range

  const params = new Map<string, string>();
  let q = 1;
  let weighted = false;
  for (const rawParam of rawParams) {
    const equals = rawParam.indexOf('=');
    if (equals < 0) {
      if (rawParam.trim() === '') continue; // "text/xml;" and "a;;b" are harmless
      return undefined;
    }
    const name = rawParam.slice(0, equals).trim().toLowerCase();
    const value = parameterValue(rawParam.slice(equals + 1).trim());
    if (!TOKEN.test(name) || value === undefined) return undefined;
    if (name === 'q') {
      if (weighted) continue; // the first weight counts
      if (!QVALUE.test(value)) return undefined;
      q = Number(value);
      weighted = true;
    } else if (!params.has(name)) {
      params.set(name, value);
    }
  }
  return { type, subtype, params, q, index };
}

/** The valid media ranges of an Accept header, in header order; invalid members are skipped. */
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  splitOutsideQuotes(header, ',').forEach((member, index) => {
    const range = member.trim() === '' ? undefined : parseMediaRange(member, index);
    if (range) ranges.push(range);
  });
  return ranges;
}

/**
 * How specific `range` is for `offered`, or -1 if it does not match: 4 for the type named,
 * 2 for the subtype, 1 for parameters (all of which must equal the representation's).
 */
function specificity(range: MediaRange, offered: Offered): number {
  let s = 0;
  if (range.type === offered.type) s |= 4;
  else if (range.type !== '*') return -1;
  if (range.subtype === offered.subtype) s |= 2;
  else if (range.subtype !== '*') return -1;
  if (range.params.size > 0) {
    for (const [name, value] of range.params) {
      if (offered.params[name] !== value.toLowerCase()) return -1;
    }
    s |= 1;
  }
  return s;
}

export interface OfferedRating {
  readonly offered: Offered;
  /** q-value the client gives this type (0: not acceptable). */
  readonly q: number;
  /** Specificity of the range that set q (-1: no range matched); 6 or 7 means named explicitly. */
  readonly specificity: number;
  /** Position in the header of that range. */
  readonly rangeIndex: number;
}

function rate(ranges: readonly MediaRange[], offered: Offered): OfferedRating {
  let best: OfferedRating = { offered, q: 0, specificity: -1, rangeIndex: -1 };
  for (const range of ranges) {
    const s = specificity(range, offered);
    if (s < 0) continue;
    // Most specific first; among equally specific ranges the higher q (then the later one,
    // as negotiator does, which only matters for its ordering).
    if (s > best.specificity || (s === best.specificity && range.q >= best.q)) {
      best = { offered, q: range.q, specificity: s, rangeIndex: range.index };
    }
  }
  return best;
}

/** Each type we can send, with the q-value and the range the client's header gives it. */
export function rateOfferedTypes(accept: string): OfferedRating[] {
  const ranges = parseAccept(accept);
  return OFFERED_TYPES.map((offered) => rate(ranges, offered));
}

const EXPLICIT = 6; // type and subtype both named

/** The format of an offer response for this Accept header. Never throws. */
export function preferredFormat(accept: string | undefined): ResponseFormat {
  if (typeof accept !== 'string' || accept === '') return 'json';
  const ratings = rateOfferedTypes(accept);
  const json = ratings.find((r) => r.offered.format === 'json')!;
  // text/xml is not what we send (application/xml is), so it speaks for XML only when named:
  // otherwise "application/*;q=0.1, */*" would pick XML through text/xml's q from */*.
  const xml = ratings.filter(
    (r) => r.offered.format === 'xml' && (r.offered.type === 'application' || r.specificity >= EXPLICIT),
  );
  const xmlQ = Math.max(0, ...xml.map((r) => r.q));
  if (xmlQ > json.q) return 'xml';
  if (
    xmlQ === json.q &&
    xmlQ > 0 &&
    json.specificity < EXPLICIT &&
    xml.some((r) => r.q === xmlQ && r.specificity >= EXPLICIT)
  ) {
    return 'xml';
  }
  return 'json';
}
