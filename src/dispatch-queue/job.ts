import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from '../schemas/schema-kit.js';

/** What a phone receives for each message it is to send: on its socket, in a claim's answer, in the OpenAPI document. */
export const JobSchema = Type.Object({
  messageId: Type.String(),
  to: Type.String(),
  body: Type.String(),
  segments: Type.Integer(),
  simSubscriptionId: Type.Union([Type.Integer(), Type.Null()]),
  expiresAt: DateTime,
});
export type Job = Static<typeof JobSchema>;
