/**
 * Element writers: one function per field, made once at start-up, that turns a value into its
 * XML element (CONTRACT 5). Scalars become text; null (or an absent value) becomes an empty
 * element `<name/>`; objects nest their fields in schema order; arrays hold one element per item,
 * named by the caller (photos_urls -> photo_url). Tags are precomputed strings, so rendering is
 * string concatenation plus one escape pass per text value.
 */
import type { TSchema } from 'typebox';
import { escapeXmlText } from './escape.js';

/** Writes a value as one whole element, tags included. */
export type ElementWriter = (value: unknown) => string;

/**
 * A value that does not have the shape the schema promises. Imports validate every record, so this
 * does not happen; if it ever does, the JSON text of the value is written as escaped text, which
 * keeps the document well formed and loses nothing.
 */
function unexpected(open: string, close: string, value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? '';
  } catch {
    text = String(value);
  }
  return open + escapeXmlText(text) + close;
}

/** string -> escaped text; number as JSON writes it; boolean -> true/false; null -> empty element. */
export function scalarElement(name: string): ElementWriter {
  const open = `<${name}>`;
  const close = `</${name}>`;
  const empty = `<${name}/>`;
  return (value) => {
    switch (typeof value) {
      case 'string':
        return open + escapeXmlText(value) + close;
      case 'number':
        // JSON writes NaN and the infinities as null; so do we (an empty element).
        return Number.isFinite(value) ? open + String(value) + close : empty;
      case 'boolean':
        return value ? open + 'true' + close : open + 'false' + close;
      case 'undefined':
        return empty;
      default:
        return value === null ? empty : unexpected(open, close, value);
    }
  };
}

/** An array as `<name><item>..</item>...</name>`; null and [] both give `<name/>`. */
export function listElement(name: string, item: ElementWriter): ElementWriter {
  const open = `<${name}>`;
  const close = `</${name}>`;
  const empty = `<${name}/>`;
  return (value) => {
    if (value === null || value === undefined) return empty;
    if (!Array.isArray(value)) return unexpected(open, close, value);
    if (value.length === 0) return empty;
    let out = open;
    for (const entry of value) out += item(entry);
    return out + close;
  };
}

export interface FieldWriter {
  readonly key: string;
  readonly write: ElementWriter;
}

/** An object as `<name><field>..</field>...</name>`, fields in the given order; null -> `<name/>`. */
export function objectElement(name: string, fields: readonly FieldWriter[]): ElementWriter {
  const open = `<${name}>`;
  const close = `</${name}>`;
  const empty = `<${name}/>`;
  return (value) => {
    if (value === null || value === undefined) return empty;
    if (typeof value !== 'object' || Array.isArray(value)) return unexpected(open, close, value);
    const record = value as Record<string, unknown>;
    let out = open;
    for (const field of fields) out += field.write(record[field.key]);
    return out + close;
  };
}

/**
 * Writers for the fields of an object schema (TypeBox / JSON Schema), in its property order.
 * `itemNames` names the item element of every array field by the array's field name; an array
 * without a name is a programming error, reported at start-up rather than in a response.
 */
export function fieldWritersFromSchema(
  schema: TSchema,
  itemNames: Readonly<Record<string, string>>,
): FieldWriter[] {
  const properties = (schema as { properties?: Record<string, TSchema> }).properties;
  if (!properties) throw new Error('fieldWritersFromSchema: not an object schema');
  return Object.entries(properties).map(([key, property]) => ({
    key,
    write: elementFromSchema(key, property, itemNames),
  }));
}

function elementFromSchema(
  name: string,
  schema: TSchema,
  itemNames: Readonly<Record<string, string>>,
): ElementWriter {
  const shape = withoutNull(schema) as { type?: unknown; items?: TSchema; properties?: unknown };
  if (shape.type === 'object' && shape.properties) {
    return objectElement(name, fieldWritersFromSchema(shape, itemNames));
  }
  if (shape.type === 'array' && shape.items) {
    const itemName = itemNames[name];
    if (!itemName) throw new Error(`no XML item element name for the array field "${name}"`);
    return listElement(name, elementFromSchema(itemName, shape.items, itemNames));
  }
  return scalarElement(name);
}

/** `T | null` (anyOf [T, null]) -> T; anything else unchanged. */
function withoutNull(schema: TSchema): TSchema {
  const anyOf = (schema as { anyOf?: TSchema[] }).anyOf;
  if (!anyOf) return schema;
  const rest = anyOf.filter((member) => (member as { type?: unknown }).type !== 'null');
  return rest.length === 1 ? rest[0]! : schema;
}
