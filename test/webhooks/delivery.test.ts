import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../src/index.js';
import { packageVersion } from '../../src/version.js';
import { createEndpoint, deliveries, emitEvents, startWebhookRig, waitFor, type WebhookRig } from './support.js';

let rig: WebhookRig;

beforeAll(async () => {
  rig = await startWebhookRig({ webhookTimeoutMs: 1000, webhookDisableAfterSeconds: 3600 });
});
afterAll(() => rig.close());
beforeEach(() => {
  rig.receiver.requests.length = 0;
  rig.receiver.respondWith(() => ({ status: 200 }));
});

describe('webhook delivery', () => {
  it('delivers a signed event with the documented headers', async () => {
    const { app, receiver } = rig;
    const { org, key } = await app.createOrg();
    const { id, secret } = await createEndpoint(app, key, { url: `${receiver.url}hooks`, eventTypes: ['message.sent'] });
    expect(await emitEvents(app, org.id, 'message.sent', 1)).toBe(1);
    await waitFor('the delivery', () => receiver.requests.length === 1);
    const got = receiver.requests[0]!;
    expect(got.method).toBe('POST');
    expect(got.path).toBe('/hooks');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toBe(`Hafatra/${packageVersion}`);
    const body = JSON.parse(got.rawBody.toString());
    expect(body).toMatchObject({ event: 'message.sent', data: { id: 'msg_test0', status: 'sent' } });
    expect(body.id).toMatch(/^evt_/);
    expect(got.headers['hafatra-event-id']).toBe(body.id);
    expect(got.headers['hafatra-event-type']).toBe('message.sent');
    const signature = String(got.headers['hafatra-signature']);
    expect(signature.match(/v1=/g)).toHaveLength(1);
    expect(verifyWebhookSignature(got.rawBody, signature, secret)).toBe(true);
    expect(verifyWebhookSignature(got.rawBody, signature, 'whsec_wrong')).toBe(false);
    const [log] = await waitFor('delivered status', async () => {
      const list = await deliveries(app, key, id);
      return list[0]?.status === 'delivered' && list;
    });
    expect(log).toMatchObject({ endpointId: id, eventId: body.id, eventType: 'message.sent', status: 'delivered', attempts: 1, lastStatusCode: 200, lastError: null, nextAttemptAt: null });
    expect(log.deliveredAt).not.toBeNull();
  });
});
