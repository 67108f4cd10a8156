import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { scheduleBatches, type ScheduledBatch } from './schedule.js';
import { selectWaitingBatches } from './sql/select-waiting-batches.js';

const PAGE = 1_000;
/** An accepted batch this long past its sendAt is missing from the Redis schedule (see scheduleOverdue). */
export const OVERDUE_MS = 60_000;

/**
 * After Redis lost its data, the schedule is rebuilt from the accepted messages in Postgres, one
 * member per batch. The marker says the schedule is whole; its absence triggers the rebuild. A
 * batch moved while the rebuild reads may be added again: its next move finds nothing to move.
 */
export async function rebuildScheduleIfLost(ctx: Infrastructure): Promise<number> {
  const marker = ctx.keys.scheduleBuilt();
  if (await ctx.redis.exists(marker)) return 0;
  let after: ScheduledBatch | null = null;
  let total = 0;
  for (;;) {
    const page = await selectWaitingBatches(ctx.db, { after, dueBefore: null, limit: PAGE });
    await scheduleBatches(ctx, page);
    total += page.length;
    if (page.length < PAGE) break;
    after = page[page.length - 1]!;
  }
  await ctx.redis.set(marker, new Date().toISOString());
  if (total > 0) ctx.log.warn({ batches: total }, 'schedule rebuilt from Postgres');
  return total;
}

/**
 * The backstop: accepted batches more than OVERDUE_MS past their sendAt go on the schedule
 * again. The schedule lost them without losing its marker (a Redis failover that dropped the
 * last writes, a flush in the middle of a rebuild). One range of an index of waiting messages,
 * normally empty: not a scan of Postgres per tick.
 */
export async function scheduleOverdue(ctx: Infrastructure): Promise<number> {
  const batches = await selectWaitingBatches(ctx.db, { after: null, dueBefore: new Date(ctx.clock.now() - OVERDUE_MS), limit: PAGE });
  await scheduleBatches(ctx, batches);
  if (batches.length > 0) ctx.log.warn({ batches: batches.length }, 'overdue scheduled batches put on the schedule again');
  return batches.length;
}
