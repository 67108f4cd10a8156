import type { Db } from '../db/pool.js';
import { inTransaction } from '../db/pool.js';
import { newId } from '../ids/ids.js';
import { errors } from '../errors/errors.js';
import { selectEndpoint } from './sql/select-endpoint.js';
import type { DeliveryToQueue } from './queue.js';
import { insertTestDelivery } from './sql/insert-test-delivery.js';
import { insertTestEvent } from './sql/insert-test-event.js';
import { redeliverDelivery } from './sql/redeliver-delivery.js';

/** Queues deliveries for the workers; should it fail, the recovery pass finds the pending rows. */
export type Enqueue = (deliveries: DeliveryToQueue[]) => Promise<void>;

/** The type of the test event: not one of the subscribable types, sent only when asked. */
export const TEST_EVENT_TYPE = 'webhook.test';

/**
 * POST /v1/webhooks/{id}/test: a test event and its delivery to this endpoint alone, written
 * pending and due now, then queued; from there it is a delivery like any other, with its
 * attempts in the endpoint's log.
 */
export async function sendTestEvent(db: Db, enqueue: Enqueue, orgId: string, endpointId: string): Promise<{ deliveryId: string; eventId: string }> {
  const endpoint = await selectEndpoint(db, orgId, endpointId);
  if (!endpoint) throw errors.notFound('webhook endpoint');
  if (!endpoint.enabled) throw errors.conflict('the endpoint is disabled: enable it first');
  const eventId = newId('event');
  const deliveryId = newId('webhookDelivery');
  const now = new Date();
  const event = {
    eventId,
    deliveryId,
    orgId,
    endpointId,
    type: TEST_EVENT_TYPE,
    payload: JSON.stringify({ id: eventId, event: TEST_EVENT_TYPE, createdAt: now.toISOString(), data: { endpointId, message: 'A test event sent from Hafatra. Nothing happened.' } }),
    createdAt: now,
  };
  await inTransaction(db, async (tx) => {
    await insertTestEvent(tx, event);
    await insertTestDelivery(tx, event);
  });
  await enqueue([{ id: deliveryId, endpointId, notBefore: null }]).catch(() => undefined);
  return { deliveryId, eventId };
}

/**
 * POST /v1/webhooks/{id}/deliveries/{deliveryId}/redeliver: a dead delivery, or one waiting for
 * its next retry, is due again now (pending; its attempt count goes on). One still pending or
 * already delivered is refused (409).
 */
export async function redeliver(db: Db, enqueue: Enqueue, orgId: string, endpointId: string, deliveryId: string): Promise<void> {
  const endpoint = await selectEndpoint(db, orgId, endpointId);
  if (!endpoint) throw errors.notFound('webhook endpoint');
  if (!endpoint.enabled) throw errors.conflict('the endpoint is disabled: enable it first');
  const row = await redeliverDelivery(db, deliveryId, endpointId);
  if (!row) throw errors.notFound('webhook delivery');
  if (row.changed === 0) throw errors.conflict(`the delivery is ${row.status}: only a dead or retrying delivery is sent again`);
  await enqueue([{ id: deliveryId, endpointId, notBefore: null }]).catch(() => undefined);
}
