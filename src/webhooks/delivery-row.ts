import type { Queryable } from '../db/pool.js';
import { iso } from '../http/schema-kit.js';
import type { DeliveryStatus, WebhookDelivery } from './schemas.js';

export interface DeliveryRow {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

const DELIVERY_COLUMNS = `id, endpoint_id AS "endpointId", event_id AS "eventId", event_type AS "eventType", status, attempts,
  last_status_code AS "lastStatusCode", last_error AS "lastError", last_attempt_at AS "lastAttemptAt",
  next_attempt_at AS "nextAttemptAt", delivered_at AS "deliveredAt", created_at AS "createdAt"`;

export function toDelivery(r: DeliveryRow): WebhookDelivery {
  return {
    id: r.id,
    endpointId: r.endpointId,
    eventId: r.eventId,
    eventType: r.eventType,
    status: r.status,
    attempts: r.attempts,
    lastStatusCode: r.lastStatusCode,
    lastError: r.lastError,
    lastAttemptAt: iso(r.lastAttemptAt),
    nextAttemptAt: iso(r.nextAttemptAt),
    deliveredAt: iso(r.deliveredAt),
    createdAt: r.createdAt.toISOString(),
  };
}

/** One page of an endpoint's delivery log, newest first; fetches limit + 1 rows (see page()). */
export async function selectDeliveryPage(q: Queryable, endpointId: string, before: string | null, limit: number): Promise<DeliveryRow[]> {
  const { rows } = await q.query(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
     WHERE endpoint_id = $1 AND ($2::text IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
    [endpointId, before, limit + 1],
  );
  return rows as DeliveryRow[];
}
