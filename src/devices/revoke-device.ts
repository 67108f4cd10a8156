import type { AppContext } from '../context/app-context.js';
import { inTransaction, type DbClient } from '../db/pool.js';
import { applyTransitions } from '../messages/transitions.js';
import { syncDeviceState } from '../dispatch-queue/device-state.js';
import { getDevice } from './device-view.js';
import type { Device } from './schemas.js';
import { publishDeviceSignals } from '../redis/device-signals.js';
import type { RevokedSignal } from '../redis/device-signal.js';
import { revokeDeviceRow } from './sql/revoke-device-row.js';
import { selectHeldMessageIds } from './sql/select-held-message-ids.js';
import { selectPinnedQueuedIds } from './sql/select-pinned-queued-ids.js';

export const DEFAULT_REVOKE_REASON = 'revoked by API';

/**
 * Ends a phone's access at once. The token check reads `revoked_at` in Postgres, so the very
 * next request is refused on every process; the socket is closed through the device channel.
 * What the phone held can no longer be reported on: claimed and sending messages become
 * `unknown` (the SMS may or may not have left), and messages pinned to it that no phone holds
 * yet fail with `device_revoked` (no other phone may send them). Revoking twice changes
 * nothing and returns the revoked device. Undefined: no such device in the organization.
 */
export async function revokeDevice(ctx: AppContext, orgId: string, deviceId: string, reason = DEFAULT_REVOKE_REASON): Promise<Device | undefined> {
  const outcome = await inTransaction(ctx.db, async (tx) => {
    if (!(await revokeDeviceRow(tx, orgId, deviceId, reason))) return undefined;
    return settleMessages(tx, deviceId);
  });
  if (outcome) {
    ctx.changes.changed(outcome.changed);
    // Counted once committed: a rolled-back revocation changed nothing.
    if (outcome.unknown > 0) ctx.metrics.statusChanges.inc({ status: 'unknown' }, outcome.unknown);
    if (outcome.failed.length > 0) ctx.metrics.statusChanges.inc({ status: 'failed' }, outcome.failed.length);
    await syncDeviceState(ctx, deviceId);
    await ctx.dispatch.remove(
      orgId,
      outcome.failed.map((id) => ({ id, requestedDeviceId: deviceId })),
    );
    // Every API process closes that phone's socket or stream.
    const signal: RevokedSignal = { type: 'revoked', orgId, deviceId };
    await publishDeviceSignals(ctx.redis, ctx.keys, [signal]);
    ctx.log.info({ deviceId, unknown: outcome.unknown, failed: outcome.failed.length }, 'device revoked');
  }
  return getDevice(ctx, orgId, deviceId);
}

/** The messages' changes are told once the revocation commits (`changed`). */
async function settleMessages(tx: DbClient, deviceId: string): Promise<{ unknown: number; failed: string[]; changed: string[] }> {
  const at = new Date();
  const changed: string[] = [];
  const afterCommit = { changed: (ids: readonly string[]) => changed.push(...ids) };
  const held = await selectHeldMessageIds(tx, deviceId);
  const unknown = await applyTransitions(
    tx,
    afterCommit,
    held.map((id) => ({
      id,
      to: 'unknown' as const,
      at,
      source: 'system' as const,
      code: 'device_revoked',
      from: ['claimed', 'sending'] as const,
      heldBy: deviceId,
    })),
  );
  const pinned = await selectPinnedQueuedIds(tx, deviceId);
  const failed = await applyTransitions(
    tx,
    afterCommit,
    pinned.map((id) => ({
      id,
      to: 'failed' as const,
      at,
      source: 'system' as const,
      code: 'device_revoked',
      from: ['queued'] as const,
    })),
  );
  return { unknown: unknown.length, failed: failed.map((m) => m.id), changed };
}
