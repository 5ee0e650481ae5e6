/**
 * The part of JSON Schema that our TypeBox request schemas use, as the request validator
 * (src/http/validation/schema-walker.ts) reads it, and the registry of schemas referenced by $id.
 */
export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  $ref?: string;
  $id?: string;
  /** The value is read by the operation itself (its problems reported at their exact place); the walker passes it on. */
  'x-checked-by-operation'?: boolean;
}

export type SchemaRegistry = ReadonlyMap<string, JsonSchema>;
