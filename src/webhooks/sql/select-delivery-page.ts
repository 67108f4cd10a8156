import type { Queryable } from '../../db/pool.js';
import { DELIVERY_COLUMNS, type DeliveryRow } from '../delivery-row.js';

/** One page of an endpoint's delivery log, newest first; fetches limit + 1 rows (see page()). */
export async function selectDeliveryPage(q: Queryable, endpointId: string, before: string | null, limit: number): Promise<DeliveryRow[]> {
  const { rows } = await q.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
     WHERE endpoint_id = $1 AND ($2::text IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
    [endpointId, before, limit + 1],
  );
  return rows;
}
