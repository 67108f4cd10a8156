import type { TSchema, Static } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { DefaultErrorFunction, SetErrorFunction, ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { errors } from '../errors/errors.js';
import { RADIO_TEXT } from './schema-kit.js';

/** A UTF-16 code unit that is half of a surrogate pair without its other half (tsconfig's lib predates isWellFormed). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const hasLoneSurrogate = (s: string) => s.search(LONE_SURROGATE) !== -1;

// A schema may carry its own human sentence in `errorMessage`; otherwise typebox's default.
// A string refused for holding U+0000 or a lone surrogate says so: its schema's sentence ("at
// most 128 characters") would send the client looking for the wrong fault.
SetErrorFunction((param) => {
  if (typeof param.value === 'string' && (param.errorType === ValueErrorType.StringPattern || param.errorType === ValueErrorType.Union)) {
    if (param.value.includes('\u0000')) return 'must not contain U+0000 (NUL)';
    if (hasLoneSurrogate(param.value)) return 'must be well-formed UTF-16 (it holds a lone surrogate)';
  }
  const custom = (param.schema as { errorMessage?: unknown }).errorMessage;
  return typeof custom === 'string' ? custom : DefaultErrorFunction(param);
});

/** `/to/3` → `to[3]`: the way a client names the field in its own code. */
export function fieldName(path: string, root: string): string {
  if (path === '') return root;
  return path
    .slice(1)
    .split('/')
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}

/**
 * A union's own error says only "not one of these" at the union's path. When one variant got
 * deeper into the value (`to` is an array, its item 2 is too long), its error names the offending
 * element, which is what the client needs to find it.
 */
function mostSpecific(error: ValueError): ValueError {
  let best = error;
  for (const variant of error.errors ?? []) {
    const first = variant.First();
    if (first && first.path.length > best.path.length) best = mostSpecific(first);
  }
  return best;
}

export interface Validator<T extends TSchema> {
  check(value: unknown, root: string): Static<T>;
}

const NUMERIC: Record<string, RegExp> = { integer: /^-?\d{1,15}$/, number: /^-?\d{1,15}(\.\d{1,15})?$/ };

/**
 * Query strings are text; a property typed integer, number or boolean gets its value converted
 * only when the text is exactly that (typebox's Value.Convert reads "1.5" and "1e2" as 1 and
 * "0x10" as 16, which would answer a wrong page instead of a 400). Anything else stays a string
 * and fails the check.
 */
function coerceQuery(schema: TSchema, value: unknown): unknown {
  const properties = (schema as { properties?: Record<string, TSchema> }).properties;
  if (!properties || typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [name, prop] of Object.entries(properties)) {
    const raw = out[name];
    if (typeof raw !== 'string') continue;
    const type = (prop as { type?: unknown }).type;
    if (typeof type === 'string' && NUMERIC[type]?.test(raw)) out[name] = Number(raw);
    else if (type === 'boolean' && (raw === 'true' || raw === 'false')) out[name] = raw === 'true';
  }
  return out;
}

type Node = TSchema & { properties?: Record<string, Node>; items?: Node; anyOf?: Node[]; allOf?: Node[] };

function children(schema: Node): Node[] {
  return [...Object.values(schema.properties ?? {}), ...(schema.items ? [schema.items] : []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])];
}

const isRadioText = (schema: Node) => (schema as Record<string, unknown>)[RADIO_TEXT] === true;

function hasRadioText(schema: Node): boolean {
  return isRadioText(schema) || children(schema).some(hasRadioText);
}

/**
 * A copy of `value` where every string its schema marks RadioText (text from the phone's radio)
 * has U+0000 removed and lone surrogates replaced by U+FFFD: stored repaired instead of refused.
 * Other values are returned as they are.
 */
function repairRadioText(schema: Node, value: unknown): unknown {
  if (typeof value === 'string') {
    return isRadioText(schema) || (schema.anyOf ?? []).some(isRadioText) ? value.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\ufffd') : value;
  }
  if (Array.isArray(value)) return schema.items ? value.map((v) => repairRadioText(schema.items!, v)) : value;
  if (typeof value !== 'object' || value === null) return value;
  // A union of objects (none today) would need the matching variant; objects are walked by their own properties.
  const object = (schema.anyOf ?? []).find((s) => s.properties) ?? schema;
  if (!object.properties) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [name, prop] of Object.entries(object.properties)) if (name in out) out[name] = repairRadioText(prop, out[name]);
  return out;
}

/** Compiles once at route registration; check() throws a 400 naming the first offending field. */
export function compileValidator<T extends TSchema>(schema: T, opts: { coerce?: boolean } = {}): Validator<T> {
  const compiled: TypeCheck<T> = TypeCompiler.Compile(schema);
  const repairs = hasRadioText(schema);
  return {
    check(value, root) {
      let candidate = opts.coerce ? coerceQuery(schema, value) : value;
      if (repairs) candidate = repairRadioText(schema, candidate);
      if (compiled.Check(candidate)) return candidate as Static<T>;
      const found = compiled.Errors(candidate).First();
      const first = found ? mostSpecific(found) : undefined;
      const where = first ? fieldName(first.path, root) : root;
      throw errors.invalid(`${where}: ${first ? first.message : 'invalid'}`);
    },
  };
}
