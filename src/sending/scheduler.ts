import type { AppContext } from '../context/app-context.js';
import { every } from '../periodic/every.js';
import { moveDueBatches, SCHEDULE_TIMING } from './move-due.js';
import { rebuildScheduleIfLost, scheduleOverdue } from '../scheduling/rebuild.js';

/**
 * The worker's scheduler: every second, the Redis schedule rebuilt if Redis lost it (one EXISTS
 * when it did not), then every due batch queued; at the reconcile interval, the backstop for
 * batches the schedule lost without losing its marker. Returns its stopper.
 */
export async function startScheduler(ctx: AppContext): Promise<() => Promise<void>> {
  const mover = every(SCHEDULE_TIMING.tickMs, 'scheduled-sends', ctx, async () => {
    await rebuildScheduleIfLost(ctx);
    await moveDueBatches(ctx);
  });
  const backstop = every(ctx.config.reconcileIntervalMs, 'scheduled-sends-backstop', ctx, () => scheduleOverdue(ctx));
  await mover.runNow();
  return async () => {
    await Promise.all([mover.stop(), backstop.stop()]);
  };
}
