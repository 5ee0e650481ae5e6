/**
 * UUID parsing as pydantic does it (through Rust's uuid crate): hyphenated, simple (32 hex digits),
 * braced ({...}) and urn:uuid: forms, any letter case; the answer is the canonical lower-case
 * hyphenated form. A refusal carries the crate's own explanation, which pydantic puts in the
 * message ("Input should be a valid UUID, invalid group count: expected 5, found 1").
 */

export type UuidResult = { ok: true; value: string } | { ok: false; error: string };

const HEX = /^[0-9a-fA-F]$/;
const HYPHENATED = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const SIMPLE = /^[0-9a-fA-F]{32}$/;

function canonical(hex32: string): string {
  const h = hex32.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Lengths are in UTF-8 bytes, as the crate counts them. */
const byteLength = (text: string) => Buffer.byteLength(text, 'utf8');

export function parseUuid(input: string): UuidResult {
  const length = byteLength(input);
  if (length === 32 && SIMPLE.test(input)) return { ok: true, value: canonical(input) };
  let body: string | undefined;
  if (length === 36) body = input;
  else if (length === 38 && input.startsWith('{') && input.endsWith('}')) body = input.slice(1, -1);
  else if (length === 45 && input.startsWith('urn:uuid:')) body = input.slice('urn:uuid:'.length);
  if (body !== undefined && HYPHENATED.test(body)) return { ok: true, value: canonical(body.replace(/-/g, '')) };
  return { ok: false, error: explain(input) };
}

/** The uuid crate's diagnosis of a string it could not parse (InvalidUuid::into_err). */
function explain(input: string): string {
  let text = input;
  let offset = 0;
  let simple = true;
  if (input.length >= 2 && input.startsWith('{') && input.endsWith('}')) {
    text = input.slice(1, -1);
    offset = 1;
    simple = false;
  } else if (input.startsWith('urn:uuid:')) {
    text = input.slice('urn:uuid:'.length);
    offset = 'urn:uuid:'.length;
    simple = false;
  }
  let hyphens = 0;
  const groupBounds = [0, 0, 0, 0];
  let byteIndex = 0;
  for (const ch of text) {
    if (ch.codePointAt(0)! > 0x7f || (ch !== '-' && !HEX.test(ch))) {
      return `invalid character: expected an optional prefix of \`urn:uuid:\` followed by [0-9a-fA-F-], found \`${ch}\` at ${byteIndex + offset + 1}`;
    }
    if (ch === '-') {
      if (hyphens < 4) groupBounds[hyphens] = byteIndex;
      hyphens++;
    }
    byteIndex += 1;
  }
  if (hyphens === 0 && simple) return `invalid length: expected length 32 for simple format, found ${byteLength(input)}`;
  if (hyphens !== 4) return `invalid group count: expected 5, found ${hyphens + 1}`;
  const blockStarts = [0, 9, 14, 19, 24];
  const expected = [8, 4, 4, 4, 12];
  for (let i = 0; i < 4; i++) {
    if (groupBounds[i] !== blockStarts[i + 1]! - 1) {
      return `invalid group length in group ${i}: expected ${expected[i]}, found ${groupBounds[i]! - blockStarts[i]!}`;
    }
  }
  return `invalid group length in group 4: expected 12, found ${byteLength(input) - blockStarts[4]!}`;
}
