import type { Queryable } from '../../db/pool.js';
import { iso } from '../../schemas/schema-kit.js';
import type { DeliveryStatus } from '../schemas.js';

/** A webhook event about a message, and where it went. */
export interface MessageWebhookEvent {
  id: string;
  type: string;
  createdAt: string;
  deliveries: Array<{ id: string; endpointId: string; url: string; status: DeliveryStatus; attempts: number; lastStatusCode: number | null; lastAttemptAt: string | null }>;
}

/** A row as the statement returns it: the deliveries' times are JSON text. */
interface MessageEventRow {
  id: string;
  type: string;
  createdAt: Date;
  deliveries: MessageWebhookEvent['deliveries'];
}

/** More events about one message than a page shows means something else is wrong: the newest 50. */
const MAX_EVENTS = 50;

/** Exported for the plan test: the events are read through events_by_message. */
export const MESSAGE_EVENTS_STATEMENT = `WITH found AS (
       SELECT id, type, created_at FROM events
        WHERE org_id = $1 AND type LIKE 'message.%' AND payload -> 'data' ->> 'id' = $2
        ORDER BY id DESC LIMIT $3)
     SELECT f.id, f.type, f.created_at AS "createdAt",
       COALESCE(json_agg(json_build_object('id', d.id, 'endpointId', d.endpoint_id, 'url', w.url, 'status', d.status, 'attempts', d.attempts,
         'lastStatusCode', d.last_status_code, 'lastAttemptAt', d.last_attempt_at) ORDER BY d.id) FILTER (WHERE d.id IS NOT NULL), '[]') AS deliveries
     FROM found f
     LEFT JOIN webhook_endpoints w ON w.org_id = $1
     LEFT JOIN webhook_deliveries d ON d.endpoint_id = w.id AND d.event_id = f.id
     GROUP BY f.id, f.type, f.created_at ORDER BY f.id`;

/**
 * The webhook events about one of the organization's messages, oldest first, each with its
 * deliveries: found by the message id their payload carries (index events_by_message, migration
 * 037), the deliveries by the organization's endpoints and the event ids (their unique index).
 */
export async function selectMessageWebhookEvents(q: Queryable, orgId: string, messageId: string): Promise<MessageWebhookEvent[]> {
  const { rows } = await q.query<MessageEventRow>(MESSAGE_EVENTS_STATEMENT, [orgId, messageId, MAX_EVENTS]);
  return rows.map((r) => ({
    id: r.id,
    type: r.type,
    createdAt: r.createdAt.toISOString(),
    deliveries: r.deliveries.map((d) => ({ ...d, lastAttemptAt: iso(d.lastAttemptAt ? new Date(d.lastAttemptAt) : null) })),
  }));
}
