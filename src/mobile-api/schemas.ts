import { Type, type Static } from '@sinclair/typebox';
import { Int, RadioText, Text } from '../http/schema-kit.js';

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
