/** The part of JSON Schema the OpenAPI document of /v1 uses (typebox's output). */
export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  allOf?: Schema[];
  const?: string | number | boolean;
  description?: string;
  format?: string;
  [keyword: string]: unknown;
}

/** Keywords that constrain a value without changing its type: two schemas equal but for them name one type. */
const CONSTRAINTS = new Set(['errorMessage', 'description', 'pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems', 'format', 'uniqueItems', 'additionalProperties']);

/** A key equal for two schemas of the same shape (same properties, types and constants). */
export function shapeKey(schema: Schema): string {
  return JSON.stringify(schema, (key, value) => (CONSTRAINTS.has(key) ? undefined : value));
}

export const isNull = (s: Schema): boolean => s.type === 'null';

/** `anyOf [X, null]` → X (and whether null was allowed). */
export function withoutNull(schema: Schema): { schema: Schema; nullable: boolean } {
  if (!schema.anyOf?.some(isNull)) return { schema, nullable: false };
  const rest = schema.anyOf.filter((s) => !isNull(s));
  return { schema: rest.length === 1 ? { ...rest[0]!, description: rest[0]!.description ?? schema.description } : { ...schema, anyOf: rest }, nullable: true };
}

/** The literal values of an `anyOf` of constants, or undefined when it is something else. */
export function constants(schema: Schema): (string | number | boolean)[] | undefined {
  if (schema.const !== undefined) return [schema.const];
  if (!schema.anyOf || schema.anyOf.length === 0 || !schema.anyOf.every((s) => s.const !== undefined)) return undefined;
  return schema.anyOf.map((s) => s.const!);
}

/** An `allOf` of objects flattened into one object (typebox's Composite/Intersect of Message and its timeline). */
export function flatten(schema: Schema): Schema {
  if (!schema.allOf) return schema;
  const parts = schema.allOf.map(flatten);
  return {
    type: 'object',
    required: parts.flatMap((p) => p.required ?? []),
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
  };
}

export const pascal = (name: string): string => name.replace(/(^|[-_.\s])([a-z0-9])/gi, (_m, _sep, c: string) => c.toUpperCase());
export const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/-/g, '_');
