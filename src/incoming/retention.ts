import type { AppContext } from '../context/app-context.js';
import { every, type Periodic } from '../periodic/every.js';

const BATCH = 1000;

/**
 * Removes bodies whose organization retention period ended, in batches so one sweep never holds
 * a long lock. SKIP LOCKED lets several workers sweep at once without waiting on each other.
 */
export async function purgeExpiredBodies(ctx: AppContext, batch = BATCH): Promise<number> {
  let purged = 0;
  for (;;) {
    const { rowCount } = await ctx.db.query(
      `UPDATE incoming_messages SET body = NULL, body_purged_at = now()
       WHERE id IN (SELECT id FROM incoming_messages WHERE retention_expires_at <= now() AND body_purged_at IS NULL
                    ORDER BY retention_expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)`,
      [batch],
    );
    purged += rowCount ?? 0;
    if ((rowCount ?? 0) < batch) break;
  }
  // Parts whose siblings never arrived hold bodies too; they go with the same period.
  await ctx.db.query(
    `DELETE FROM incoming_parts p USING devices d, organizations o
     WHERE d.id = p.device_id AND o.id = d.org_id AND p.created_at + make_interval(days => o.retention_days) <= now()`,
  );
  return purged;
}

/** The retention sweep of a worker process, every HAFATRA_SWEEP_INTERVAL_MS. */
export function startRetentionSweep(ctx: AppContext): Periodic {
  return every(ctx.config.sweepIntervalMs, 'incoming-retention', ctx, () => purgeExpiredBodies(ctx));
}
