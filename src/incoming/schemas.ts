import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Int, Nullable, NullableDateTime, PathId, RadioText, Text } from '../schemas/schema-kit.js';
import { PageQuery } from '../http/pagination.js';
import { PhoneDateTime } from '../time/phone-time.js';
import { ClockSkewWarningSchema } from '../time/phone-clock.js';

/** One received SMS as a phone reports it (HTTP batch item and socket `incoming` frame). */
export const IncomingSmsBody = Type.Object(
  {
    clientId: Text({ minLength: 1, maxLength: 128, errorMessage: "must be the phone's own id of the SMS (1 to 128 characters)" }),
    // The sender and the text are the network's: repaired (U+0000 removed, a lone surrogate made
    // U+FFFD), so the SMS is still stored.
    from: RadioText({ minLength: 1, maxLength: 64, errorMessage: 'must be the raw originating address (1 to 64 characters)' }),
    body: RadioText({ maxLength: 10_000, errorMessage: 'must be a string of at most 10000 characters' }),
    receivedAt: PhoneDateTime,
    simSubscriptionId: Type.Optional(Int('integer', { minimum: 0 })),
    part: Type.Optional(
      Type.Object(
        {
          // Kept as text (the join's group key): an integer only needs to stay exact.
          ref: Type.Union([Text({ minLength: 1, maxLength: 64 }), Int('bigint', { minimum: 0 })], {
            errorMessage: 'must be the concatenation reference (string or integer)',
          }),
          index: Int('integer', { minimum: 1, maximum: 10, errorMessage: 'must be an integer from 1 to count' }),
          count: Int('integer', { minimum: 2, maximum: 10 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type IncomingSms = Static<typeof IncomingSmsBody>;

export const IncomingBatchBody = Type.Object(
  { messages: Type.Array(IncomingSmsBody, { minItems: 1, maxItems: 100, errorMessage: 'must be an array of 1 to 100 received SMS' }) },
  { additionalProperties: false },
);

export const IncomingResultSchema = Type.Union([
  Type.Object({
    clientId: Type.String(),
    incomingId: Nullable(Type.String()),
    pending: Type.Optional(Type.Literal(true)),
    warning: Type.Optional(ClockSkewWarningSchema),
  }),
  Type.Object({ clientId: Type.String(), error: Type.Object({ code: Type.String(), message: Type.String() }) }),
]);
export const IncomingBatchResultSchema = Type.Object({ results: Type.Array(IncomingResultSchema) });

export const MobileMoneyLinkSchema = Type.Object({ id: Type.String(), provider: Type.String(), classification: Type.String() });

export const IncomingMessageSchema = Type.Object({
  id: Type.String(),
  deviceId: Type.String(),
  from: Type.String(),
  body: Nullable(Type.String()),
  simSubscriptionId: Nullable(Type.Integer()),
  receivedAt: DateTime,
  createdAt: DateTime,
  retentionExpiresAt: DateTime,
  bodyPurgedAt: NullableDateTime,
  mobileMoney: Nullable(MobileMoneyLinkSchema),
});
export type IncomingMessage = Static<typeof IncomingMessageSchema>;

export const ListIncomingQuery = Type.Object({ deviceId: Type.Optional(PathId), ...PageQuery });
export const IncomingPageSchema = Type.Object({ messages: Type.Array(IncomingMessageSchema), nextCursor: Nullable(Type.String()) });
