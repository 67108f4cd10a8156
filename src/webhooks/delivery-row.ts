import type { Queryable } from '../db/pool.js';
import { iso } from '../schemas/schema-kit.js';
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

/** One attempt as the worker logged it (attempt_log, migration 036). */
export interface LoggedAttempt {
  number: number;
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  responseExcerpt: string | null;
  error: string | null;
}

/** The log's attempts, newest first, with their times as the API writes them. */
export function toAttempts(log: LoggedAttempt[]): LoggedAttempt[] {
  return [...log].reverse().map((a) => ({ ...a, startedAt: new Date(a.startedAt).toISOString() }));
}

/**
 * One delivery of an organization's endpoint with the body it sends (the event's payload, as the
 * worker sends it): undefined for another organization's, or none.
 */
export async function selectDeliveryWithBody(
  q: Queryable,
  orgId: string,
  endpointId: string,
  deliveryId: string,
): Promise<(DeliveryRow & { url: string; body: string; attemptLog: LoggedAttempt[] }) | undefined> {
  const { rows } = await q.query(
    `SELECT d.id, d.endpoint_id AS "endpointId", d.event_id AS "eventId", d.event_type AS "eventType", d.status, d.attempts,
            d.last_status_code AS "lastStatusCode", d.last_error AS "lastError", d.last_attempt_at AS "lastAttemptAt",
            d.next_attempt_at AS "nextAttemptAt", d.delivered_at AS "deliveredAt", d.created_at AS "createdAt", w.url, e.payload::text AS body,
            d.attempt_log AS "attemptLog"
       FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN events e ON e.id = d.event_id
      WHERE d.id = $3 AND d.endpoint_id = $2 AND w.org_id = $1`,
    [orgId, endpointId, deliveryId],
  );
  return rows[0] as (DeliveryRow & { url: string; body: string; attemptLog: LoggedAttempt[] }) | undefined;
}
