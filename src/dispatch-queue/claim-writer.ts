import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { TickBatcher } from '../batching/tick-batcher.js';
import { applyTransitionsLean, type Transition } from '../messages/transitions.js';
import { countStatusChanges } from '../infrastructure/metrics.js';
import type { SimChoice } from '../redis/scripts/claim-jobs.js';
import { selectLiveDevices } from './sql/select-live-devices.js';
import type { ChangeSink } from '../messages/detail-cache/message-changes.js';
import { confirmClaims } from '../redis/scripts/confirm-claims.js';
import { groupBy } from '../batching/group-by.js';

export interface ClaimWrite {
  orgId: string;
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
 * moment ago (before its Redis state said so) gets nothing. Then the claiming sets hear what
 * Postgres decided, one script call per organization for the turn's claims.
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
  const results = writes.map((w, i) => (won[i]!.size === 0 && !live!.has(w.deviceId) ? null : won[i]!));
  confirmTogether(
    ctx,
    writes.filter((_, i) => results[i] !== null),
  );
  return results;
}

/**
 * Postgres has decided these claims (won or lost alike); the claiming sets only need to hear it,
 * and the phones need not wait for that: should a confirmation be lost, the claiming-set sweep
 * finds the messages no longer queued in Postgres and drops them. A revoked phone's claims are
 * not confirmed: its caller puts them back on the queues.
 */
function confirmTogether(ctx: Infrastructure, writes: ClaimWrite[]): void {
  for (const [orgId, group] of groupBy(writes, (w) => w.orgId)) {
    const k = ctx.keys.org(orgId);
    confirmClaims(ctx.redis, { claiming: k.claiming(), queueMeta: k.queueMeta() }, { messageIds: group.flatMap((w) => w.picked.map((p) => p.id)) }).catch((err: unknown) =>
      ctx.log.warn({ err, orgId }, 'claim confirmation deferred to the sweep'),
    );
  }
}

function liveAmong(ctx: Infrastructure, deviceIds: string[]): Promise<Set<string>> {
  return selectLiveDevices(ctx.db, deviceIds);
}
