import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { signedInMember, type SignedInMember } from '../support/members.js';

/** The dashboard's delivery inspector: the request a delivery sends, never a secret, another organization's 404. */
let app: TestApp;
let key: string;
let viewer: SignedInMember;

beforeAll(async () => {
  app = await startTestApp({ webhookAllowHosts: ['localhost'] });
  const made = await app.createOrg();
  key = made.key;
  viewer = await signedInMember(app, made.org.id, 'viewer');
});
afterAll(async () => {
  await app?.close();
});

describe('a delivery inspected', () => {
  it('shows the URL, headers and body it sends, with the signature described, not given', async () => {
    const endpoint = await app.request('POST', '/v1/webhooks', { key, body: { url: 'https://localhost:9/hook', eventTypes: ['message.sent'] } });
    expect(endpoint.status).toBe(201);
    const id = endpoint.body.endpoint.id as string;
    expect((await app.request('POST', `/v1/webhooks/${id}/test`, { key })).status).toBeLessThan(300);
    const log = await app.request('GET', `/v1/webhooks/${id}/deliveries`, { key });
    const delivery = log.body.deliveries[0];
    const res = await app.request('GET', `/dashboard/v1/webhooks/${id}/deliveries/${delivery.id}`, { headers: viewer.headers });
    expect(res.status).toBe(200);
    expect(res.body.delivery).toMatchObject({ id: delivery.id, eventId: delivery.eventId, eventType: delivery.eventType });
    expect(res.body.request).toMatchObject({ method: 'POST', url: 'https://localhost:9/hook' });
    expect(res.body.request.headers).toMatchObject({ 'Content-Type': 'application/json', 'Hafatra-Event-Id': delivery.eventId, 'Hafatra-Event-Type': delivery.eventType });
    expect(res.body.request.headers['Hafatra-Signature']).toMatch(/^t=<time of the attempt>/);
    expect(JSON.parse(res.body.request.body)).toMatchObject({ id: delivery.eventId });
    expect(JSON.stringify(res.body)).not.toContain(endpoint.body.secret);

    const other = await app.createOrg();
    const stranger = await signedInMember(app, other.org.id, 'owner');
    expect((await app.request('GET', `/dashboard/v1/webhooks/${id}/deliveries/${delivery.id}`, { headers: stranger.headers })).status).toBe(404);
  });
});
