import type { TSchema, Static } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import { DefaultErrorFunction, SetErrorFunction } from '@sinclair/typebox/errors';
import { errors } from '../errors/errors.js';

// A schema may carry its own human sentence in `errorMessage`; otherwise typebox's default.
SetErrorFunction((param) => {
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

export interface Validator<T extends TSchema> {
  check(value: unknown, root: string): Static<T>;
}

/** Compiles once at route registration; check() throws a 400 naming the first offending field. */
export function compileValidator<T extends TSchema>(schema: T, opts: { coerce?: boolean } = {}): Validator<T> {
  const compiled: TypeCheck<T> = TypeCompiler.Compile(schema);
  return {
    check(value, root) {
      const candidate = opts.coerce ? Value.Convert(schema, value) : value;
      if (compiled.Check(candidate)) return candidate as Static<T>;
      const first = compiled.Errors(candidate).First();
      const where = first ? fieldName(first.path, root) : root;
      throw errors.invalid(`${where}: ${first ? first.message : 'invalid'}`);
    },
  };
}
