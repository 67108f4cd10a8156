import type { Redis } from '../redis/client.js';
import type { AppContext } from '../context/app-context.js';
import { PENDING_DELIVERIES_PAGE, selectPendingDeliveries } from './sql/select-pending-deliveries.js';
import { addDeliveryJobs, groupIntoJobs, type DeliveryQueue, type DeliveryToQueue } from './queue.js';

const PAGE = PENDING_DELIVERIES_PAGE;
/** An overdue delivery offered again is not offered again by this process for this long. */
const REOFFER_AFTER_MS = 60_000;

function pendingPage(ctx: AppContext, after: string, overdueOnly: boolean): Promise<DeliveryToQueue[]> {
  return selectPendingDeliveries(ctx.db, after, overdueOnly, ctx.config.reconcileGraceMs);
}

async function eachPendingPage(ctx: AppContext, use: (rows: DeliveryToQueue[]) => Promise<void>): Promise<number> {
  let after = '';
  let total = 0;
  for (;;) {
    const rows = await pendingPage(ctx, after, false);
    if (rows.length === 0) return total;
    await use(rows);
    total += rows.length;
    after = rows[rows.length - 1]!.id;
  }
}

/**
 * Postgres is the truth; BullMQ only schedules. After Redis lost its data (marker gone) every
 * pending or retrying delivery is queued again at its nextAttemptAt. Otherwise deliveries overdue
 * by more than the grace are offered again: that covers a crash between the relay's commit and
 * its enqueue, and a worker that died holding a claim. A delivery overdue only because its
 * endpoint has a backlog still has its job; offering it again is safe (a delivery is claimed
 * once) and kept cheap: one page of overdue deliveries per pass (the next pass goes on from
 * there), each offered at most once a minute per process, in named jobs that BullMQ adds once.
 */
export function deliveryRecovery(ctx: AppContext, queue: DeliveryQueue, redis: Redis): () => Promise<number> {
  const offeredAt = new Map<string, number>();
  let overdueAfter = '';
  async function offerOverdue(): Promise<number> {
    const now = Date.now();
    for (const [id, at] of offeredAt) if (now - at > REOFFER_AFTER_MS) offeredAt.delete(id);
    const rows = await pendingPage(ctx, overdueAfter, true);
    overdueAfter = rows.length === PAGE ? rows[rows.length - 1]!.id : '';
    const fresh = rows.filter((r) => !offeredAt.has(r.id));
    for (const r of fresh) offeredAt.set(r.id, now);
    await addDeliveryJobs(queue, groupIntoJobs(fresh, { named: true }));
    return fresh.length;
  }
  return async () => {
    const marker = ctx.keys.webhooksQueued();
    if (await redis.exists(marker)) return offerOverdue();
    const total = await eachPendingPage(ctx, (rows) => addDeliveryJobs(queue, groupIntoJobs(rows)));
    await redis.set(marker, new Date().toISOString());
    if (total > 0) ctx.log.warn({ total }, 'webhook deliveries queued again from Postgres');
    return total;
  };
}
