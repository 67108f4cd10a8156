import { Type, type TSchema } from '@sinclair/typebox';

/** Small builders shared by every domain's resource schemas (documentation and types). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
export const DateTime = Type.String({ format: 'date-time' });
export const NullableDateTime = Nullable(DateTime);
export const PathId = Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', errorMessage: 'must match ^[A-Za-z0-9_-]{1,64}$' });

export const ErrorBody = Type.Object({
  error: Type.Object({ code: Type.String(), message: Type.String(), requestId: Type.String() }),
});

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
