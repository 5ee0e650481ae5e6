/**
 * Checks one bundle record against its import schema (Ajv, every error reported) and the few rules
 * a schema cannot say (key or key_sha256; offer_data.id equal to offer_id). Each Ajv error becomes
 * a path and a message a person can act on: `offer_data.price: expected number, got string "850 000 zł"`,
 * `offer_data.adress_city: unknown field; did you mean 'address_city'?` (the API's suggestion).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { parseRfc3339 } from '../contract/timestamps.js';
import { plural } from '../text/plural.js';
import { withSuggestion } from '../text/suggest.js';
import { isValidKrs, isValidNip, isValidRegon } from '../features/transparency/index.js';
import { canonicalTag, sameLanguageTags, tagProblem } from '../features/translations/index.js';
import { joinPath } from './problems.js';
import { INT32_MAX, INT32_MIN, RECORD_KINDS, RECORD_SCHEMAS, type RecordInputs, type RecordKind } from './schemas.js';

export interface FieldProblem {
  /** JSON path within the record ('' for the record itself). */
  readonly path: string;
  readonly message: string;
}

export type Validation<K extends RecordKind> =
  | { readonly ok: true; readonly record: RecordInputs[K] }
  | { readonly ok: false; readonly problems: FieldProblem[] };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * The schema as Ajv gets it: a plain copy without TypeBox's hidden markers and nested $ids, with
 * "anyOf [X, null]" folded into "type: [X, null]" so that a wrong value gives one error, not three.
 */
function toAjvSchema(schema: unknown): unknown {
  const plain: unknown = JSON.parse(JSON.stringify(schema));
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$id') continue;
      out[key] = walk(value);
    }
    const anyOf = out.anyOf;
    if (Array.isArray(anyOf) && anyOf.length === 2) {
      const nullIndex = anyOf.findIndex((s) => isNullSchema(s));
      const other = anyOf[1 - nullIndex] as Record<string, unknown> | undefined;
      if (nullIndex >= 0 && other && typeof other.type === 'string' && other.anyOf === undefined) {
        delete out.anyOf;
        return { ...out, ...other, type: [other.type, 'null'] };
      }
    }
    return out;
  };
  return walk(plain);
}

function isNullSchema(schema: unknown): boolean {
  return (
    typeof schema === 'object' && schema !== null && Object.keys(schema).length === 1 && (schema as { type?: unknown }).type === 'null'
  );
}

const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
ajv.addFormat('uuid', UUID);
ajv.addFormat('date-time', { type: 'string', validate: (value: string) => parseRfc3339(value) !== undefined });

const validators = Object.fromEntries(
  RECORD_KINDS.map((kind) => [kind, ajv.compile(toAjvSchema(RECORD_SCHEMAS[kind]) as object)]),
) as Record<RecordKind, ValidateFunction>;

function pointerToPath(pointer: string): string {
  if (pointer === '') return '';
  let path = '';
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path = joinPath(path, /^(0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : segment);
  }
  return path;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** A plain API key is never repeated in a message (nor in the logs a message may reach). */
const SECRET_PATH = /(^|\.)api_keys\[\d+\]\.key$/;

/** What a value of the wrong type is: `string "850 000 zł"`, `number 7`, `null` (its JSON, shortened). */
function gotValue(path: string, value: unknown): string {
  const type = typeName(value);
  return value === null || SECRET_PATH.test(path) ? type : `${type} ${shown(value)}`;
}

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  'date-time': 'an RFC 3339 date-time (e.g. 2025-01-31T09:15:00Z)',
  uuid: 'a UUID',
};

