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

export const DELIVERY_COLUMNS = `id, endpoint_id AS "endpointId", event_id AS "eventId", event_type AS "eventType", status, attempts,
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
