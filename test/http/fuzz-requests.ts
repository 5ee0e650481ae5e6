/**
 * Random and mutated requests for the fuzz tests, from a seeded generator (a failure names its
 * seed and request number, and is reproduced by running the same seed). Three families:
 * - garbage: any method, mangled paths, odd headers, bodies of any shape;
 * - mutated queries: valid offer list bodies with one or more parts replaced by junk (unicode,
 *   huge numbers, deep nesting, long strings, wrong types, too many filters or values);
 * - valid-ish reads: real routes with real and random ids, includes, Accept and keys.
 */
import { METHODS as HTTP_METHODS } from 'node:http';
import { OFFER_DATA_FIELDS } from '../../src/contract/offer-fields.js';
import { FILTER_OPERATORS } from '../../src/features/offers/query/language.js';
import { KEYS, OFFER, BRANCH, AGENT, INVESTMENT } from '../helpers/fixtures.js';

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/** mulberry32: small, fast, good enough for test data. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
export type Random = ReturnType<typeof prng>;

const KNOWN_IDS = [...Object.values(OFFER), ...Object.values(BRANCH), ...Object.values(AGENT), ...Object.values(INVESTMENT)];
const VALID_KEYS = [KEYS.activeA1, KEYS.activeA2, KEYS.activeB];
const FIELDS = [
  ...OFFER_DATA_FIELDS.map((f) => f.name),
  ...OFFER_DATA_FIELDS.slice(0, 10).map((f) => `offer_data.${f.name}`),
  'offer_id',
  'external_id',
  'created_at',
  'updated_at',
  'version',
  'agent_id',
  'branch_id',
  'investment_id',
];
const OPERATORS = [...FILTER_OPERATORS, 'EQ', 'like', 'regex', '$where', '', 'gte ', 'in\u0000'];

const WEIRD_STRINGS = [
  '',
  ' ',
  'null',
  'undefined',
  '0',
  '-1',
  '1e309',
  'NaN',
  'Infinity',
  '%',
  '%00',
  '%ZZ',
  '%E0%A4%A',
  '..',
  '../../etc/passwd',
  "' OR 1=1 --",
  '"; DROP TABLE offers; --',
  '\\x00',
  '\u0000',
  '\u202e\u202d',
  '\ud800',
  '\udfff',
  'ﬁ',
  'İ',
  'ß',
  'Zażółć gęślą jaźń',
  '日本語テキスト',
  '🏠🏡🏘️',
  'a'.repeat(1000),
  'ü'.repeat(300),
  '<script>alert(1)</script>',
  '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
  '{"$ne":null}',
  '__proto__',
  'constructor',
  'toString',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '0FFA0000-0000-4000-8000-000000000001',
  '{0ffa0000-0000-4000-8000-000000000001}',
  '0ffa00000000400080000000000000001',
  '2025-01-31T09:15:00Z',
  '2025-13-45T99:99:99Z',
  '9999-12-31T23:59:59.999999999+14:00',
  '1970-01-01',
];

const HUGE_NUMBERS = [
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER - 2,
  2 ** 63,
  -(2 ** 63),
  5e-324,
  -0,
  0.1 + 0.2,
  123456789012345678901234567890,
  2147483648,
  -2147483649,
];

/** Number literals JSON.stringify cannot write: placed as raw text in bodies. */
const RAW_NUMBER_LITERALS = ['1e999', '-1e999', '1' + '0'.repeat(400), '0.' + '0'.repeat(400) + '1', '-0', '1E+2', '00012', '.5', '+1', 'NaN', 'Infinity'];

function weirdString(r: Random): string {
  if (r.chance(0.2)) {
    // Random code points, including lone surrogates and controls.
    let s = '';
    const n = r.int(r.chance(0.1) ? 5000 : 40);
    for (let i = 0; i < n; i++) s += String.fromCharCode(r.chance(0.7) ? 32 + r.int(95) : r.int(0x10000));
    return s;
  }
  return r.pick(WEIRD_STRINGS);
}

/** Nesting deeper than this is spliced into the body text (JSON.stringify would overflow here). */
const DEEP_MARKER = '__deep_nesting__';
let pendingDeepNesting = 0;

function deepNest(r: Random, depth: number): unknown {
  if (depth > 1000) {
    pendingDeepNesting = depth;
    return DEEP_MARKER;
  }
  let value: unknown = r.chance(0.5) ? 1 : 'x';
  for (let i = 0; i < depth; i++) value = r.chance(0.5) ? [value] : { a: value };
  return value;
}

/** JSON text of a value, with a marked deep nesting written out as `[[[...1...]]]` / `{"a":{"a":...}}`. */
function toJsonText(value: unknown): string {
  let text = JSON.stringify(value) ?? 'null';
  if (pendingDeepNesting > 0 && text.includes(`"${DEEP_MARKER}"`)) {
    const n = pendingDeepNesting;
    const nested = n % 2 === 0 ? '['.repeat(n) + '1' + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n);
    text = text.replace(`"${DEEP_MARKER}"`, nested);
  }
  pendingDeepNesting = 0;
  return text;
}

