import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context/app-context.js';

/** Wakes the phones this process holds for an organization (or one phone). */
export type WakePhones = (orgId: string, deviceId: string | null) => void;

interface LocalPhones {
  /** Marks this process's own published signals, which its subscriber then skips. */
  origin: string;
  wake: WakePhones;
}

const local = new WeakMap<AppContext, LocalPhones>();

/** Called by the socket server of a process: work signals raised here reach its phones at once. */
export function holdPhonesLocally(ctx: AppContext, wake: WakePhones): string {
  const origin = randomBytes(8).toString('hex');
  local.set(ctx, { origin, wake });
  return origin;
}

export function releasePhonesLocally(ctx: AppContext): void {
  local.delete(ctx);
}

/**
 * Tells every API process that work is waiting. The phones of this process are woken directly,
 * without the round trip through Redis pub/sub (part of the 202 → jobs latency); the published
 * signal carries this process's origin so its own subscriber does not wake them twice.
 */
export async function signalWork(ctx: AppContext, messages: { orgId: string; requestedDeviceId: string | null }[]): Promise<void> {
  const here = local.get(ctx);
  const targets = new Map<string, { orgId: string; deviceId: string | null }>();
  for (const m of messages) targets.set(`${m.orgId} ${m.requestedDeviceId ?? ''}`, { orgId: m.orgId, deviceId: m.requestedDeviceId });
  // One pipelined round trip for all of them (the reconciler's batches span organizations).
  const publish = ctx.redis.pipeline();
  for (const { orgId, deviceId } of targets.values()) {
    here?.wake(orgId, deviceId);
    publish.publish(ctx.keys.deviceChannel(), JSON.stringify({ type: 'work', orgId, deviceId, origin: here?.origin }));
  }
  await publish.exec();
}
