import type { Redis } from 'ioredis';
import type { AppContext } from '../app/context.js';
import { enqueueDeliveries, type DeliveryQueue, type DeliveryToQueue } from './queue.js';

const PAGE = 5000;

/** Present while BullMQ holds every undelivered delivery; gone after Redis lost its data. */
export const queuedMarkerKey = (prefix: string) => `${prefix}:webhooks:queued-from-postgres`;

async function pendingPage(ctx: AppContext, after: string, overdueOnly: boolean): Promise<Array<DeliveryToQueue>> {
  const { rows } = await ctx.db.query(
    `SELECT id, endpoint_id AS "endpointId", next_attempt_at AS "notBefore" FROM webhook_deliveries
     WHERE status IN ('pending', 'retrying') AND id > $1
       AND (NOT $2::boolean OR next_attempt_at < now() - $3 * interval '1 millisecond')
     ORDER BY id LIMIT ${PAGE}`,
    [after, overdueOnly, ctx.config.reconcileGraceMs],
  );
  return rows as DeliveryToQueue[];
}

async function requeue(ctx: AppContext, queue: DeliveryQueue, overdueOnly: boolean): Promise<number> {
  let after = '';
  let total = 0;
  for (;;) {
    const rows = await pendingPage(ctx, after, overdueOnly);
    if (rows.length === 0) return total;
    await enqueueDeliveries(queue, rows);
    total += rows.length;
    after = rows[rows.length - 1]!.id;
  }
}

/**
 * Postgres is the truth; BullMQ only schedules. After Redis lost its data (marker gone) every
 * pending or retrying delivery is queued again at its nextAttemptAt. Otherwise deliveries overdue
 * by more than the grace are offered again, which covers a crash between the relay's commit and
 * its enqueue. Re-adding is safe: the job id is the delivery id (an existing job absorbs it), and
 * a job whose row is already delivered or dead does nothing.
 */
export async function requeueLostDeliveries(ctx: AppContext, queue: DeliveryQueue, redis: Redis): Promise<number> {
  const marker = queuedMarkerKey(ctx.config.redisPrefix);
  const lost = !(await redis.exists(marker));
  const total = await requeue(ctx, queue, !lost);
  if (lost) {
    await redis.set(marker, new Date().toISOString());
    if (total > 0) ctx.log.warn({ total }, 'webhook deliveries queued again from Postgres');
  }
  return total;
}
