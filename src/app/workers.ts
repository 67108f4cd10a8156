import type { AppContext } from '../context/app-context.js';
import { every } from '../periodic/every.js';
import { RESERVATION_SWEEP_MS, recountSeededCounters, settleStaleReservations } from '../sending/reservations.js';
import { startWebhookWorkers, type WebhookWorkerOptions } from '../webhooks/workers.js';
import { startReceivedSmsWork } from '../incoming/received-sms-work.js';
import { expireQueued, markSilentUnknown, recoverInterruptedClaims } from '../dispatch/sweeps.js';
import { expirePresence } from '../devices/presence.js';
import { withdrawStuckClaims } from '../dispatch/withdraw-jobs.js';
import { foldTallyDeltas } from '../overview/tallies.js';
import { resendMissedFailures } from '../sending/auto-resend/sweep.js';
import { startScheduler } from '../sending/scheduler.js';
import { startPartitionMaintenance } from '../messages/partitions/maintain-partitions.js';
import { noticeShardChanges } from './shard-changes.js';

export interface Workers {
  close(): Promise<void>;
}

/**
 * Background work of a worker process (`hafatra worker`, or inside `hafatra start`). Each domain
 * adds its loops and BullMQ workers here.
 */
export async function startWorkers(ctx: AppContext, opts: { webhooks?: WebhookWorkerOptions } = {}): Promise<Workers> {
  const stoppers: Array<() => Promise<void>> = [];
  const dispatchRecovery = every(ctx.config.reconcileIntervalMs, 'dispatch-recovery', ctx.log, async () => {
    await noticeShardChanges(ctx);
    await ctx.dispatch.rebuildIfLost();
    await ctx.dispatch.reconcileBatches();
  });
  stoppers.push(() => dispatchRecovery.stop());
  await dispatchRecovery.runNow();
  stoppers.push(await startScheduler(ctx));
  // Daily counts of send requests whose process died: refunded unless their batch committed;
  // counters seeded after Redis lost its data: raised by the sends that committed after the seed.
  const reservationRecovery = every(RESERVATION_SWEEP_MS, 'reservation-recovery', ctx.log, async () => {
    await settleStaleReservations(ctx);
    await recountSeededCounters(ctx);
  });
  stoppers.push(() => reservationRecovery.stop());
  stoppers.push((await startWebhookWorkers(ctx, opts.webhooks)).close);
  const lifecycleSweeps = every(ctx.config.sweepIntervalMs, 'lifecycle-sweeps', ctx.log, async () => {
    await expireQueued(ctx);
    await withdrawStuckClaims(ctx);
    await markSilentUnknown(ctx);
    await recoverInterruptedClaims(ctx);
    await resendMissedFailures(ctx);
    await expirePresence(ctx);
    await foldTallyDeltas(ctx.db);
  });
  stoppers.push(() => lifecycleSweeps.stop());
  stoppers.push(startReceivedSmsWork(ctx));
  const partitions = startPartitionMaintenance(ctx);
  stoppers.push(() => partitions.stop());
  return {
    async close() {
      await Promise.allSettled(stoppers.map((s) => s()));
    },
  };
}
