/**
 * Validates a value against one of our TypeBox route schemas with pydantic's rules, so that the
 * schemas that generate /openapi.json are also the ones that validate requests, and the 422
 * details read like FastAPI's.
 *
 * Why not Ajv: Ajv's type coercion is not pydantic's (it turns null into 0 and true into 1, and
 * refuses "2.0" for an integer), it reports union failures per branch, and its messages differ.
 * Our schemas use a small subset of JSON Schema, walked here:
 * object (properties, required, default), integer / number (minimum, maximum), boolean, string
 * (format uuid, enum / const literals), array (items, minItems, maxItems), anyOf with null
 * (Optional[...]), {} (any value) and $ref to a registered schema.
 *
 * Every problem is collected (not only the first); unknown object keys are dropped, as pydantic
 * ignores extra fields.
 */
import { issues, type Loc, type ValidationIssue } from './issues.js';
import { laxBool, laxFloat, laxInt, laxString, literal, type Lax } from './lax.js';
import type { JsonSchema, SchemaRegistry } from '../schemas/json-schema.js';
import { parseUuid } from './uuid.js';


/** Marks a value that failed validation (its issues are in the list). */
export const INVALID: unique symbol = Symbol('invalid');
type Checked = unknown | typeof INVALID;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function resolve(schema: JsonSchema, registry: SchemaRegistry): JsonSchema {
  if (schema.$ref === undefined) return schema;
  const id = schema.$ref.replace(/#$/, '');
  const target = registry.get(id);
  if (!target) throw new Error(`unknown schema reference ${schema.$ref}`);
  return target;
}

function literalValues(schema: JsonSchema): string[] | undefined {
  if (schema.enum) return schema.enum.map(String);
  if (schema.const !== undefined) return [String(schema.const)];
  if (schema.anyOf && schema.anyOf.length > 0 && schema.anyOf.every((s) => s.const !== undefined)) {
    return schema.anyOf.map((s) => String(s.const));
  }
  return undefined;
}

function take<T>(result: Lax<T>, out: ValidationIssue[]): Checked {
  if (result.ok) return result.value;
  out.push(result.issue);
  return INVALID;
}

export function checkValue(
  rawSchema: JsonSchema,
  value: unknown,
  loc: Loc,
  out: ValidationIssue[],
  registry: SchemaRegistry,
): Checked {
  const schema = resolve(rawSchema, registry);
  if (schema['x-checked-by-operation']) return value;

  const literals = literalValues(schema);
  if (literals) return take(literal(value, literals, loc), out);

  if (schema.anyOf) {
    // Optional[X]: null is fine, anything else must be an X (pydantic reports only X's issues).
    const nonNull = schema.anyOf.filter((s) => s.type !== 'null');
    if (value === null && nonNull.length < schema.anyOf.length) return null;
    if (nonNull.length === 1) return checkValue(nonNull[0]!, value, loc, out, registry);
    const choices = literalValues({ anyOf: nonNull });
    if (choices) return take(literal(value, choices, loc), out);
    throw new Error('only Optional[X] unions and literal unions are supported');
  }

  switch (schema.type) {
    case 'object':
      return checkObject(schema, value, loc, out, registry);
    case 'array':
      return checkArray(schema, value, loc, out, registry);
    case 'integer': {
      const n = take(laxInt(value, loc), out);
      return n === INVALID ? n : checkBounds(schema, n as number, value, loc, out);
    }
    case 'number': {
      const n = take(laxFloat(value, loc), out);
      return n === INVALID ? n : checkBounds(schema, n as number, value, loc, out);
    }
    case 'boolean':
      return take(laxBool(value, loc), out);
    case 'string': {
      if (schema.format === 'uuid') {
        if (typeof value !== 'string') {
          out.push(issues.uuidType(loc, value));
          return INVALID;
        }
        const parsed = parseUuid(value);
        if (parsed.ok) return parsed.value;
        out.push(issues.uuidParsing(loc, value, parsed.error));
        return INVALID;
      }
      return take(laxString(value, loc), out);
    }
    case 'null':
      return value;
    case undefined:
      return value; // {}: any value; its meaning is checked by the operation
    default:
      throw new Error(`unsupported schema type ${schema.type}`);
  }
}

function checkBounds(schema: JsonSchema, n: number, input: unknown, loc: Loc, out: ValidationIssue[]): Checked {
  let valid = true;
  if (schema.minimum !== undefined && !(n >= schema.minimum)) {
    out.push(issues.greaterThanEqual(loc, input, schema.minimum));
    valid = false;
  }
  if (schema.maximum !== undefined && !(n <= schema.maximum)) {
    out.push(issues.lessThanEqual(loc, input, schema.maximum));
    valid = false;
  }
  return valid ? n : INVALID;
}

function checkObject(
  schema: JsonSchema,
  value: unknown,
  loc: Loc,
  out: ValidationIssue[],
  registry: SchemaRegistry,
): Checked {
  if (!isPlainObject(value)) {
    out.push(issues.modelAttributesType(loc, value));
    return INVALID;
  }
  const required = new Set(schema.required ?? []);
  const result: Record<string, unknown> = {};
  let valid = true;
  for (const [name, propertySchema] of Object.entries(schema.properties ?? {})) {
    if (!Object.hasOwn(value, name)) {
      if (required.has(name)) {
        out.push(issues.missing([...loc, name], value));
        valid = false;
      } else if (propertySchema.default !== undefined) {
        result[name] = structuredClone(propertySchema.default);
      }
      continue;
    }
    const checked = checkValue(propertySchema, value[name], [...loc, name], out, registry);
    if (checked === INVALID) valid = false;
    else result[name] = checked;
  }
  return valid ? result : INVALID;
}

function checkArray(
  schema: JsonSchema,
  value: unknown,
  loc: Loc,
  out: ValidationIssue[],
  registry: SchemaRegistry,
): Checked {
  if (!Array.isArray(value)) {
    out.push(issues.listType(loc, value));
    return INVALID;
  }
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    out.push(issues.tooLong(loc, value, schema.maxItems, value.length));
    return INVALID;
  }
  let valid = true;
  const result = value.map((item, index) => {
    const checked = schema.items ? checkValue(schema.items, item, [...loc, index], out, registry) : item;
    if (checked === INVALID) valid = false;
    return checked;
  });
  if (schema.minItems !== undefined && value.length < schema.minItems) {
    out.push(issues.tooShort(loc, value, schema.minItems, value.length));
    return INVALID;
  }
  return valid ? result : INVALID;
}
