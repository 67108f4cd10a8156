import type { AppContext } from '../app/context.js';
import { inTransaction } from '../db/pool.js';
import { TickBatcher } from '../batching/tick-batcher.js';
import { applyTransitionsLean, type Transition } from '../messages/transitions.js';

export interface ClaimWrite {
  deviceId: string;
  picked: { id: string; sim: number }[];
}

/** The ids Postgres let this phone have, or null when the phone is revoked. */
export type ClaimWritten = Set<string> | null;

/**
 * Records claims in Postgres: queued → claimed, conditional, so a message cancelled or expired
 * since Redis picked it is dropped. The claims of every phone served in one event-loop turn (a
 * work signal wakes all phones of an organization at once) share one transaction. Each phone's
 * row is locked FOR SHARE, which orders a claim with a revocation: a phone revoked a moment ago
 * (before its Redis state said so) gets nothing.
 */
export function claimWriter(ctx: AppContext): TickBatcher<ClaimWrite, ClaimWritten> {
  return new TickBatcher((writes) => writeClaims(ctx, writes), 64);
}

async function writeClaims(ctx: AppContext, writes: ClaimWrite[]): Promise<ClaimWritten[]> {
  const deviceIds = [...new Set(writes.map((w) => w.deviceId))];
  const at = new Date();
  return inTransaction(ctx.db, async (tx) => {
    const { rows } = await tx.query(
      'SELECT id FROM devices WHERE id = ANY($1::text[]) AND revoked_at IS NULL ORDER BY id FOR SHARE',
      [deviceIds],
    );
    const live = new Set(rows.map((r) => r.id as string));
    const transitions: Transition[] = writes
      .filter((w) => live.has(w.deviceId))
      .flatMap((w) => w.picked.map((p) => ({
        id: p.id, to: 'claimed' as const, at, source: 'device' as const, deviceId: w.deviceId, simSubscriptionId: p.sim >= 0 ? p.sim : null,
      })));
    const changed = await applyTransitionsLean(tx, transitions);
    const heldBy = new Map(changed.map((m) => [m.id, m.deviceId]));
    return writes.map((w) => (live.has(w.deviceId) ? new Set(w.picked.filter((p) => heldBy.get(p.id) === w.deviceId).map((p) => p.id)) : null));
  });
}
