import type { Queryable } from '../db/pool.js';
import { newIds } from '../ids/ids.js';

export const EVENT_TYPES = [
  'message.queued',
  'message.claimed',
  'message.sending',
  'message.sent',
  'message.delivered',
  'message.failed',
  'message.expired',
  'message.cancelled',
  'message.unknown',
  'incoming.received',
  'mobile_money.detected',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface NewEvent {
  type: EventType;
  /** Built only when some endpoint subscribed to the type: most sends have no webhooks. */
  data: () => unknown;
}

/**
 * The event outbox: called inside the transaction that makes the change, so an event exists if
 * and only if its change committed. Events nobody subscribed to are not written: an endpoint
 * receives only events that happened after it was created, so they could never be delivered.
 */
export async function recordEvents(tx: Queryable, orgId: string, events: NewEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const wanted = await subscribedTypes(tx, orgId);
  return insertEvents(
    tx,
    orgId,
    events.filter((e) => wanted.has(e.type)),
  );
}

/** The event types some enabled endpoint of the organization subscribes to. */
async function subscribedTypes(tx: Queryable, orgId: string): Promise<Set<string>> {
  const { rows } = await tx.query({
    name: 'subscribed-event-types',
    text: 'SELECT DISTINCT unnest(event_types) AS type FROM webhook_endpoints WHERE org_id = $1 AND enabled',
    values: [orgId],
  });
  return new Set(rows.map((r) => r.type as string));
}

/** Writes events already filtered by subscribedTypes. */
async function insertEvents(tx: Queryable, orgId: string, kept: NewEvent[]): Promise<number> {
  if (kept.length === 0) return 0;
  const ids = newIds('event', kept.length);
  const now = new Date();
  await tx.query(
    `INSERT INTO events (id, org_id, type, payload, created_at)
     SELECT id, $2, type, jsonb_build_object('id', id, 'event', type, 'createdAt', $5::text, 'data', data), $4
     FROM unnest($1::text[], $3::text[], $6::jsonb[]) AS t(id, type, data)`,
    [ids, orgId, kept.map((e) => e.type), now, now.toISOString(), kept.map((e) => JSON.stringify(e.data()))],
  );
  return kept.length;
}
