/**
 * Turns the raw request body into the value FastAPI would validate: JSON when the Content-Type is
 * absent, application/json or application/*+json; the raw text otherwise (which then fails
 * validation as "not an object": a wrong Content-Type is a 422, never a 415).
 */
import { parsePythonJson } from './python-json.js';

export type DecodedBody =
  | { kind: 'absent' }
  | { kind: 'value'; value: unknown }
  | { kind: 'json_invalid'; message: string; position: number }
  /** Not UTF-8, or nested past Python's recursion limit: FastAPI answers 400 for these. */
  | { kind: 'unreadable' };

/** Content-Type as Python's email.message reads it: "type/subtype", lower case; text/plain when malformed. */
function mediaType(contentType: string): { main: string; sub: string } {
  const bare = contentType.split(';')[0]!.trim().toLowerCase();
  const parts = bare.split('/');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return { main: 'text', sub: 'plain' };
  return { main: parts[0], sub: parts[1] };
}

export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined || contentType.trim() === '') return true;
  const { main, sub } = mediaType(contentType);
  return main === 'application' && (sub === 'json' || sub.endsWith('+json'));
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const lossy = new TextDecoder('utf-8', { fatal: false });

export function decodeRequestBody(raw: Buffer | undefined, contentType: string | undefined): DecodedBody {
  if (raw === undefined || raw.length === 0) return { kind: 'absent' };
  if (!isJsonContentType(contentType)) return { kind: 'value', value: lossy.decode(raw) };
  let text: string;
  try {
    text = utf8.decode(raw); // a leading byte order mark is dropped, as Python's utf-8-sig does
  } catch {
    return { kind: 'unreadable' };
  }
  const parsed = parsePythonJson(text);
  if (parsed.ok) return { kind: 'value', value: parsed.value };
  if ('tooDeep' in parsed) return { kind: 'unreadable' };
  return { kind: 'json_invalid', message: parsed.message, position: parsed.position };
}
