import type { Queryable } from '../../db/pool.js';

/**
 * Ends the deliveries of endpoints that no longer take them (disabled). Their jobs may still sit
 * in BullMQ; a job whose row is no longer pending or retrying does nothing.
 */
export async function stopPendingDeliveries(q: Queryable, endpointIds: string[], reason: string): Promise<number> {
  if (endpointIds.length === 0) return 0;
  const { rowCount } = await q.query(
    `UPDATE webhook_deliveries SET status = 'dead', last_error = $2, next_attempt_at = NULL
     WHERE endpoint_id = ANY($1::text[]) AND status IN ('pending', 'retrying')`,
    [endpointIds, reason],
  );
  return rowCount ?? 0;
}
