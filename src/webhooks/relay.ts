import type { AppContext } from '../context/app-context.js';
import { inTransaction } from '../db/pool.js';
import { newIds } from '../ids/ids.js';
import { enqueueDeliveries, type DeliveryQueue, type DeliveryToQueue } from './queue.js';
import { takeUndispatchedEvents } from './sql/take-undispatched-events.js';
import { selectSubscribedEndpoints } from './sql/select-subscribed-endpoints.js';
import { insertPendingDeliveries } from './sql/insert-pending-deliveries.js';
import { anyUndispatchedEvent } from './sql/any-undispatched-event.js';

export const RELAY_BATCH = 500;

/**
 * One pass of the outbox relay: takes events out of the outbox, writes one pending delivery per
 * enabled endpoint of the organization subscribed to the type and created no later than the
 * event, commits, then queues the deliveries in bulk. Enqueuing after the commit means a worker
 * never looks for a row that is not visible yet; a crash between commit and enqueue leaves
 * pending rows that the recovery pass queues (src/webhooks/recovery.ts).
 * Returns how many events it took.
 */
export async function relayEvents(ctx: AppContext, queue: DeliveryQueue): Promise<number> {
  const { eventIds, deliveries } = await inTransaction(ctx.db, async (tx) => {
    const eventIds = await takeUndispatchedEvents(tx, RELAY_BATCH);
    if (eventIds.length === 0) return { eventIds, deliveries: [] as DeliveryToQueue[] };
    const pairs = await selectSubscribedEndpoints(tx, eventIds);
    const ids = newIds('webhookDelivery', pairs.length);
    const firstAttemptAt = new Date(Date.now() + (ctx.config.webhookScheduleSeconds[0] ?? 0) * 1000);
    if (pairs.length > 0) {
      await insertPendingDeliveries(
        tx,
        pairs.map((p, i) => ({ id: ids[i]!, endpointId: p.endpointId, eventId: p.eventId, eventType: p.type })),
        firstAttemptAt,
      );
    }
    return { eventIds, deliveries: pairs.map((p, i) => ({ id: ids[i]!, endpointId: p.endpointId, notBefore: firstAttemptAt })) };
  });
  await enqueueDeliveries(queue, deliveries);
  return eventIds.length;
}

/** Drains the outbox: passes until one comes back short of a full batch. */
export async function relayAll(ctx: AppContext, queue: DeliveryQueue): Promise<number> {
  // The relay runs every few tens of milliseconds: an empty outbox costs one index probe, not a transaction.
  if (!(await anyUndispatchedEvent(ctx.db))) return 0;
  let total = 0;
  for (;;) {
    const taken = await relayEvents(ctx, queue);
    total += taken;
    if (taken < RELAY_BATCH) return total;
  }
}
