import type { AppContext } from '../context/app-context.js';
import { every } from '../periodic/every.js';
import { RESERVATION_SWEEP_MS, recountSeededCounters, settleStaleReservations } from '../sending/reservations.js';
import { startWebhookWorkers, type WebhookWorkerOptions } from '../webhooks/workers.js';
import { startReceivedSmsWork } from '../incoming/received-sms-work.js';
import { startScheduler } from '../sending/scheduler.js';
import { startPartitionMaintenance } from '../messages/partitions/maintain-partitions.js';
import { noticeShardChanges } from './shard-changes.js';
import { lifecycleSweeps } from './sweeps.js';

export interface Workers {
  close(): Promise<void>;
}

/**
 * Background work of a worker process (`hafatra worker`, or inside `hafatra start`). Each domain
 * adds its loops and BullMQ workers here.
 */
export async function startWorkers(ctx: AppContext, opts: { webhooks?: WebhookWorkerOptions } = {}): Promise<Workers> {
  const stoppers: Array<() => Promise<void>> = [];
  // In this order: a shard that changed hands is noticed before the queues are checked for loss.
  const dispatchRecovery = every(ctx.config.reconcileIntervalMs, 'dispatch-recovery', ctx, async () => {
    await noticeShardChanges(ctx);
    await ctx.dispatch.rebuildIfLost();
    await ctx.dispatch.reconcileBatches();
  });
  stoppers.push(() => dispatchRecovery.stop());
  await dispatchRecovery.runNow();
  stoppers.push(await startScheduler(ctx));
  // Daily counts of send requests whose process died: refunded unless their batch committed;
  // counters seeded after Redis lost its data: raised by the sends that committed after the seed.
  const reservationRecovery = every(RESERVATION_SWEEP_MS, 'reservation-recovery', ctx, async () => {
    await settleStaleReservations(ctx);
    await recountSeededCounters(ctx);
  });
  stoppers.push(() => reservationRecovery.stop());
  stoppers.push((await startWebhookWorkers(ctx, opts.webhooks)).close);
  for (const [name, sweep] of Object.entries(lifecycleSweeps(ctx))) {
    const job = every(ctx.config.sweepIntervalMs, name, ctx, sweep);
    stoppers.push(() => job.stop());
  }
  stoppers.push(startReceivedSmsWork(ctx));
  const partitions = startPartitionMaintenance(ctx, () => ctx.changes.changedEverything());
  stoppers.push(() => partitions.stop());
  return {
    async close() {
      await Promise.allSettled(stoppers.map((s) => s()));
    },
  };
}
