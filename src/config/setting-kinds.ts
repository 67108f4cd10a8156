import { Type, type TArray, type TInteger, type TLiteral, type TNull, type TSchema, type TString, type TUnion } from '@sinclair/typebox';

/**
 * What a setting holds: the schema its value must meet, and how the environment's text becomes
 * that value. A parse never throws: text it cannot read stays as it is (or NaN), and the schema
 * then names the setting in the start-up error.
 */
export interface Kind<S extends TSchema> {
  schema: S;
  parse(text: string): unknown;
  /** What the docs table says in its Type column. */
  label: string;
}

/** One entry of the settings table: the variable, its default as text, its kind and its doc. */
export interface Setting<S extends TSchema = TSchema> {
  env: string;
  default: string;
  kind: Kind<S>;
  doc: string;
}

const whole = (text: string) => (/^-?\d+$/.test(text.trim()) ? Number(text) : Number.NaN);
const items = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const range = (min: number, max: number) => (max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `${min}–${max}`);
const integer = (min: number, max: number) => Type.Integer({ minimum: min, maximum: max });

export function int(min: number, max = Number.MAX_SAFE_INTEGER): Kind<TInteger> {
  return { schema: integer(min, max), parse: whole, label: `integer ${range(min, max)}` };
}

/** An integer, or null when empty (the feature is off). */
export function optionalInt(min: number, max = Number.MAX_SAFE_INTEGER): Kind<TUnion<[TInteger, TNull]>> {
  return { schema: Type.Union([integer(min, max), Type.Null()]), parse: (t) => (t.trim() === '' ? null : whole(t)), label: `integer ${range(min, max)} or empty` };
}

/** true or false in any case; anything else stays a string, which validation then names. */
export const flag: Kind<ReturnType<typeof Type.Boolean>> = {
  schema: Type.Boolean(),
  parse: (t) => (({ true: true, false: false }) as Record<string, boolean>)[t.trim().toLowerCase()] ?? t,
  label: 'true or false',
};

/** Text as given, or trimmed; `pattern` restricts it. */
export function text(opts: { trim?: boolean; minLength?: number; pattern?: string; label?: string } = {}): Kind<TString> {
  const { trim = false, label = 'text', ...schema } = opts;
  return { schema: Type.String(schema), parse: trim ? (t) => t.trim() : (t) => t, label };
}

/** An address without its trailing slashes (links are built by appending paths). */
export function baseUrl(pattern: string): Kind<TString> {
  return { schema: Type.String({ pattern }), parse: (t) => t.trim().replace(/\/+$/, ''), label: 'URL' };
}

export function oneOf<const T extends string[]>(...values: T): Kind<TUnion<{ [K in keyof T]: TLiteral<T[K]> }>> {
  const schema = Type.Union(values.map((v) => Type.Literal(v))) as TUnion<{ [K in keyof T]: TLiteral<T[K]> }>;
  return { schema, parse: (t) => t, label: values.join(', ') };
}

/** A comma list of texts (blank items dropped). */
export function list(item: TString = Type.String()): Kind<TArray<TString>> {
  return { schema: Type.Array(item), parse: items, label: 'comma list' };
}

/** A comma list of whole numbers, at least one. */
export function intList(min: number): Kind<TArray<TInteger>> {
  return { schema: Type.Array(integer(min, Number.MAX_SAFE_INTEGER), { minItems: 1 }), parse: (t) => items(t).map(whole), label: 'comma list of integers' };
}
