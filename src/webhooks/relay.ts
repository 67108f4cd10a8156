import type { AppContext } from '../context/app-context.js';
import { inTransaction } from '../db/pool.js';
import { newIds } from '../ids/ids.js';
import { enqueueDeliveries, type DeliveryQueue, type DeliveryToQueue } from './queue.js';

export const RELAY_BATCH = 500;

/**
 * One pass of the outbox relay: takes undispatched events, writes one pending delivery per
 * enabled endpoint of the organization subscribed to the type and created no later than the
 * event, marks the events dispatched, commits, then queues the deliveries in bulk. Enqueuing
 * after the commit means a worker never looks for a row that is not visible yet; a crash between
 * commit and enqueue leaves pending rows that the recovery pass queues (src/webhooks/recovery.ts).
 * Returns how many events it took.
 */
export async function relayEvents(ctx: AppContext, queue: DeliveryQueue): Promise<number> {
  const { events, deliveries } = await inTransaction(ctx.db, async (tx) => {
    const { rows: events } = await tx.query(
      `SELECT id FROM events WHERE dispatched_at IS NULL ORDER BY id LIMIT ${RELAY_BATCH} FOR UPDATE SKIP LOCKED`,
    );
    if (events.length === 0) return { events, deliveries: [] as DeliveryToQueue[] };
    const eventIds = events.map((e) => e.id as string);
    const { rows: pairs } = await tx.query(
      `SELECT e.id AS "eventId", e.type, w.id AS "endpointId"
       FROM events e JOIN webhook_endpoints w
         ON w.org_id = e.org_id AND w.enabled AND e.type = ANY(w.event_types) AND w.created_at <= e.created_at
       WHERE e.id = ANY($1::text[]) ORDER BY e.id, w.id`,
      [eventIds],
    );
    const ids = newIds('webhookDelivery', pairs.length);
    const firstAttemptAt = new Date(Date.now() + (ctx.config.webhookScheduleSeconds[0] ?? 0) * 1000);
    if (pairs.length > 0) {
      await tx.query(
        `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, status, next_attempt_at)
         SELECT id, endpoint_id, event_id, event_type, 'pending', $5::timestamptz
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(id, endpoint_id, event_id, event_type)
         ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
        [ids, pairs.map((p) => p.endpointId), pairs.map((p) => p.eventId), pairs.map((p) => p.type), firstAttemptAt],
      );
    }
    await tx.query('UPDATE events SET dispatched_at = now() WHERE id = ANY($1::text[])', [eventIds]);
    return { events, deliveries: pairs.map((p, i) => ({ id: ids[i]!, endpointId: p.endpointId as string, notBefore: firstAttemptAt })) };
  });
  await enqueueDeliveries(queue, deliveries);
  return events.length;
}

/** Drains the outbox: passes until one comes back short of a full batch. */
export async function relayAll(ctx: AppContext, queue: DeliveryQueue): Promise<number> {
  // The relay runs every few tens of milliseconds: an empty outbox costs one index probe, not a transaction.
  const { rows } = await ctx.db.query('SELECT 1 FROM events WHERE dispatched_at IS NULL LIMIT 1');
  if (rows.length === 0) return 0;
  let total = 0;
  for (;;) {
    const taken = await relayEvents(ctx, queue);
    total += taken;
    if (taken < RELAY_BATCH) return total;
  }
}
