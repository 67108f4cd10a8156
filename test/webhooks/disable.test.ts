import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEndpoint, deliveries, emitEvents, startWebhookRig, waitFor, waitForNoJobOf, type WebhookRig } from './support.js';

let rig: WebhookRig;

// Failing for 1 s without a success disables an endpoint; five attempts a second apart.
beforeAll(async () => {
  rig = await startWebhookRig({ webhookDisableAfterSeconds: 1, webhookScheduleSeconds: [0, 1, 1, 1, 1] });
});
afterAll(() => rig.close());

it('disables an endpoint failing for the whole period, stops its deliveries, and PATCH re-enables it', async () => {
  const { app, receiver } = rig;
  receiver.respondWith(() => ({ status: 500 }));
  const { org, key } = await app.createOrg();
  const { id } = await createEndpoint(app, key, { url: receiver.url, eventTypes: ['message.sent'] });
  await emitEvents(app, org.id, 'message.sent', 2);
  const disabled = await waitFor('the endpoint disabled', async () => {
    const e = (await app.request('GET', `/v1/webhooks/${id}`, { key })).body;
    return !e.enabled && e;
  });
  expect(disabled).toMatchObject({ enabled: false, disabledReason: 'failing', lastSuccessAt: null });
  expect(disabled.disabledAt).not.toBeNull();
  expect(disabled.consecutiveFailures).toBeGreaterThanOrEqual(3);
  const log = await deliveries(app, key, id);
  expect(log.map((d) => d.status)).toEqual(['dead', 'dead']);
  for (const d of log) expect(d.attempts).toBeLessThan(5);
  const sent = receiver.requests.length;
  await waitForNoJobOf(app, id);
  expect(receiver.requests.length).toBe(sent);
  // Events while disabled are not delivered, not even later.
  expect(await emitEvents(app, org.id, 'message.sent', 1)).toBe(0);

  receiver.respondWith(() => ({ status: 200 }));
  const enabled = await app.request('PATCH', `/v1/webhooks/${id}`, { key, body: { enabled: true } });
  expect(enabled.body).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null, consecutiveFailures: 0 });
  await emitEvents(app, org.id, 'message.sent', 1, () => ({ id: 'msg_again', status: 'sent' }));
  await waitFor('a delivery after re-enabling', async () => (await deliveries(app, key, id))[0]?.status === 'delivered');
  expect(JSON.parse(receiver.requests.at(-1)!.rawBody.toString()).data.id).toBe('msg_again');
  expect((await app.request('GET', `/v1/webhooks/${id}`, { key })).body.lastSuccessAt).not.toBeNull();
});