function randomValue(r: Random, depth = 0): unknown {
  const roll = r.int(depth > 3 ? 6 : 10);
  switch (roll) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return r.pick(HUGE_NUMBERS);
    case 3:
      return r.int(1000) - 500;
    case 4:
    case 5:
      return weirdString(r);
    case 6:
      return Array.from({ length: r.int(5) }, () => randomValue(r, depth + 1));
    case 7:
      return Object.fromEntries(Array.from({ length: r.int(4) }, () => [weirdString(r).slice(0, 20), randomValue(r, depth + 1)]));
    case 8:
      return deepNest(r, r.chance(0.1) ? 5000 : 10 + r.int(200));
    default:
      return r.pick(KNOWN_IDS);
  }
}

function randomFilter(r: Random): unknown {
  if (r.chance(0.1)) return randomValue(r);
  const operator = r.pick(OPERATORS);
  let value: unknown;
  switch (r.int(6)) {
    case 0:
      value = randomValue(r);
      break;
    case 1:
      value = Array.from({ length: r.chance(0.1) ? 1001 + r.int(50) : r.int(8) }, () => (r.chance(0.5) ? r.int(10) : weirdString(r)));
      break;
    case 2:
      value = [randomValue(r), randomValue(r)];
      break;
    case 3:
      value = r.pick(KNOWN_IDS);
      break;
    case 4:
      value = r.pick(HUGE_NUMBERS);
      break;
    default:
      value = weirdString(r);
  }
  const filter: Record<string, unknown> = { field: r.chance(0.9) ? r.pick(FIELDS) : weirdString(r), operator, value };
  if (r.chance(0.05)) delete filter[r.pick(['field', 'operator', 'value'])];
  if (r.chance(0.05)) filter[weirdString(r).slice(0, 10) || 'extra'] = randomValue(r);
  return filter;
}

/** A valid offer list body, then mutated in 0 to 3 places. */
function offersBody(r: Random): string {
  const body: Record<string, unknown> = {
    pagination: { page: 1 + r.int(3), size: 1 + r.int(100) },
    sorting: r.chance(0.5) ? { field: r.pick(FIELDS), direction: r.pick(['asc', 'desc']) } : null,
    filters: Array.from({ length: r.int(4) }, () => randomFilter(r)),
  };
  const mutations = r.int(4);
  for (let i = 0; i < mutations; i++) {
    switch (r.int(8)) {
      case 0:
        body.pagination = randomValue(r);
        break;
      case 1:
        body.sorting = r.chance(0.5) ? randomValue(r) : { field: weirdString(r), direction: weirdString(r) };
        break;
      case 2:
        body.filters = Array.from({ length: 45 + r.int(10) }, () => randomFilter(r));
        break;
      case 3:
        body.filters = randomValue(r);
        break;
      case 4:
        (body.pagination as Record<string, unknown>) = { page: r.pick(HUGE_NUMBERS), size: r.pick([...HUGE_NUMBERS, 0, 101, '10', 1.5]) };
        break;
      case 5:
        delete body[r.pick(['pagination', 'sorting', 'filters'])];
        break;
      case 6:
        body[weirdString(r).slice(0, 12) || 'x'] = randomValue(r);
        break;
      default:
        body.filters = [{ field: r.pick(FIELDS), operator: r.pick(OPERATORS), value: deepNest(r, 50 + r.int(2000)) }];
    }
  }
  let text = toJsonText(body);
  if (r.chance(0.1)) text = text.replace(/-?\d+(\.\d+)?(e[+-]?\d+)?/i, r.pick(RAW_NUMBER_LITERALS));
  if (r.chance(0.05)) text = text.slice(0, r.int(text.length + 1)); // truncated JSON
  return text;
}

function randomBody(r: Random): string | Buffer {
  switch (r.int(8)) {
    case 0:
      return '';
    case 1:
      return Buffer.from(Array.from({ length: r.int(200) }, () => r.int(256)));
    case 2:
      return toJsonText(randomValue(r));
    case 3:
      return '{"pagination":{}' + '}'.repeat(r.int(3));
    case 4:
      return '['.repeat(10_000 + r.int(10_000));
    case 5:
      return '<offers><items/></offers>';
    case 6:
      return 'pagination[page]=1&size=2';
    default:
      return offersBody(r);
  }
}

const PATHS = [
  '/health',
  '/openapi.json',
  '/docs',
  '/api/v1/organization',
  '/api/v1/branches',
  '/api/v1/branches/:id',
  '/api/v1/branches/:id/agents',
  '/api/v1/agents',
  '/api/v1/agents/:id',
  '/api/v1/investments',
  '/api/v1/investments/:id',
  '/api/v1/investments/:id/offers',
  '/api/v1/offers',
  '/api/v1/offers/:id',
];

/** encodeURIComponent, with lone surrogates written as the invalid UTF-8 they would be (%ED%A0%80). */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return text
      .split('')
      .map((c) => (/[\ud800-\udfff]/.test(c) ? '%ED%A0%80' : encodeURIComponent(c)))
      .join('');
  }
}

