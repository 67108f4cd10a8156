import { Type, type Static } from '@sinclair/typebox';
import { Int, RadioText, Text } from '../schemas/schema-kit.js';

/**
 * What SMS Gateway for Android sends (smsgate-mobile-protocol.md §2–§5). Unknown fields are
 * ignored, as the app ignores ours: newer app versions add fields under the same paths.
 */

/** A SIM as the app lists it: values redacted to their last four characters (app-sims.ts). */
export const AppSimCard = Type.Object({
  slotIndex: Int('integer', { minimum: 0, maximum: 15, errorMessage: 'must be an integer from 0 to 15' }),
  simNumber: Type.Optional(Int('integer', { minimum: 1, maximum: 16, errorMessage: 'must be an integer from 1 to 16' })),
  phoneNumber: Type.Optional(Type.Union([RadioText({ maxLength: 64 }), Type.Null()], { errorMessage: 'must be a string of at most 64 characters' })),
  carrierName: Type.Optional(Type.Union([RadioText({ maxLength: 128 }), Type.Null()], { errorMessage: 'must be a string of at most 128 characters' })),
  iccid: Type.Optional(Type.Union([RadioText({ maxLength: 64 }), Type.Null()], { errorMessage: 'must be a string of at most 64 characters' })),
});
export type AppSimCard = Static<typeof AppSimCard>;

const SimCards = Type.Array(AppSimCard, { maxItems: 16, errorMessage: 'must be an array of at most 16 SIM cards' });
const PushToken = Type.Optional(Type.Union([Text({ maxLength: 512 }), Type.Null()], { errorMessage: 'must be a string of at most 512 characters' }));

export const RegisterBody = Type.Object({
  name: Type.Optional(Type.Union([Text({ maxLength: 128 }), Type.Null()], { errorMessage: 'must be a string of at most 128 characters' })),
  pushToken: PushToken,
  simCards: Type.Optional(SimCards),
});
export type RegisterBody = Static<typeof RegisterBody>;

export const PatchDeviceBody = Type.Object({
  id: Text({ minLength: 1, maxLength: 64, errorMessage: 'must be the device id' }),
  pushToken: PushToken,
  simCards: Type.Optional(SimCards),
});
export type PatchDeviceBody = Static<typeof PatchDeviceBody>;

/** Every state the app writes, message-level and per recipient (§5.3). */
export const APP_STATES = ['Pending', 'Processed', 'Sent', 'Delivered', 'Failed', 'Cancelling', 'Cancelled'] as const;
export type AppState = (typeof APP_STATES)[number];
const AppStateSchema = Type.Union(
  APP_STATES.map((s) => Type.Literal(s)),
  { errorMessage: `must be one of ${APP_STATES.join(', ')}` },
);
/** A date the phone wrote: any offset, malformed ones included (app-dates.ts reads it; a date it cannot read is not a refusal). */
const AppDateText = Type.String({ maxLength: 64, errorMessage: 'must be a date-time string' });

export const ReportItem = Type.Object({
  id: Text({ minLength: 1, maxLength: 64, errorMessage: 'must be a message id (1 to 64 characters)' }),
  state: AppStateSchema,
  recipients: Type.Optional(
    Type.Array(
      Type.Object({
        phoneNumber: RadioText({ maxLength: 256, errorMessage: 'must be a string of at most 256 characters' }),
        state: AppStateSchema,
        error: Type.Optional(Type.Union([RadioText({ maxLength: 4096 }), Type.Null()], { errorMessage: 'must be a string of at most 4096 characters, or null' })),
      }),
      { maxItems: 100, errorMessage: 'must be an array of at most 100 recipients' },
    ),
  ),
  states: Type.Optional(
    Type.Object(Object.fromEntries(APP_STATES.map((s) => [s, Type.Optional(AppDateText)])), {
      additionalProperties: false,
      errorMessage: `must map states (${APP_STATES.join(', ')}) to date-times`,
    }),
  ),
});
export type ReportItem = Static<typeof ReportItem>;

export const ReportBody = Type.Array(ReportItem, { maxItems: 100, errorMessage: 'must be an array of at most 100 message reports' });
export type ReportBody = Static<typeof ReportBody>;
