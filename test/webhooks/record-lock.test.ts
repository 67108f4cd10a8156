import { afterAll, beforeAll, expect, it } from 'vitest';
import { inHotTransaction } from '../../src/db/pool.js';
import type { DeliveryQueue } from '../../src/webhooks/queue.js';
import { relayAll } from '../../src/webhooks/relay.js';
import { recordAttempts } from '../../src/webhooks/worker/record-attempts.js';
import type { TestApp } from '../support/harness.js';
import { createEndpoint, emitEvents, startAppWithQueue } from './support.js';

let app: TestApp;
let queue: DeliveryQueue;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, queue, close } = await startAppWithQueue('record-lock-test'));
});
afterAll(() => close());

it('records attempts of an endpoint while a relay pass is inserting more of its deliveries (no wait on the endpoint row)', async () => {
  const { org, key } = await app.createOrg();
  const { id: endpointId } = await createEndpoint(app, key, { url: 'https://localhost:9/hook', eventTypes: ['message.sent'] });
  await emitEvents(app, org.id, 'message.sent', 1);
  await relayAll(app.ctx, queue);
  const [delivery] = (await app.ctx.db.query('SELECT id FROM webhook_deliveries WHERE endpoint_id = $1', [endpointId])).rows;

  // A relay pass in progress: its delivery insert holds KEY SHARE on the endpoint row until it commits.
  await emitEvents(app, org.id, 'message.sent', 1);
  const relayTx = await app.ctx.db.connect();
  try {
    await relayTx.query('BEGIN');
    await relayTx.query(
      `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, status, next_attempt_at)
       SELECT 'whd_lock_test', $1, id, type, 'pending', now() FROM events JOIN event_outbox ON event_id = id WHERE org_id = $2`,
      [endpointId, org.id],
    );
    const now = new Date();
    const outcomes = await inHotTransaction(app.ctx.hotDb, async (tx) => {
      await tx.query(`SET LOCAL lock_timeout = '2s'`);
      return recordAttempts(
        tx,
        [{ deliveryId: delivery.id, endpointId, ok: true, statusCode: 200, error: null, responseExcerpt: null, startedAt: now, finishedAt: now, status: 'delivered', nextAttemptAt: null }],
        3600,
      );
    });
    expect(outcomes).toEqual([{ status: 'delivered', nextAttemptAt: null }]);
  } finally {
    await relayTx.query('ROLLBACK');
    relayTx.release();
  }
  const { rows } = await app.ctx.db.query('SELECT d.status, w.last_success_at FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE d.id = $1', [delivery.id]);
  expect(rows[0].status).toBe('delivered');
  expect(rows[0].last_success_at).not.toBeNull();
});
