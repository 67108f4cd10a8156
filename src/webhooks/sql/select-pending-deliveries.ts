import type { Queryable } from '../../db/pool.js';
import type { DeliveryToQueue } from '../queue.js';

/** Deliveries the recovery pass reads in one page. */
export const PENDING_DELIVERIES_PAGE = 5000;

/**
 * One page of pending or retrying deliveries after `after` (by id), each with when it is due;
 * with overdueOnly, only those overdue by more than graceMs.
 */
export async function selectPendingDeliveries(q: Queryable, after: string, overdueOnly: boolean, graceMs: number): Promise<DeliveryToQueue[]> {
  const { rows } = await q.query<DeliveryToQueue>(
    `SELECT id, endpoint_id AS "endpointId", GREATEST(next_attempt_at, leased_until) AS "notBefore" FROM webhook_deliveries
     WHERE status IN ('pending', 'retrying') AND id > $1
       AND (NOT $2::boolean OR GREATEST(next_attempt_at, leased_until) < now() - $3 * interval '1 millisecond')
     ORDER BY id LIMIT ${PENDING_DELIVERIES_PAGE}`,
    [after, overdueOnly, graceMs],
  );
  return rows;
}
