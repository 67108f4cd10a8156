import type { AppContext } from '../context/app-context.js';
import { every, type Periodic } from '../periodic/every.js';
import { deleteExpiredParts } from './sql/delete-expired-parts.js';
import { purgeExpiredBodyBatch } from './sql/purge-expired-body-batch.js';

const BATCH = 1000;

/**
 * Removes bodies whose organization retention period ended, in batches so one sweep never holds
 * a long lock. SKIP LOCKED lets several workers sweep at once without waiting on each other.
 */
export async function purgeExpiredBodies(ctx: AppContext, batch = BATCH): Promise<number> {
  let purged = 0;
  for (;;) {
    const count = await purgeExpiredBodyBatch(ctx.db, batch);
    purged += count;
    if (count < batch) break;
  }
  // Parts whose siblings never arrived hold bodies too; they go with the same period.
  await deleteExpiredParts(ctx.db);
  return purged;
}

/** The retention sweep of a worker process, every HAFATRA_SWEEP_INTERVAL_MS. */
export function startRetentionSweep(ctx: AppContext): Periodic {
  return every(ctx.config.sweepIntervalMs, 'incoming-retention', ctx, () => purgeExpiredBodies(ctx));
}
