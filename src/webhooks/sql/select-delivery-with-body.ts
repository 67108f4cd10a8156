import type { Queryable } from '../../db/pool.js';
import type { DeliveryRow, LoggedAttempt } from '../delivery-row.js';

export interface DeliveryWithBody extends DeliveryRow {
  url: string;
  body: string;
  attemptLog: LoggedAttempt[];
}

/**
 * One delivery of an organization's endpoint with the body it sends (the event's payload, as the
 * worker sends it): undefined for another organization's, or none.
 */
export async function selectDeliveryWithBody(q: Queryable, orgId: string, endpointId: string, deliveryId: string): Promise<DeliveryWithBody | undefined> {
  const { rows } = await q.query<DeliveryWithBody>(
    `SELECT d.id, d.endpoint_id AS "endpointId", d.event_id AS "eventId", d.event_type AS "eventType", d.status, d.attempts,
            d.last_status_code AS "lastStatusCode", d.last_error AS "lastError", d.last_attempt_at AS "lastAttemptAt",
            d.next_attempt_at AS "nextAttemptAt", d.delivered_at AS "deliveredAt", d.created_at AS "createdAt", w.url, e.payload::text AS body,
            d.attempt_log AS "attemptLog"
       FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN events e ON e.id = d.event_id
      WHERE d.id = $3 AND d.endpoint_id = $2 AND w.org_id = $1`,
    [orgId, endpointId, deliveryId],
  );
  return rows[0];
}
