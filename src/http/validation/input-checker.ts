/**
 * Reads an operation's path parameters, query string and body against its schemas and collects
 * every problem, listed in FastAPI's order (path, query, header, body). An operation calls path(),
 * query() and check() (for body parts), adds its own checks through report(), and the request is
 * answered 422 when anything was reported.
 */
import type { TSchema } from 'typebox';
import type { Loc, ValidationIssue } from './issues.js';
import type { DecodedBody } from './request-body.js';
import type { JsonSchema, SchemaRegistry } from '../schemas/json-schema.js';
import { checkValue, INVALID } from './schema-walker.js';

export interface RawInput {
  params: unknown;
  query: unknown;
  body: DecodedBody;
}

const LOCATION_RANK: Record<string, number> = { path: 0, query: 1, header: 2, cookie: 3, body: 4 };

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

export class InputChecker {
  private readonly found: ValidationIssue[] = [];

  constructor(
    readonly raw: RawInput,
    private readonly registry: SchemaRegistry,
  ) {}

  report(issue: ValidationIssue): void {
    this.found.push(issue);
  }

  /** Checks a value with a schema; undefined when it has problems (they are reported). */
  check<T>(schema: TSchema | JsonSchema, value: unknown, loc: Loc): T | undefined {
    const checked = checkValue(schema as JsonSchema, value, loc, this.found, this.registry);
    return checked === INVALID ? undefined : (checked as T);
  }

  path<T>(schema: TSchema): T | undefined {
    return this.check<T>(schema, asRecord(this.raw.params), ['path']);
  }

  /**
   * Query parameters: a repeated parameter gives a list to a list-typed parameter and its last
   * value to any other (as Starlette does); unknown parameters are ignored.
   */
  query<T>(schema: TSchema): T | undefined {
    const raw = asRecord(this.raw.query);
    const properties = (schema as JsonSchema).properties ?? {};
    const normalized: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(properties)) {
      if (!Object.hasOwn(raw, name)) continue;
      const value = raw[name];
      if (property.type === 'array') normalized[name] = Array.isArray(value) ? value : [value];
      else normalized[name] = Array.isArray(value) ? value[value.length - 1] : value;
    }
    return this.check<T>(schema, normalized, ['query']);
  }

  /** The decoded body as sent (for checks beyond the schema). */
  get rawBody(): unknown {
    return this.raw.body.kind === 'value' ? this.raw.body.value : undefined;
  }

  get issues(): ValidationIssue[] {
    return this.found
      .map((issue, index) => ({ issue, index }))
      .sort((a, b) => (LOCATION_RANK[a.issue.loc[0]!] ?? 9) - (LOCATION_RANK[b.issue.loc[0]!] ?? 9) || a.index - b.index)
      .map(({ issue }) => issue);
  }
}
