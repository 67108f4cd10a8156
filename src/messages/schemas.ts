import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Int, Nullable, NullableDateTime, PathId, Text } from '../http/schema-kit.js';
import { PageQuery } from '../http/pagination.js';

export const MESSAGE_STATUSES = [
  'accepted', 'queued', 'claimed', 'sending', 'sent', 'delivered', 'failed', 'expired', 'cancelled', 'unknown',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const TERMINAL_STATUSES: ReadonlySet<MessageStatus> = new Set(['delivered', 'failed', 'expired', 'cancelled', 'unknown']);

const Recipient = Text({ minLength: 1, maxLength: 32, errorMessage: 'each recipient must be a string of 1 to 32 characters' });

export const SendMessagesBody = Type.Object(
  {
    to: Type.Union([Recipient, Type.Array(Recipient, { minItems: 1, maxItems: 500 })], {
      errorMessage: 'must be a phone number string (at most 32 characters) or an array of 1 to 500 of them',
    }),
    body: Text({ minLength: 1, maxLength: 1600, errorMessage: 'must be a string of 1 to 1600 characters' }),
    deviceId: Type.Optional(PathId),
    simSubscriptionId: Type.Optional(Int('integer', { minimum: 0 })),
  },
  { additionalProperties: false },
);
export type SendMessagesBody = Static<typeof SendMessagesBody>;

export const ListMessagesQuery = Type.Object({
  status: Type.Optional(Type.Union(MESSAGE_STATUSES.map((s) => Type.Literal(s)), { errorMessage: `must be one of ${MESSAGE_STATUSES.join(', ')}` })),
  /** Beyond the spec (docs/dashboard-api.md): the phone that took the message. */
  deviceId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', errorMessage: 'must be a device id' })),
  /** Beyond the spec: the recipient, read as POST /v1/messages reads it (default country). */
  to: Type.Optional(Text({ minLength: 1, maxLength: 32 })),
  ...PageQuery,
});

const StatusSchema = Type.Union(MESSAGE_STATUSES.map((s) => Type.Literal(s)));

export const MessageSchema = Type.Object({
  id: Type.String(),
  to: Type.String(),
  body: Type.String(),
  status: StatusSchema,
  segments: Type.Integer(),
  encoding: Type.Union([Type.Literal('gsm7'), Type.Literal('ucs2')]),
  deviceId: Nullable(Type.String()),
  requestedDeviceId: Nullable(Type.String()),
  simSubscriptionId: Nullable(Type.Integer()),
  batchId: Nullable(Type.String()),
  resendOfId: Nullable(Type.String()),
  failureCode: Nullable(Type.String()),
  createdAt: DateTime,
  updatedAt: DateTime,
  claimedAt: NullableDateTime,
  sentAt: NullableDateTime,
  deliveredAt: NullableDateTime,
  failedAt: NullableDateTime,
  expiresAt: DateTime,
});
export type Message = Static<typeof MessageSchema>;

export const MessageEventSchema = Type.Object({
  fromStatus: Nullable(StatusSchema),
  toStatus: StatusSchema,
  source: Type.Union(['api', 'member', 'device', 'system'].map((s) => Type.Literal(s))),
  code: Nullable(Type.String()),
  deviceId: Nullable(Type.String()),
  at: DateTime,
});
export type MessageEvent = Static<typeof MessageEventSchema>;

export const MessageDetailSchema = Type.Intersect([MessageSchema, Type.Object({ events: Type.Array(MessageEventSchema) })]);
export const SendResultSchema = Type.Object({ batchId: Type.String(), messages: Type.Array(MessageSchema) });
export const MessagePageSchema = Type.Object({ messages: Type.Array(MessageSchema), nextCursor: Nullable(Type.String()) });
