import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Int, Nullable, NullableDateTime, RadioText, Text } from '../schemas/schema-kit.js';
import { PhoneDateTime } from '../time/phone-time.js';
import { ClockSkewWarningSchema } from '../time/phone-clock.js';

/** The resources and bodies of the devices domain: /v1/devices and the phone's /device/v1. */

export const DEVICE_STATUSES = ['online', 'stale', 'never_seen', 'revoked'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

export const InboundCapabilitySchema = Type.Union([
  Type.Object({ state: Type.Literal('unlocked') }),
  Type.Object({
    state: Type.Literal('locked'),
    reason: Type.Union(['revoked', 'not_reported', 'not_default_sms_app', 'stale'].map((r) => Type.Literal(r))),
  }),
]);

export const SimCardSchema = Type.Object({
  subscriptionId: Type.Integer(),
  slotIndex: Nullable(Type.Integer()),
  carrierName: Nullable(Type.String()),
  displayName: Nullable(Type.String()),
  phoneNumber: Nullable(Type.String()),
  countryIso: Nullable(Type.String()),
  firstSeenAt: DateTime,
  /** The last heartbeat that listed the card. */
  lastSeenAt: DateTime,
  /** Set once a heartbeat stops listing the card; null while the phone reports it. */
  removedAt: NullableDateTime,
});
export type SimCard = Static<typeof SimCardSchema>;

export const DeviceSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  model: Nullable(Type.String()),
  status: Type.Union(DEVICE_STATUSES.map((s) => Type.Literal(s))),
  createdAt: DateTime,
  revokedAt: NullableDateTime,
  revokedReason: Nullable(Type.String()),
  lastSeenAt: NullableDateTime,
  battery: Type.Object({ percent: Nullable(Type.Integer()), charging: Nullable(Type.Boolean()) }),
  networkType: Nullable(Type.String()),
  uptimeSeconds: Nullable(Type.Integer()),
  freeStorageBytes: Nullable(Type.Integer()),
  appVersion: Nullable(Type.String()),
  outboundEnabled: Type.Boolean(),
  draining: Type.Boolean(),
  defaultSimSubscriptionId: Nullable(Type.Integer()),
  queueDepth: Type.Integer(),
  socket: Type.Object({ connected: Type.Boolean(), lastChangedAt: NullableDateTime }),
  inbound: InboundCapabilitySchema,
  sims: Type.Array(SimCardSchema),
});
export type Device = Static<typeof DeviceSchema>;

export const DeviceListSchema = Type.Object({ devices: Type.Array(DeviceSchema) });

/** Android's subscription ids are small non-negative integers, stored in integer columns. */
const SimId = Int('integer', { minimum: 0 });

export const UpdateDeviceBody = Type.Object(
  {
    name: Type.Optional(Text({ minLength: 1, maxLength: 128, errorMessage: 'must be a string of 1 to 128 characters' })),
    draining: Type.Optional(Type.Boolean({ errorMessage: 'must be true or false' })),
    outboundEnabled: Type.Optional(Type.Boolean({ errorMessage: 'must be true or false' })),
    defaultSimSubscriptionId: Type.Optional(Type.Union([SimId, Type.Null()], { errorMessage: `must be an integer from 0 to ${SimId.maximum}, or null` })),
  },
  { additionalProperties: false, errorMessage: 'allowed fields are name, draining, outboundEnabled, defaultSimSubscriptionId' },
);
export type UpdateDeviceBody = Static<typeof UpdateDeviceBody>;

// ---- /device/v1: what the phone sends ----

/** A string the app itself writes (U+0000 refused), or null. */
const OptionalText = (max: number, kind: typeof Text | typeof RadioText = Text) =>
  Type.Optional(Type.Union([kind({ maxLength: max }), Type.Null()], { errorMessage: `must be a string of at most ${max} characters, or null` }));
/** Read from the SIM and the network by Android: U+0000 in it is removed, not refused. */
const OptionalSimText = (max: number) => OptionalText(max, RadioText);
const OptionalCount = (column: 'integer' | 'bigint') => {
  const count = Int(column, { minimum: 0 });
  return Type.Optional(Type.Union([count, Type.Null()], { errorMessage: `must be an integer from 0 to ${count.maximum}, or null` }));
};

export const ReportedSim = Type.Object({
  subscriptionId: SimId,
  slotIndex: OptionalCount('integer'),
  carrierName: OptionalSimText(128),
  displayName: OptionalSimText(128),
  phoneNumber: OptionalSimText(32),
  countryIso: OptionalSimText(8),
});
export type ReportedSim = Static<typeof ReportedSim>;

/**
 * Every field is optional: an omitted field keeps its last value, null clears it. Unknown
 * fields are ignored so newer apps can talk to older servers (and socket frames can carry
 * `type` and `ref` beside them).
 */
export const HeartbeatBody = Type.Object({
  battery: Type.Optional(
    Type.Object({
      percent: Type.Union([Int('integer', { minimum: 0, maximum: 100 }), Type.Null()], { errorMessage: 'must be an integer from 0 to 100, or null' }),
      charging: Type.Union([Type.Boolean(), Type.Null()], { errorMessage: 'must be true, false or null' }),
    }),
  ),
  networkType: OptionalText(32),
  uptimeSeconds: OptionalCount('bigint'),
  freeStorageBytes: OptionalCount('bigint'),
  appVersion: OptionalText(64),
  sims: Type.Optional(Type.Array(ReportedSim, { maxItems: 16, errorMessage: 'must be an array of at most 16 SIM cards' })),
  defaultSmsApp: Type.Optional(Type.Boolean({ errorMessage: 'must be true or false' })),
  sentAt: Type.Optional(PhoneDateTime),
});
export type Heartbeat = Static<typeof HeartbeatBody>;

export const HeartbeatReplySchema = Type.Object({
  serverTime: DateTime,
  inbound: InboundCapabilitySchema,
  warning: Type.Optional(ClockSkewWarningSchema),
});

export const PairBody = Type.Object({
  code: Text({ minLength: 1, maxLength: 32, errorMessage: 'must be the pairing code (a string of at most 32 characters)' }),
  name: Type.Optional(Text({ minLength: 1, maxLength: 128, errorMessage: 'must be a string of 1 to 128 characters' })),
  model: Type.Optional(Text({ maxLength: 128, errorMessage: 'must be a string of at most 128 characters' })),
  appVersion: Type.Optional(Text({ maxLength: 64, errorMessage: 'must be a string of at most 64 characters' })),
});
export type PairBody = Static<typeof PairBody>;

export const PairReplySchema = Type.Object({ deviceId: Type.String(), token: Type.String() });
