import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEndpoint, deliveries, emitEvents, startWebhookRig, waitFor, type WebhookRig } from './support.js';

let rig: WebhookRig;
let orgId: string;
let key: string;

beforeAll(async () => {
  // Short schedule and grace: a dead delivery in two attempts, due deliveries taken at once.
  rig = await startWebhookRig({ webhookScheduleSeconds: [0, 1], reconcileGraceMs: 0 });
  ({
    org: { id: orgId },
    key,
  } = await rig.app.createOrg());
});
afterAll(() => rig.close());

describe('test events and sending a delivery again', () => {
  it('a test event reaches only the endpoint it was sent to, signed, and shows in its log', async () => {
    const a = await createEndpoint(rig.app, key, { url: `https://localhost:${rig.receiver.port}/a`, eventTypes: ['message.sent'] });
    await createEndpoint(rig.app, key, { url: `https://localhost:${rig.receiver.port}/b`, eventTypes: ['message.sent'] });
    const res = await rig.app.request('POST', `/v1/webhooks/${a.id}/test`, { key });
    expect(res.status).toBe(202);
    const delivered = await waitFor('the test delivery', async () => (await deliveries(rig.app, key, a.id)).find((d) => d.id === res.body.deliveryId && d.status === 'delivered'));
    expect(delivered).toMatchObject({ eventType: 'webhook.test', lastStatusCode: 200 });
    const got = rig.receiver.requests.filter((r) => JSON.parse(r.rawBody.toString()).event === 'webhook.test');
    expect(got.map((r) => r.path)).toEqual(['/a']);
    expect(got[0]!.headers['hafatra-signature']).toBeTruthy();
  });

  it('a dead delivery is sent again on request and delivered; a delivered one is refused 409; other orgs get 404', async () => {
    const e = await createEndpoint(rig.app, key, { url: `https://localhost:${rig.receiver.port}/flaky`, eventTypes: ['message.failed'] });
    let down = true;
    rig.receiver.respondWith((r) => (r.path === '/flaky' && down ? { status: 503 } : { status: 200 }));
    await emitEvents(rig.app, orgId, 'message.failed', 1);
    const dead = await waitFor('a dead delivery', async () => (await deliveries(rig.app, key, e.id)).find((d) => d.status === 'dead'), 20_000);
    down = false;
    const again = await rig.app.request('POST', `/v1/webhooks/${e.id}/deliveries/${dead.id}/redeliver`, { key });
    expect(again.status).toBe(202);
    await waitFor('the delivery sent again', async () => (await deliveries(rig.app, key, e.id)).find((d) => d.id === dead.id && d.status === 'delivered'), 20_000);
    const twice = await rig.app.request('POST', `/v1/webhooks/${e.id}/deliveries/${dead.id}/redeliver`, { key });
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toContain('delivered');
    const other = await rig.app.createOrg();
    expect((await rig.app.request('POST', `/v1/webhooks/${e.id}/deliveries/${dead.id}/redeliver`, { key: other.key })).status).toBe(404);
    expect((await rig.app.request('POST', `/v1/webhooks/${e.id}/test`, { key: other.key })).status).toBe(404);
  });
});
