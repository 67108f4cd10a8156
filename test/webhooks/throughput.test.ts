import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEndpoint, emitEvents, startWebhookRig, waitFor, type WebhookRig } from './support.js';

let rig: WebhookRig;

beforeAll(async () => {
  rig = await startWebhookRig({ pgPoolSize: 20 });
});
afterAll(() => rig.close());

// A burst through the whole path (outbox → relay → BullMQ → HTTPS → batched writes) to one
// receiver in this same process. It checks that a single busy endpoint is neither starved by its
// own slot limit nor delivered twice; the rate it prints is a floor (receiver, API and worker
// share one event loop here), not the worker's capacity.
it('delivers a burst of 3,000 events to one endpoint, each once', async () => {
  const { app, receiver } = rig;
  const { org, key } = await app.createOrg();
  await createEndpoint(app, key, { url: receiver.url, eventTypes: ['message.sent'] });
  const total = 3000;
  for (let i = 0; i < total; i += 500) await emitEvents(app, org.id, 'message.sent', 500);
  const started = Date.now();
  await rig.workers.relayNow();
  await waitFor(
    'every delivery recorded',
    async () => {
      const { rows } = await app.ctx.db.query(
        `SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
       WHERE w.org_id = $1 AND d.status = 'delivered'`,
        [org.id],
      );
      return rows[0].n === total;
    },
    100_000,
  );
  const perSecond = Math.round(total / ((Date.now() - started) / 1000));
  console.log(`webhook deliveries: ${perSecond}/s`);
  expect(receiver.requests).toHaveLength(total);
  expect(new Set(receiver.requests.map((r) => r.headers['hafatra-event-id'])).size).toBe(total);
  expect(perSecond).toBeGreaterThan(50);
}, 120_000);
