import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { publishDeviceSignals } from '../redis/device-signals.js';
import type { AppEvent, AppEventSignal, AppPulledSignal } from '../redis/device-signal.js';

export type { AppEvent, AppEventName, AppEventSignal } from '../redis/device-signal.js';

export type DeliverAppEvents = (signal: AppEventSignal) => void;

interface LocalStreams {
  origin: string;
  deliver: DeliverAppEvents;
  /** Tells this process's streams of the device that it pulled; false when it holds none. */
  pulled(deviceId: string): boolean;
}

/** The event streams of each process (one context per process; tests run several). */
const local = new WeakMap<Infrastructure, LocalStreams>();

/** Called by the process holding event streams: events raised here reach them without Redis. */
export function holdStreamsLocally(ctx: Infrastructure, streams: LocalStreams): void {
  local.set(ctx, streams);
}

export function releaseStreamsLocally(ctx: Infrastructure): void {
  local.delete(ctx);
}

/**
 * Sends events to a mobile phone's open event streams (or, deviceId null, to every mobile phone
 * of the organization), on whichever API process holds them: this one directly, the others
 * through the organization's device channel. A phone with no stream open gets nothing: it
 * syncs on its next connect (which also pulls), every 24 h, or on its 15-minute pull.
 */
export async function pushAppEvent(ctx: Infrastructure, target: { orgId: string; deviceId: string | null }, event: AppEvent | AppEvent[], opts: { delayMs?: number } = {}): Promise<void> {
  const here = local.get(ctx);
  const signal: AppEventSignal = {
    type: 'app-event',
    orgId: target.orgId,
    deviceId: target.deviceId,
    events: Array.isArray(event) ? event : [event],
    ...(opts.delayMs ? { delayMs: Math.round(opts.delayMs) } : {}),
    ...(here ? { origin: here.origin } : {}),
  };
  here?.deliver(signal);
  await publishDeviceSignals(ctx.redis, ctx.keys, [signal]);
}

/**
 * The phone pulled: its stream may be woken again (app-stream.ts, one MessageEnqueued per pull).
 * Told directly when this process holds the stream, else through the device channel.
 */
export async function notePulled(ctx: Infrastructure, device: { orgId: string; deviceId: string }): Promise<void> {
  if (local.get(ctx)?.pulled(device.deviceId)) return;
  const signal: AppPulledSignal = { type: 'app-pulled', orgId: device.orgId, deviceId: device.deviceId };
  await publishDeviceSignals(ctx.redis, ctx.keys, [signal]);
}
