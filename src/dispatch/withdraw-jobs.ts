import type { AppContext } from '../context/app-context.js';
import { toDispatchEntry } from '../dispatch-queue/entries.js';
import { applyTransitions } from '../messages/transitions.js';
import { selectStuckClaims } from './sql/select-stuck-claims.js';
import { countStatusChanges } from '../infrastructure/metrics.js';
import { publishDeviceSignals } from '../redis/device-signals.js';
import type { WithdrawnSignal } from '../redis/device-signal.js';
import { phoneDoor, requestCancellations } from './cancellations.js';
import { selectWithdrawableJobs } from './sql/select-withdrawable-jobs.js';

/**
 * Why a job left a phone: the timeline code of its `claimed → queued` event. A mobile phone's
 * job leaves only once the phone confirms it cancelled it: `phone_cancelled` when it did so unasked.
 */
export type WithdrawReason = 'claim_timeout' | 'phone_silent' | 'phone_limited' | 'phone_cancelled';

const BATCH = 1000;

/**
 * Takes back jobs a phone claimed and has not acknowledged `sending` for (all of them, or those
 * named). A phone of the mobile API (SMS Gateway for Android) acknowledges nothing before it
 * sends: its jobs are asked back instead (src/dispatch/cancellations.ts) and move once it
 * confirms, through takeBackJobs; nothing is withdrawn now.
 */
export async function withdrawJobs(ctx: AppContext, deviceId: string, ids: string[] | null, reason: WithdrawReason, avoidUntil: number): Promise<string[]> {
  const door = await phoneDoor(ctx, deviceId);
  if (door?.protocol === 'mobile') {
    await requestCancellations(ctx, door, deviceId, ids, reason);
    return [];
  }
  return takeBackJobs(ctx, deviceId, ids, reason, avoidUntil);
}

/**
 * Queues the jobs (all of them, or those named) for another phone, which gets them first: this
 * one may not take them again before `avoidUntil`. Postgres decides, with the same conditional update as a report:
 * a `sending` acknowledged first keeps the job with the phone, and a `sending` arriving after the
 * withdrawal is refused (the phone never hands a job to Android before that acknowledgement, so
 * a withdrawn job is never sent twice). Messages pinned to this phone by the send stay with it.
 * Returns the withdrawn ids.
 */
export async function takeBackJobs(ctx: AppContext, deviceId: string, ids: string[] | null, reason: WithdrawReason | Map<string, string>, avoidUntil: number): Promise<string[]> {
  const held = await selectWithdrawableJobs(ctx.db, deviceId, ids, BATCH);
  if (held.length === 0) return [];
  const orgId = held[0]!.orgId;
  const codeOf = (id: string) => (typeof reason === 'string' ? reason : (reason.get(id) ?? 'phone_cancelled'));
  // Back on the queue without the SIM this phone chose: the next phone chooses its own.
  const entries = held.map((m) => toDispatchEntry({ ...m, simSubscriptionId: null }, { deviceId, until: avoidUntil }));
  const withdrawn = await ctx.dispatch.requeue(orgId, entries, async () => {
    const at = new Date();
    const changed = await applyTransitions(
      ctx.db,
      ctx.changes,
      held.map((m) => ({ id: m.id, to: 'queued' as const, from: ['claimed' as const], at, source: 'system' as const, code: codeOf(m.id), deviceId, heldBy: deviceId })),
    );
    countStatusChanges(ctx.metrics, changed);
    return new Set(changed.map((m) => m.id));
  });
  if (withdrawn.length > 0) {
    const signal: WithdrawnSignal = { type: 'withdrawn', orgId, deviceId, messageIds: withdrawn };
    await publishDeviceSignals(ctx.redis, ctx.keys, [signal]);
    ctx.log.info({ deviceId, reason: typeof reason === 'string' ? reason : 'phone_cancelled', count: withdrawn.length }, 'jobs withdrawn from a phone');
  }
  return withdrawn;
}

/**
 * The sweep: jobs claimed longer than HAFATRA_CLAIM_TIMEOUT_SECONDS without `sending`, and those
 * of phones silent for HAFATRA_SILENT_PHONE_SECONDS, go to other phones. Returns how many.
 */
export async function withdrawStuckClaims(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  const stuck = await selectStuckClaims(ctx.db, new Date(now), ctx.config, BATCH);
  const groups = new Map<string, { deviceId: string; reason: WithdrawReason; ids: string[] }>();
  for (const s of stuck) {
    const key = `${s.deviceId} ${s.reason}`;
    const group = groups.get(key) ?? { deviceId: s.deviceId, reason: s.reason, ids: [] };
    group.ids.push(s.id);
    groups.set(key, group);
  }
  const avoidUntil = now + Math.max(ctx.config.claimTimeoutSeconds, 60) * 1000;
  let withdrawn = 0;
  for (const { deviceId, reason, ids } of groups.values()) withdrawn += (await withdrawJobs(ctx, deviceId, ids, reason, avoidUntil)).length;
  return withdrawn;
}