function describeError(error: ErrorObject): FieldProblem {
  const path = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const parent = (error.parentSchema ?? {}) as { description?: string };
  switch (error.keyword) {
    case 'type': {
      const types = ([] as unknown[]).concat(params.type).filter((t) => t !== 'null');
      if (typeof error.data === 'number' && !Number.isFinite(error.data)) return { path, message: 'expected a finite number' };
      return { path, message: `expected ${types.join(' or ')}, got ${gotValue(path, error.data)}` };
    }
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      return { path: joinPath(path, name), message: withSuggestion('unknown field', name, known) };
    }
    case 'required':
      return { path: joinPath(path, String(params.missingProperty)), message: 'required field missing' };
    case 'format':
      return { path, message: `expected ${FORMAT_NAMES[String(params.format)] ?? params.format}, got ${shown(error.data)}` };
    case 'pattern':
      return { path, message: `expected ${parent.description ?? `a match of ${params.pattern}`}, got ${shown(error.data)}` };
    case 'const':
      return { path, message: `expected ${shown(params.allowedValue)}, got ${shown(error.data)}` };
    case 'minimum':
    case 'maximum':
      return { path, message: `must be between ${INT32_MIN} and ${INT32_MAX}, got ${shown(error.data)}` };
    case 'enum':
      return { path, message: `expected one of ${(params.allowedValues as unknown[]).join(', ')}, got ${shown(error.data)}` };
    case 'minItems':
      return { path, message: params.limit === 1 ? 'must not be empty (leave the field out instead)' : `must have at least ${params.limit} items` };
    case 'maxItems':
      return { path, message: `must have at most ${plural(Number(params.limit), 'item')}` };
    case 'maxProperties':
      return { path, message: `must have at most ${plural(Number(params.limit), 'language')}` };
    case 'minLength':
      return { path, message: params.limit === 1 ? 'must not be empty' : `must be ${parent.description ?? `at least ${params.limit} characters`}` };
    default:
      return { path, message: error.message ?? `fails ${error.keyword}` };
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Rules that the schema cannot express; they run on whatever shape the record has. */
function semanticProblems(kind: RecordKind, record: unknown): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!isObject(record)) return problems;
  if (kind === 'website' && Array.isArray(record.api_keys)) {
    record.api_keys.forEach((key: unknown, index) => {
      if (!isObject(key)) return;
      const path = joinPath('api_keys', index);
      const hasKey = key.key !== undefined;
      const hasHash = key.key_sha256 !== undefined;
      if (hasKey && hasHash) problems.push({ path, message: 'give key or key_sha256, not both' });
      if (!hasKey && !hasHash) problems.push({ path, message: 'key or key_sha256 is required' });
    });
  }
  if (kind === 'organization' && isObject(record.developer)) {
    // Extension E10: the numbers of the public registers, with their check digits.
    const developer = record.developer;
    const checks: Array<[string, (value: string) => boolean, string]> = [
      ['nip', isValidNip, 'a NIP: 10 digits, the last its check digit'],
      ['regon', isValidRegon, 'a REGON: 9 or 14 digits with valid check digits'],
      ['krs', isValidKrs, 'a KRS number: 10 digits'],
    ];
    for (const [key, valid, what] of checks) {
      const value = developer[key];
      if (typeof value === 'string' && !valid(value)) problems.push({ path: `developer.${key}`, message: `expected ${what}, got ${shown(value)}` });
    }
  }
  if (kind === 'offer' && typeof record.prices_valid_from === 'string') {
    // Extension E10: a price cannot have started to hold after the import that brings it.
    const validFrom = parseRfc3339(record.prices_valid_from);
    if (validFrom && validFrom.epochMs > Date.now()) {
      problems.push({ path: 'prices_valid_from', message: `must not be in the future, got ${shown(record.prices_valid_from)}` });
    }
  }
  if ((kind === 'offer' || kind === 'investment') && isObject(record.translations)) {
    // Extension E12: the keys are language tags; two spellings of one language would overwrite each other.
    const tags = Object.keys(record.translations);
    for (const tag of tags) {
      if (canonicalTag(tag) === undefined) problems.push({ path: joinPath('translations', tag), message: tagProblem(tag) });
    }
    for (const [first, second] of sameLanguageTags(tags)) {
      problems.push({ path: joinPath('translations', second), message: `names the same language as '${first}'` });
    }
  }
  if (kind === 'offer' && isObject(record.offer_data)) {
    const data = record.offer_data;
    const offerId = String(record.offer_id);
    if (typeof data.id === 'string' && data.id.toLowerCase() !== offerId.toLowerCase()) {
      problems.push({ path: 'offer_data.id', message: `must equal offer_id (${offerId}) when given` });
    }
    if (typeof data.external_id === 'string' && data.external_id !== record.external_id) {
      problems.push({ path: 'offer_data.external_id', message: `must equal external_id (${shown(record.external_id)}) when given` });
    }
  }
  return problems;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** String.prototype.isWellFormed (V8 11.1+, Node 20) is much faster than the regular expression. */
const wellFormed = (text: string): boolean => {
  const native = (text as string & { isWellFormed?: () => boolean }).isWellFormed;
  return native ? native.call(text) : !LONE_SURROGATE.test(text);
};

/** Text PostgreSQL cannot store (U+0000, broken UTF-16) would fail the whole import; name it instead. */
function unstorableText(value: unknown, path = '', found: FieldProblem[] = []): FieldProblem[] {
  if (found.length >= 10) return found;
  if (typeof value === 'string') {
    if (value.includes('\u0000')) found.push({ path, message: 'contains the character U+0000, which cannot be stored' });
    else if (!wellFormed(value)) found.push({ path, message: 'contains invalid Unicode (an unpaired surrogate)' });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => unstorableText(item, joinPath(path, index), found));
  } else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000') || !wellFormed(key)) found.push({ path: joinPath(path, key), message: 'field name contains characters that cannot be stored' });
      else unstorableText(item, joinPath(path, key), found);
    }
  }
  return found;
}

/** Identifiers are stored in lower case, so that an id in any letter case names one entity. */
function lowerCaseIds(record: Record<string, unknown>): void {
  for (const [field, value] of Object.entries(record)) {
    if (field !== 'external_id' && field.endsWith('_id') && typeof value === 'string') record[field] = value.toLowerCase();
  }
  const scope = record.scope as Record<string, unknown> | null | undefined;
  if (scope) {
    for (const list of ['investment_ids', 'branch_ids'] as const) {
      const ids = scope[list];
      if (Array.isArray(ids)) scope[list] = ids.map((id: unknown) => (typeof id === 'string' ? id.toLowerCase() : id));
    }
  }
  if (Array.isArray(record.api_keys)) {
    for (const key of record.api_keys as Array<Record<string, unknown>>) {
      if (typeof key.key_id === 'string') key.key_id = key.key_id.toLowerCase();
    }
  }
}

export function validateRecord<K extends RecordKind>(kind: K, value: unknown): Validation<K> {
  const validate = validators[kind];
  const valid = validate(value);
  const problems = [...(valid ? [] : (validate.errors ?? []).map(describeError)), ...semanticProblems(kind, value), ...unstorableText(value)];
  if (problems.length > 0) return { ok: false, problems };
  const record = value as Record<string, unknown>;
  lowerCaseIds(record);
  return { ok: true, record: record as RecordInputs[K] };
}
