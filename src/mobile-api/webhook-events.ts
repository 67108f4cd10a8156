import { Type, type Static } from '@sinclair/typebox';
import { Int, RadioText, Text } from '../schemas/schema-kit.js';

/**
 * What the app posts to the URLs of GET /mobile/v1/webhooks (smsgate-mobile-protocol.md §6.2).
 * Unknown fields are ignored: newer apps add some. Null fields are omitted by the app.
 */
export const WebhookEnvelope = Type.Object({
  id: Text({ minLength: 1, maxLength: 64, errorMessage: "must be the event's id (1 to 64 characters)" }),
  event: Text({ minLength: 1, maxLength: 64, errorMessage: 'must be the event name' }),
  deviceId: Text({ minLength: 1, maxLength: 64, errorMessage: 'must be the device id' }),
  webhookId: Type.Optional(Text({ maxLength: 64 })),
  payload: Type.Object({}, { errorMessage: 'must be an object' }),
});
export type WebhookEnvelope = Static<typeof WebhookEnvelope>;

const SimNumber = Type.Optional(Int('integer', { minimum: 1, maximum: 16, errorMessage: 'must be an integer from 1 to 16' }));
const AppDate = Text({ minLength: 1, maxLength: 64, errorMessage: 'must be a date' });

export const SmsReceivedPayload = Type.Object({
  messageId: Type.Optional(Text({ maxLength: 64 })),
  message: RadioText({ maxLength: 10_000, errorMessage: 'must be a string of at most 10000 characters' }),
  receivedAt: AppDate,
  sender: RadioText({ minLength: 1, maxLength: 64, errorMessage: 'must be the sender (1 to 64 characters)' }),
  simNumber: SimNumber,
});
export type SmsReceivedPayload = Static<typeof SmsReceivedPayload>;

/** sms:sent, sms:delivered and sms:failed: one recipient of one message. */
export const SmsStatusPayload = Type.Object({
  messageId: Text({ minLength: 1, maxLength: 64, errorMessage: 'must be the message id' }),
  recipient: Type.Optional(RadioText({ maxLength: 128 })),
  phoneNumber: Type.Optional(RadioText({ maxLength: 128 })),
  sentAt: Type.Optional(AppDate),
  deliveredAt: Type.Optional(AppDate),
  failedAt: Type.Optional(AppDate),
  reason: Type.Optional(RadioText({ maxLength: 1000 })),
  simNumber: SimNumber,
});
export type SmsStatusPayload = Static<typeof SmsStatusPayload>;

const Check = Type.Optional(Type.Object({ observedValue: Type.Optional(Type.Number()) }));

export const PingPayload = Type.Object({
  health: Type.Object({
    checks: Type.Optional(
      Type.Object({
        'battery:level': Check,
        'battery:charging': Check,
        'connection:status': Check,
        'connection:cellular': Check,
      }),
    ),
  }),
});
export type PingPayload = Static<typeof PingPayload>;
