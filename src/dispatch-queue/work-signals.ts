import { randomBytes } from 'node:crypto';
import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { publishDeviceSignals } from '../redis/device-signals.js';
import type { WorkSignal } from '../redis/device-signal.js';
import { groupBy } from '../batching/group-by.js';
import { sameTarget, targetKey } from './entries.js';

/**
 * Wakes the phones this process holds for an organization (or one phone); `count`: how many
 * messages were queued (the phones share them out), or absent when not known.
 */
export type WakePhones = (orgId: string, deviceId: string | null, count?: number) => void;

/**
 * Tells every API process that work is waiting. The phones of this process are woken directly,
 * without the round trip through Redis pub/sub (part of the 202 → jobs latency); the published
 * signal carries this process's origin so its own subscriber does not wake them twice.
 */
export class WorkSignals {
  /** Those of this process that hold phones: the socket server, the mobile API's event streams. */
  private readonly local = new Set<WakePhones>();
  /** Marks this process's own published signals, which its subscribers then skip. */
  private readonly origin = randomBytes(8).toString('hex');

  constructor(private readonly ctx: Infrastructure) {}

  /** Called by a holder of phones: work signals raised here reach its phones at once. Returns the origin to skip. */
  holdPhonesLocally(wake: WakePhones): string {
    this.local.add(wake);
    return this.origin;
  }

  releasePhonesLocally(wake: WakePhones): void {
    this.local.delete(wake);
  }

  async signal(messages: { orgId: string; requestedDeviceId: string | null }[]): Promise<void> {
    const wakers = [...this.local];
    const targets = [...groupBy(messages, targetKey, sameTarget).values()].map((group) => ({ orgId: group[0]!.orgId, deviceId: group[0]!.requestedDeviceId, count: group.length }));
    for (const { orgId, deviceId, count } of targets) for (const wake of wakers) wake(orgId, deviceId, count);
    // One pipelined round trip for all of them (the reconciler's batches span organizations).
    await publishDeviceSignals(
      this.ctx.redis,
      this.ctx.keys,
      targets.map(({ orgId, deviceId, count }): WorkSignal => ({ type: 'work', orgId, deviceId, count, origin: wakers.length > 0 ? this.origin : undefined })),
    );
  }
}
