import type { Db } from '../db/pool.js';
import { inTransaction } from '../db/pool.js';
import { newId } from '../ids/ids.js';
import { errors } from '../errors/errors.js';
import { selectEndpoint } from './endpoint-store.js';
import type { DeliveryToQueue } from './queue.js';

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
  await inTransaction(db, async (tx) => {
    await tx.query(`INSERT INTO events (id, org_id, type, payload, created_at, dispatched_at) VALUES ($1, $2, $3, $4, $5, $5)`, [
      eventId,
      orgId,
      TEST_EVENT_TYPE,
      JSON.stringify({ id: eventId, event: TEST_EVENT_TYPE, createdAt: now.toISOString(), data: { endpointId, message: 'A test event sent from Hafatra. Nothing happened.' } }),
      now,
    ]);
    await tx.query(`INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, status, next_attempt_at) VALUES ($1, $2, $3, $4, 'pending', $5)`, [
      deliveryId,
      endpointId,
      eventId,
      TEST_EVENT_TYPE,
      now,
    ]);
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
  const { rows } = await db.query(
    `WITH target AS (SELECT id, status FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2),
     changed AS (
       UPDATE webhook_deliveries d SET status = 'pending', next_attempt_at = now(), leased_until = NULL
         FROM target WHERE d.id = target.id AND target.status IN ('dead', 'retrying') RETURNING d.id)
     SELECT target.status, (SELECT count(*) FROM changed)::int AS changed FROM target`,
    [deliveryId, endpointId],
  );
  const row = rows[0] as { status: string; changed: number } | undefined;
  if (!row) throw errors.notFound('webhook delivery');
  if (row.changed === 0) throw errors.conflict(`the delivery is ${row.status}: only a dead or retrying delivery is sent again`);
  await enqueue([{ id: deliveryId, endpointId, notBefore: null }]).catch(() => undefined);
}
