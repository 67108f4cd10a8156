import { randomBytes } from 'node:crypto';
import type { Infrastructure } from '../context/infrastructure.js';

/** Wakes the phones this process holds for an organization (or one phone). */
export type WakePhones = (orgId: string, deviceId: string | null) => void;

interface LocalPhones {
  /** Marks this process's own published signals, which its subscriber then skips. */
  origin: string;
  wake: WakePhones;
}

/**
 * Tells every API process that work is waiting. The phones of this process are woken directly,
 * without the round trip through Redis pub/sub (part of the 202 → jobs latency); the published
 * signal carries this process's origin so its own subscriber does not wake them twice.
 */
export class WorkSignals {
  private local: LocalPhones | null = null;

  constructor(private readonly ctx: Infrastructure) {}

  /** Called by the socket server of a process: work signals raised here reach its phones at once. */
  holdPhonesLocally(wake: WakePhones): string {
    const origin = randomBytes(8).toString('hex');
    this.local = { origin, wake };
    return origin;
  }

  releasePhonesLocally(): void {
    this.local = null;
  }

  async signal(messages: { orgId: string; requestedDeviceId: string | null }[]): Promise<void> {
    const here = this.local;
    const targets = new Map<string, { orgId: string; deviceId: string | null }>();
    for (const m of messages) targets.set(`${m.orgId} ${m.requestedDeviceId ?? ''}`, { orgId: m.orgId, deviceId: m.requestedDeviceId });
    // One pipelined round trip for all of them (the reconciler's batches span organizations).
    const publish = this.ctx.redis.pipeline();
    for (const { orgId, deviceId } of targets.values()) {
      here?.wake(orgId, deviceId);
      publish.publish(this.ctx.keys.deviceChannel(), JSON.stringify({ type: 'work', orgId, deviceId, origin: here?.origin }));
    }
    await publish.exec();
  }
}
