import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEndpoint, emitEvents, startWebhookRig, waitFor, type WebhookRig } from './support.js';

let rig: WebhookRig;

// Four deliveries in flight in all, two per endpoint: without the per-endpoint limit, the
// hanging endpoint would hold all four and the fast one would wait for the timeout.
beforeAll(async () => {
  rig = await startWebhookRig({ webhookTimeoutMs: 5000 }, { concurrency: 4, perEndpointConcurrency: 2 });
});
afterAll(() => rig.close());

it('keeps delivering to a fast endpoint while another one hangs', async () => {
  const { app, receiver } = rig;
  receiver.respondWith((r) => (r.path === '/slow' ? { hang: true } : { status: 200 }));
  const { org, key } = await app.createOrg();
  await createEndpoint(app, key, { url: `${receiver.url}slow`, eventTypes: ['message.sent'] });
  await createEndpoint(app, key, { url: `${receiver.url}fast`, eventTypes: ['message.sent'] });
  const started = Date.now();
  await emitEvents(app, org.id, 'message.sent', 30);
  const fast = () => receiver.requests.filter((r) => r.path === '/fast');
  await waitFor('30 fast deliveries', () => fast().length === 30, 4000);
  expect(Date.now() - started).toBeLessThan(3000);
  expect(new Set(fast().map((r) => r.headers['hafatra-event-id'])).size).toBe(30);
  // The hanging endpoint never had more than its two slots.
  expect(receiver.requests.filter((r) => r.path === '/slow').length).toBe(2);
});