function mangledPath(r: Random): string {
  let path = r.pick(PATHS).replace(':id', () => (r.chance(0.6) ? r.pick(KNOWN_IDS) : encode(weirdString(r)) || 'x'));
  switch (r.int(12)) {
    case 0:
      path = path.replace(/\/[^/]*$/, '/' + encode(weirdString(r)));
      break;
    case 1:
      path = path.toUpperCase();
      break;
    case 2:
      path = path + '/';
      break;
    case 3:
      path = path.replace('/api', '//api');
      break;
    case 4:
      path = path + '/' + '..%2f'.repeat(r.int(5) + 1);
      break;
    case 5:
      path = path + '%' + r.pick(['', '0', 'zz', 'c3', 'e2%82']);
      break;
    case 6:
      path = path + '/' + 'a'.repeat(r.int(20_000));
      break;
    case 7:
      path = '/' + encode(weirdString(r));
      break;
    default:
      break;
  }
  if (r.chance(0.5)) {
    const params = Array.from({ length: r.int(4) + 1 }, () => {
      const name = r.pick(['include', 'is_active', 'page', 'size', 'format', weirdString(r).slice(0, 10)]);
      const value = r.chance(0.5) ? r.pick(['agent', 'branch,organization', 'investment,agent,x', 'true', 'false', '1']) : weirdString(r).slice(0, 200);
      return `${encode(name)}=${encode(value)}`;
    });
    if (r.chance(0.05)) params.push('include=' + 'agent,'.repeat(5000));
    path += '?' + params.join('&');
  }
  return path;
}

/** A header value light-my-request accepts (visible ASCII and space, no CR/LF). */
function headerSafe(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '?');
}

function authorization(r: Random): string | undefined {
  switch (r.int(10)) {
    case 0:
      return undefined;
    case 1:
      return '';
    case 2:
      return `Bearer ${r.pick(VALID_KEYS)}`;
    case 3:
      return `bEaReR    ${r.pick(VALID_KEYS)}   `;
    case 4:
      return headerSafe(weirdString(r)).slice(0, 8000);
    case 5:
      return `ecs_${'A'.repeat(43)}`;
    case 6:
      return KEYS.inactiveA1;
    case 7:
      return 'Basic ' + Buffer.from('user:pass').toString('base64');
    default:
      return r.pick(VALID_KEYS);
  }
}

const ACCEPTS = [
  'application/json',
  'application/xml',
  'text/xml',
  'application/xml;q=0.9, application/json;q=0.8',
  '*/*',
  'text/html',
  'application/*;q=0',
  'application/json;q=0, application/xml;q=0',
  ';;;,,,q=abc',
  'application/xml; q=1.5',
  'image/png',
];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/merge-patch+json',
  '',
  ';;;',
];
const METHODS = ['GET', 'GET', 'GET', 'POST', 'POST', 'POST', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

/** One random request. */
export function fuzzRequest(r: Random): FuzzRequest {
  const family = r.int(10);
  const headers: Record<string, string> = {};
  const auth = authorization(r);
  if (auth !== undefined) headers.authorization = auth;
  if (r.chance(0.5)) headers.accept = r.chance(0.9) ? r.pick(ACCEPTS) : headerSafe(weirdString(r));
  if (r.chance(0.1)) headers[headerSafe(weirdString(r)).replace(/[^a-z0-9-]/gi, '').slice(0, 30) || 'x-junk'] = headerSafe(weirdString(r)).slice(0, 2000);
  if (r.chance(0.05)) headers['accept-encoding'] = r.pick(['gzip', 'br', 'deflate, gzip;q=0.5', 'identity;q=0', '*']);
  if (r.chance(0.05)) headers['if-none-match'] = r.pick(['*', '"abc"', 'W/"x"', headerSafe(weirdString(r)).slice(0, 100)]);

  if (family <= 3) {
    // Mutated offer queries with a working key.
    headers.authorization = r.chance(0.9) ? r.pick(VALID_KEYS) : (auth ?? '');
    headers['content-type'] = r.chance(0.9) ? 'application/json' : r.pick(CONTENT_TYPES);
    const url = r.chance(0.7) ? '/api/v1/offers' : `/api/v1/investments/${r.pick(KNOWN_IDS)}/offers`;
    const include = r.chance(0.3) ? `?include=${r.pick(['agent', 'branch,organization,investment', 'agent,x', ''])}` : '';
    return { method: 'POST', url: url + include, headers, payload: offersBody(r) };
  }
  // Any method Node's HTTP parser knows (PROPFIND, PURGE, ...): others never reach a server.
  const method = r.chance(0.9) ? r.pick(METHODS) : r.pick(HTTP_METHODS);
  const request: FuzzRequest = { method, url: mangledPath(r), headers };
  if (method !== 'GET' && method !== 'HEAD' && r.chance(0.8)) {
    request.payload = randomBody(r);
    if (r.chance(0.8)) headers['content-type'] = r.pick(CONTENT_TYPES);
  }
  return request;
}
