import type { Queryable } from '../../db/pool.js';
import type { TestEventToInsert } from './insert-test-event.js';

/** Its delivery to the endpoint, pending and due at once. */
export async function insertTestDelivery(q: Queryable, e: TestEventToInsert): Promise<void> {
  await q.query(`INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, status, next_attempt_at) VALUES ($1, $2, $3, $4, 'pending', $5)`, [
    e.deliveryId,
    e.endpointId,
    e.eventId,
    e.type,
    e.createdAt,
  ]);
}
