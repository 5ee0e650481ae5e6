/**
 * JSON decoding with the behaviour of Python's `json.loads`, which the FastAPI service used: the
 * same accepted documents (NaN, Infinity and -Infinity included) and, for a malformed document,
 * the same message and character offset, because clients see both in a `json_invalid` 422
 * (`loc: ["body", <offset>]`, `ctx.error`). The fast path is JSON.parse; this scanner runs only
 * when JSON.parse refuses a document.
 */

export type PythonJsonResult =
  | { ok: true; value: unknown }
  | { ok: false; message: string; position: number }
  /** Nesting deeper than Python's recursion limit (FastAPI answers 400 there). */
  | { ok: false; tooDeep: true };

class DecodeError {
  constructor(
    readonly message: string,
    readonly position: number,
  ) {}
}
/** Python's StopIteration(idx): "Expecting value" at the outermost level. */
class NoValue {
  constructor(readonly position: number) {}
}
class TooDeep {}

const MAX_DEPTH = 990;

const isWhitespace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class Scanner {
  constructor(private readonly s: string) {}

  private skip(idx: number): number {
    while (idx < this.s.length && isWhitespace(this.s[idx])) idx++;
    return idx;
  }

  /** Returns [value, index after it]. */
  value(idx: number, depth: number): [unknown, number] {
    const s = this.s;
    if (idx >= s.length) throw new NoValue(idx);
    const c = s[idx];
    if (c === '"') return this.string(idx + 1);
    if (c === '{' || c === '[') {
      if (depth >= MAX_DEPTH) throw new TooDeep();
      return c === '{' ? this.object(idx + 1, depth + 1) : this.array(idx + 1, depth + 1);
    }
    if (s.startsWith('null', idx)) return [null, idx + 4];
    if (s.startsWith('true', idx)) return [true, idx + 4];
    if (s.startsWith('false', idx)) return [false, idx + 5];
    if (s.startsWith('NaN', idx)) return [NaN, idx + 3];
    if (s.startsWith('Infinity', idx)) return [Infinity, idx + 8];
    if (s.startsWith('-Infinity', idx)) return [-Infinity, idx + 9];
    return this.number(idx);
  }

  private number(start: number): [number, number] {
    const s = this.s;
    const end = s.length - 1;
    let idx = start;
    if (s[idx] === '-') {
      idx++;
      if (idx > end) throw new NoValue(start);
    }
    if (s[idx]! >= '1' && s[idx]! <= '9') {
      idx++;
      while (idx <= end && isDigit(s[idx])) idx++;
    } else if (s[idx] === '0') {
      idx++;
    } else {
      throw new NoValue(start);
    }
    if (idx < end && s[idx] === '.' && isDigit(s[idx + 1])) {
      idx += 2;
      while (idx <= end && isDigit(s[idx])) idx++;
    }
    if (idx < end && (s[idx] === 'e' || s[idx] === 'E')) {
      const eStart = idx;
      idx++;
      if (idx < end && (s[idx] === '-' || s[idx] === '+')) idx++;
      while (idx <= end && isDigit(s[idx])) idx++;
      if (!isDigit(s[idx - 1])) idx = eStart;
    }
    return [Number(s.slice(start, idx)), idx];
  }

  /** idx: first character after the opening quote. */
  private string(idx: number): [string, number] {
    const s = this.s;
    const begin = idx - 1;
    let out = '';
    let end = idx;
    for (;;) {
      let next = end;
      let c: string | undefined;
      for (; next < s.length; next++) {
        c = s[next];
        if (c === '"' || c === '\\') break;
        if (c!.charCodeAt(0) <= 0x1f) throw new DecodeError('Invalid control character at', next);
      }
      if (next >= s.length) throw new DecodeError('Unterminated string starting at', begin);
      out += s.slice(end, next);
      next++;
      if (c === '"') return [out, next];
      if (next === s.length) throw new DecodeError('Unterminated string starting at', begin);
      const esc = s[next]!;
      if (esc !== 'u') {
        end = next + 1;
        const decoded = ESCAPES[esc];
        if (decoded === undefined) throw new DecodeError('Invalid \\escape', end - 2);
        out += decoded;
        continue;
      }
      next++;
      end = next + 4;
      if (end >= s.length) throw new DecodeError('Invalid \\uXXXX escape', next - 1);
      const hex = s.slice(next, end);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new DecodeError('Invalid \\uXXXX escape', end - 5);
      let code = parseInt(hex, 16);
      if (code >= 0xd800 && code <= 0xdbff && end + 6 < s.length && s[end] === '\\' && s[end + 1] === 'u') {
        const hex2 = s.slice(end + 2, end + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex2)) throw new DecodeError('Invalid \\uXXXX escape', end + 1);
        const low = parseInt(hex2, 16);
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          end += 6;
        }
      }
      out += String.fromCodePoint(code);
    }
  }

  private object(idx: number, depth: number): [Record<string, unknown>, number] {
    const s = this.s;
    const out: Record<string, unknown> = {};
    idx = this.skip(idx);
    if (idx < s.length && s[idx] === '}') return [out, idx + 1];
    for (;;) {
      if (idx >= s.length || s[idx] !== '"') throw new DecodeError('Expecting property name enclosed in double quotes', idx);
      const [key, afterKey] = this.string(idx + 1);
      idx = this.skip(afterKey);
      if (idx >= s.length || s[idx] !== ':') throw new DecodeError("Expecting ':' delimiter", idx);
      idx = this.skip(idx + 1);
      const [value, afterValue] = this.value(idx, depth);
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      idx = this.skip(afterValue);
      if (idx < s.length && s[idx] === '}') return [out, idx + 1];
      if (idx >= s.length || s[idx] !== ',') throw new DecodeError("Expecting ',' delimiter", idx);
      const comma = idx;
      idx = this.skip(idx + 1);
      if (idx < s.length && s[idx] === '}') throw new DecodeError('Illegal trailing comma before end of object', comma);
    }
  }

  private array(idx: number, depth: number): [unknown[], number] {
    const s = this.s;
    const out: unknown[] = [];
    idx = this.skip(idx);
    if (idx < s.length && s[idx] === ']') return [out, idx + 1];
    for (;;) {
      const [value, afterValue] = this.value(idx, depth);
      out.push(value);
      idx = this.skip(afterValue);
      if (idx < s.length && s[idx] === ']') return [out, idx + 1];
      if (idx >= s.length || s[idx] !== ',') throw new DecodeError("Expecting ',' delimiter", idx);
      const comma = idx;
      idx = this.skip(idx + 1);
      if (idx < s.length && s[idx] === ']') throw new DecodeError('Illegal trailing comma before end of array', comma);
    }
  }

  document(): unknown {
    const start = this.skip(0);
    let value: unknown;
    let end: number;
    try {
      [value, end] = this.value(start, 0);
    } catch (error) {
      if (error instanceof NoValue) throw new DecodeError('Expecting value', error.position);
      throw error;
    }
    end = this.skip(end);
    if (end !== this.s.length) throw new DecodeError('Extra data', end);
    return value;
  }
}

/** Offsets are in code points, as Python counts characters. */
function codePointOffset(text: string, utf16Index: number): number {
  let count = 0;
  for (let i = 0; i < utf16Index && i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < utf16Index) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** How deeply arrays and objects nest in a parsed value (iterative: the value may be very deep). */
function nestingDepth(root: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    const here = depth + 1;
    if (here > deepest) deepest = here;
    if (here > MAX_DEPTH) return here;
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push([child, here]);
  }
  return deepest;
}

export function parsePythonJson(text: string): PythonJsonResult {
  try {
    const value = JSON.parse(text) as unknown;
    return nestingDepth(value) > MAX_DEPTH ? { ok: false, tooDeep: true } : { ok: true, value };
  } catch {
    // Fall through: find Python's verdict (it also accepts NaN and Infinity).
  }
  try {
    return { ok: true, value: new Scanner(text).document() };
  } catch (error) {
    if (error instanceof DecodeError) {
      return { ok: false, message: error.message, position: codePointOffset(text, error.position) };
    }
    if (error instanceof TooDeep || error instanceof RangeError) return { ok: false, tooDeep: true };
    throw error;
  }
}
