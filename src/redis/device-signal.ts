import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';

/**
 * What API processes tell each other about phones on the organization's device channel
 * (device-signals.ts), whichever process holds a phone's socket or event stream. Every publisher
 * encodes and every subscriber decodes here, so a field renamed on one side fails the typecheck
 * rather than a phone in production. Extra fields are let through: a process of the next version
 * may add one during a rolling deploy.
 */
const Id = Type.String({ minLength: 1 });
const signal = <K extends string, T extends Record<string, TSchema>>(type: K, fields: T) => Type.Object({ type: Type.Literal(type), orgId: Id, ...fields });

/** Work was queued for the organization's phones (deviceId null) or one phone: `count` messages, when known. */
export const WorkSignal = signal('work', {
  deviceId: Type.Union([Id, Type.Null()]),
  count: Type.Optional(Type.Integer({ minimum: 0 })),
  /** The publishing process, whose own subscribers skip it (it woke its phones directly). */
  origin: Type.Optional(Type.String()),
});

/** Jobs taken back from a phone (src/dispatch/withdraw-jobs.ts): the process holding its socket tells it. */
export const WithdrawnSignal = signal('withdrawn', { deviceId: Id, messageIds: Type.Array(Type.String()) });

/** A phone was revoked: every process closes its socket or stream. */
export const RevokedSignal = signal('revoked', { deviceId: Id });

/**
 * The events the app acts on (smsgate-mobile-protocol.md §4.2). Any other name it logs and
 * ignores, so only these are ever sent.
 */
export const AppEventName = Type.Union([Type.Literal('MessageEnqueued'), Type.Literal('WebhooksUpdated'), Type.Literal('SettingsUpdated'), Type.Literal('MessageCancelled')]);
export type AppEventName = Static<typeof AppEventName>;

export const AppEvent = Type.Object({
  event: AppEventName,
  /** MessageCancelled: `{messageId}`; the others: none (sent as `null`, as the reference does). */
  data: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
});
export type AppEvent = Static<typeof AppEvent>;

/** Events for a mobile phone's event stream (deviceId null: every mobile phone of the organization). */
export const AppEventSignal = signal('app-event', {
  deviceId: Type.Union([Id, Type.Null()]),
  events: Type.Array(AppEvent),
  /** Written this many ms from now (a pull held back by pacing asks to be woken when it reopens). */
  delayMs: Type.Optional(Type.Integer({ minimum: 0 })),
  origin: Type.Optional(Type.String()),
});

/** A mobile phone pulled on a process that does not hold its stream. */
export const AppPulledSignal = signal('app-pulled', { deviceId: Id });

export type WorkSignal = Static<typeof WorkSignal>;
export type WithdrawnSignal = Static<typeof WithdrawnSignal>;
export type RevokedSignal = Static<typeof RevokedSignal>;
export type AppEventSignal = Static<typeof AppEventSignal>;
export type AppPulledSignal = Static<typeof AppPulledSignal>;

export const DeviceSignal = Type.Union([WorkSignal, WithdrawnSignal, RevokedSignal, AppEventSignal, AppPulledSignal]);
export type DeviceSignal = Static<typeof DeviceSignal>;

const check = TypeCompiler.Compile(DeviceSignal);

export const encodeDeviceSignal = (s: DeviceSignal): string => JSON.stringify(s);

/** The signal in a channel message, or null when it is not one (bad JSON, unknown type, a field missing or mistyped): never throws. */
export function decodeDeviceSignal(text: string): DeviceSignal | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return check.Check(value) ? value : null;
}
