import { Type, type Static } from '@sinclair/typebox';
import { Int, Nullable, PathId, Text } from '../schemas/schema-kit.js';
import { PageQuery } from '../http/pagination.js';
import { MESSAGE_STATUSES, MessageEventSchema, MessageSchema } from '../messages/message.js';
import { AutoResendAttempts } from './auto-resend/policy.js';
import { SendAtSchema, ValidForSchema } from '../scheduling/send-at.js';

const Recipient = Text({ minLength: 1, maxLength: 32, errorMessage: 'each recipient must be a string of 1 to 32 characters' });

export const SendMessagesBody = Type.Object(
  {
    to: Type.Union([Recipient, Type.Array(Recipient, { minItems: 1, maxItems: 500 })], {
      errorMessage: 'must be a phone number string (at most 32 characters) or an array of 1 to 500 of them',
    }),
    body: Text({ minLength: 1, maxLength: 1600, errorMessage: 'must be a string of 1 to 1600 characters' }),
    deviceId: Type.Optional(PathId),
    simSubscriptionId: Type.Optional(Int('integer', { minimum: 0 })),
    /** Beyond the spec (docs/decisions.md): "high" is claimed before waiting normal messages. */
    priority: Type.Optional(Type.Union([Type.Literal('normal'), Type.Literal('high')], { errorMessage: 'must be "normal" or "high"' })),
    /** Beyond the spec (docs/decisions.md): automatic resends of a retryable failure, instead of the organization's setting. */
    autoResend: Type.Optional(AutoResendAttempts),
    /** Beyond the spec (docs/decisions.md, "Scheduled sends"): queued at this time, `accepted` until then. */
    sendAt: Type.Optional(SendAtSchema),
    /** Beyond the spec: seconds from when it is queued until it expires, instead of 24 hours. */
    validFor: Type.Optional(ValidForSchema),
    /** Beyond the spec (docs/decisions.md, "Send windows"): true sends at once, whatever the send windows say. */
    ignoreSendWindows: Type.Optional(Type.Boolean({ errorMessage: 'must be true or false' })),
  },
  { additionalProperties: false },
);
export type SendMessagesBody = Static<typeof SendMessagesBody>;

export const ListMessagesQuery = Type.Object({
  status: Type.Optional(
    Type.Union(
      MESSAGE_STATUSES.map((s) => Type.Literal(s)),
      { errorMessage: `must be one of ${MESSAGE_STATUSES.join(', ')}` },
    ),
  ),
  /** Beyond the spec (docs/dashboard-api.md): the phone that took the message. */
  deviceId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', errorMessage: 'must be a device id' })),
  /** Beyond the spec: the recipient, read as POST /v1/messages reads it (default country). */
  to: Type.Optional(Text({ minLength: 1, maxLength: 32 })),
  ...PageQuery,
});

export const MessageDetailSchema = Type.Intersect([MessageSchema, Type.Object({ events: Type.Array(MessageEventSchema) })]);
export const SendResultSchema = Type.Object({ batchId: Type.String(), messages: Type.Array(MessageSchema) });
export const MessagePageSchema = Type.Object({ messages: Type.Array(MessageSchema), nextCursor: Nullable(Type.String()) });
