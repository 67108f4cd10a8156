import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { TickBatcher } from '../batching/tick-batcher.js';
import { applyTransitionsLean, type Transition } from '../messages/transitions.js';
import { countStatusChanges } from '../infrastructure/metrics.js';
import type { SimChoice } from '../redis/scripts/claim-jobs.js';
import { selectLiveDevices } from './sql/select-live-devices.js';
import type { ChangeSink } from '../messages/detail-cache/message-changes.js';

export interface ClaimWrite {
  deviceId: string;
  /** why: the claim event's code, so the message's timeline tells why this SIM. */
  picked: { id: string; sim: number; why: SimChoice }[];
}

/** The ids Postgres let this phone have, or null when the phone is revoked. */
export type ClaimWritten = Set<string> | null;

/**
 * Records claims in Postgres: queued → claimed, conditional, so a message cancelled or expired
 * since Redis picked it is dropped. The claims of every phone served in one event-loop turn (a
 * work signal wakes all phones of an organization at once) share one statement, which locks each
 * phone's row FOR SHARE first: that orders a claim with a revocation, and a phone revoked a
 * moment ago (before its Redis state said so) gets nothing.
 */
export type ClaimWriter = TickBatcher<ClaimWrite, ClaimWritten>;

export function claimWriter(ctx: Infrastructure, changes: ChangeSink): ClaimWriter {
  return new TickBatcher((writes) => writeClaims(ctx, changes, writes), 64);
}

async function writeClaims(ctx: Infrastructure, changes: ChangeSink, writes: ClaimWrite[]): Promise<ClaimWritten[]> {
  const at = new Date();
  const transitions: Transition[] = writes.flatMap((w) =>
    w.picked.map((p) => ({
      id: p.id,
      to: 'claimed' as const,
      at,
      source: 'device' as const,
      code: p.why,
      deviceId: w.deviceId,
      simSubscriptionId: p.sim >= 0 ? p.sim : null,
    })),
  );
  ctx.metrics.claimBatchSize.observe(transitions.length);
  const changed = await applyTransitionsLean(ctx.hotDb, changes, transitions, { liveDevicesOnly: true });
  countStatusChanges(ctx.metrics, changed);
  const heldBy = new Map(changed.map((m) => [m.id, m.deviceId]));
  const won = writes.map((w) => new Set(w.picked.filter((p) => heldBy.get(p.id) === w.deviceId).map((p) => p.id)));
  // A phone that got nothing is either revoked or lost every message to a cancel or expiry.
  const emptyHanded = [...new Set(writes.filter((_, i) => won[i]!.size === 0).map((w) => w.deviceId))];
  const live = emptyHanded.length === 0 ? null : await liveAmong(ctx, emptyHanded);
  return writes.map((w, i) => (won[i]!.size === 0 && !live!.has(w.deviceId) ? null : won[i]!));
}

function liveAmong(ctx: Infrastructure, deviceIds: string[]): Promise<Set<string>> {
  return selectLiveDevices(ctx.db, deviceIds);
}
