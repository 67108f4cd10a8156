import { Type, type StringOptions, type TSchema } from '@sinclair/typebox';

/** Small builders shared by every domain's resource schemas (documentation and types). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
export const DateTime = Type.String({ format: 'date-time' });
export const NullableDateTime = Nullable(DateTime);
export const PathId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', errorMessage: 'must match ^[A-Za-z0-9_-]{1,64}$' });

export const ErrorBody = Type.Object({
  error: Type.Object({ code: Type.String(), message: Type.String(), requestId: Type.String() }),
});

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

// ---- Input kinds: every string and integer a client or phone sends is one of these ----
//
// Postgres refuses U+0000 in text and jsonb and an integer past its column's type, and either
// refusal arrived as a 500 after the request had been accepted. The bounds live in the schema so
// that the validator answers 400 naming the field, and /openapi.json shows them.

/** What each integer column type of the migrations holds; bigint stops where a JS number stays exact. */
export const COLUMN_RANGE = {
  smallint: { minimum: -32_768, maximum: 32_767 },
  integer: { minimum: -2_147_483_648, maximum: 2_147_483_647 },
  bigint: { minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
} as const;
export type ColumnType = keyof typeof COLUMN_RANGE;

/**
 * An integer input stored in (or compared with) a column of type `column`: its range is the
 * column's, narrowed by `minimum`/`maximum`. Never wider, so no value can overflow the column.
 */
export function Int(column: ColumnType, opts: { minimum?: number; maximum?: number; errorMessage?: string } = {}) {
  const range = COLUMN_RANGE[column];
  const minimum = Math.max(opts.minimum ?? range.minimum, range.minimum);
  const maximum = Math.min(opts.maximum ?? range.maximum, range.maximum);
  return Type.Integer({ minimum, maximum, errorMessage: opts.errorMessage ?? `must be an integer from ${minimum} to ${maximum}` });
}

/**
 * The pattern of text a client controls: well-formed UTF-16 without U+0000. Postgres cannot
 * store U+0000; a lone surrogate is turned into U+FFFD on its way to a text column but written as
 * `\ud800` by JSON.stringify, which a jsonb column refuses (an event payload: a 500).
 */
export const TEXT_PATTERN = '^(?:[^\\u0000\\ud800-\\udfff]|[\\ud800-\\udbff][\\udc00-\\udfff])*$';

/**
 * Text an API client or the phone app writes: U+0000 and lone surrogates are refused (400 naming
 * the field). A caller's own `pattern` replaces the default one and must itself exclude both.
 */
export function Text(opts: Omit<StringOptions, 'format'> & { errorMessage?: string } = {}) {
  return Type.String({ pattern: TEXT_PATTERN, ...opts });
}

/** Marks text the validator repairs instead of refusing (shown in /openapi.json). */
export const RADIO_TEXT = 'x-radio-text';

/**
 * Text that comes from the phone's radio or SIM (a received SMS's body and sender, carrier
 * names): the phone passes on what the network gave it and could not send it differently, so
 * U+0000 is removed and a lone surrogate becomes U+FFFD before the value is checked and stored.
 * Refusing it would turn a received SMS into one the phone retries forever.
 */
export function RadioText(opts: Omit<StringOptions, 'format' | 'pattern'> & { errorMessage?: string } = {}) {
  return Type.String({ ...opts, [RADIO_TEXT]: true });
}
