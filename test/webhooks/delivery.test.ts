import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../src/index.js';
import { packageVersion } from '../../src/package/version.js';
import { createEndpoint, deliveries, emitEvents, startWebhookRig, waitFor, waitForNoJobOf, type WebhookRig } from './support.js';

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

  it('delivers only subscribed events that happened after the endpoint was created', async () => {
    const { app, receiver } = rig;
    const { org, key } = await app.createOrg();
    const first = await createEndpoint(app, key, { url: `${receiver.url}first`, eventTypes: ['message.sent'] });
    await emitEvents(app, org.id, 'message.sent', 1, () => ({ id: 'msg_before', status: 'sent' }));
    const second = await createEndpoint(app, key, { url: `${receiver.url}second`, eventTypes: ['message.sent'] });
    await emitEvents(app, org.id, 'message.sent', 1, () => ({ id: 'msg_after', status: 'sent' }));
    expect(await emitEvents(app, org.id, 'message.failed', 1)).toBe(0);
    await waitFor('three deliveries', () => receiver.requests.length >= 3);
    await rig.workers.relayNow();
    await new Promise((r) => setTimeout(r, 300));
    const seen = receiver.requests.map((r) => `${r.path} ${JSON.parse(r.rawBody.toString()).data.id}`).sort();
    expect(seen).toEqual(['/first msg_after', '/first msg_before', '/second msg_after']);
    expect((await deliveries(app, key, first.id)).length).toBe(2);
    expect((await deliveries(app, key, second.id)).length).toBe(1);
  });

  it('retries failures on the schedule until dead, counting attempts', async () => {
    const { app, receiver } = rig;
    receiver.respondWith(() => ({ status: 500, body: 'nope' }));
    const { org, key } = await app.createOrg();
    const { id } = await createEndpoint(app, key, { url: `${receiver.url}dead`, eventTypes: ['message.failed'] });
    const received = () => receiver.requests.filter((r) => r.path === '/dead');
    await emitEvents(app, org.id, 'message.failed', 1);
    const [dead] = await waitFor('a dead delivery', async () => {
      const list = await deliveries(app, key, id);
      return list[0]?.status === 'dead' && list;
    });
    expect(dead).toMatchObject({ attempts: 3, lastStatusCode: 500, lastError: 'HTTP 500', nextAttemptAt: null, deliveredAt: null });
    expect(received()).toHaveLength(3);
    expect(new Set(received().map((r) => r.headers['hafatra-event-id'])).size).toBe(1);
    const gaps = received()
      .slice(1)
      .map((r, i) => r.receivedAt.getTime() - received()[i]!.receivedAt.getTime());
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(950);
    const endpoint = (await app.request('GET', `/v1/webhooks/${id}`, { key })).body;
    expect(endpoint).toMatchObject({ consecutiveFailures: 3, enabled: true, lastSuccessAt: null });
    expect(endpoint.lastFailureAt).not.toBeNull();
    await waitForNoJobOf(app, id);
    expect(received()).toHaveLength(3);
  });

  it('shows a retrying delivery with its next attempt, then delivers it and resets the failure count', async () => {
    const { app, receiver } = rig;
    receiver.respondWith((_, i) => (i === 0 ? { status: 503 } : { status: 204 }));
    const { org, key } = await app.createOrg();
    const { id } = await createEndpoint(app, key, { url: receiver.url, eventTypes: ['message.sent'] });
    await emitEvents(app, org.id, 'message.sent', 1);
    const [retrying] = await waitFor('a retrying delivery', async () => {
      const list = await deliveries(app, key, id);
      return list[0]?.status === 'retrying' && list;
    });
    expect(retrying).toMatchObject({ attempts: 1, lastStatusCode: 503, lastError: 'HTTP 503' });
    expect(Date.parse(retrying.nextAttemptAt) - Date.parse(retrying.lastAttemptAt)).toBeGreaterThanOrEqual(1000);
    await waitFor('delivered', async () => (await deliveries(app, key, id))[0]?.status === 'delivered');
    const [done] = await deliveries(app, key, id);
    expect(done).toMatchObject({ attempts: 2, lastStatusCode: 204, lastError: null });
    const endpoint = (await app.request('GET', `/v1/webhooks/${id}`, { key })).body;
    expect(endpoint.consecutiveFailures).toBe(0);
    expect(endpoint.lastSuccessAt).not.toBeNull();
    expect(endpoint.lastFailureAt).not.toBeNull();
  });

  it('counts an answer slower than the timeout as a failure', async () => {
    const { app, receiver } = rig;
    receiver.respondWith((_, i) => (i === 0 ? { hang: true } : { status: 200 }));
    const { org, key } = await app.createOrg();
    const { id } = await createEndpoint(app, key, { url: receiver.url, eventTypes: ['message.sent'] });
    await emitEvents(app, org.id, 'message.sent', 1);
    const [retrying] = await waitFor('a timed-out attempt', async () => {
      const list = await deliveries(app, key, id);
      return list[0]?.status === 'retrying' && list;
    });
    expect(retrying).toMatchObject({ attempts: 1, lastStatusCode: null, lastError: 'timeout' });
    await waitFor('delivered', async () => (await deliveries(app, key, id))[0]?.status === 'delivered');
  });

  it('does not follow redirects', async () => {
    const { app, receiver } = rig;
    receiver.respondWith((r) => (r.path === '/moved' ? { redirectTo: `${receiver.url}elsewhere` } : { status: 200 }));
    const { org, key } = await app.createOrg();
    const { id } = await createEndpoint(app, key, { url: `${receiver.url}moved`, eventTypes: ['message.sent'] });
    await emitEvents(app, org.id, 'message.sent', 1);
    const [failed] = await waitFor('a failed attempt', async () => {
      const list = await deliveries(app, key, id);
      return list[0]?.attempts >= 1 && list;
    });
    expect(failed).toMatchObject({ lastStatusCode: 302, lastError: 'redirect not followed' });
    expect(receiver.requests.every((r) => r.path === '/moved')).toBe(true);
  });

  it('checks the URL again at delivery time', async () => {
    const { app, receiver } = rig;
    const { org, key } = await app.createOrg();
    const { id } = await createEndpoint(app, key, { url: receiver.url, eventTypes: ['message.sent'] });
    await app.ctx.db.query('UPDATE webhook_endpoints SET url = $2 WHERE id = $1', [id, `https://127.0.0.2:${receiver.port}/`]);
    await emitEvents(app, org.id, 'message.sent', 1);
    const [failed] = await waitFor('a refused attempt', async () => {
      const list = await deliveries(app, key, id);
      return list[0]?.attempts >= 1 && list;
    });
    expect(failed.lastStatusCode).toBeNull();
    expect(failed.lastError).toMatch(/not a public address \(loopback\)/);
    expect(receiver.requests).toHaveLength(0);
  });

  it('signs with both secrets after a rotation', async () => {
    const { app, receiver } = rig;
    const { org, key } = await app.createOrg();
    const { id, secret: oldSecret } = await createEndpoint(app, key, { url: receiver.url, eventTypes: ['message.sent'] });
    const newSecret = (await app.request('POST', `/v1/webhooks/${id}/rotate-secret`, { key })).body.secret;
    await emitEvents(app, org.id, 'message.sent', 1);
    await waitFor('the delivery', () => receiver.requests.length === 1);
    const got = receiver.requests[0]!;
    const header = String(got.headers['hafatra-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(got.rawBody, header, newSecret)).toBe(true);
    expect(verifyWebhookSignature(got.rawBody, header, oldSecret)).toBe(true);
    // Once the previous secret has expired, only the new one signs.
    await app.ctx.db.query(`UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    await emitEvents(app, org.id, 'message.sent', 1);
    await waitFor('the second delivery', () => receiver.requests.length === 2);
    const later = receiver.requests[1]!;
    const laterHeader = String(later.headers['hafatra-signature']);
    expect(laterHeader.match(/v1=/g)).toHaveLength(1);
    expect(verifyWebhookSignature(later.rawBody, laterHeader, newSecret)).toBe(true);
    expect(verifyWebhookSignature(later.rawBody, laterHeader, oldSecret)).toBe(false);
  });

  it('stops pending deliveries and removes the history when the endpoint is deleted', async () => {
    const { app, receiver } = rig;
    receiver.respondWith(() => ({ status: 500 }));
    const { org, key } = await app.createOrg();
    const { id } = await createEndpoint(app, key, { url: `${receiver.url}deleted`, eventTypes: ['message.sent'] });
    await emitEvents(app, org.id, 'message.sent', 2);
    await waitFor('two retrying deliveries', async () => (await deliveries(app, key, id)).filter((d) => d.status === 'retrying').length === 2);
    expect((await app.request('DELETE', `/v1/webhooks/${id}`, { key })).status).toBe(204);
    const toDeleted = () => receiver.requests.filter((r) => r.path === '/deleted').length;
    const before = toDeleted();
    await waitForNoJobOf(app, id);
    expect(toDeleted()).toBe(before);
    const left = await app.ctx.db.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1', [id]);
    expect(left.rows[0].n).toBe(0);
  });

  it('pages the delivery log newest first', async () => {
    const { app, receiver } = rig;
    const { org, key } = await app.createOrg();
    const { id } = await createEndpoint(app, key, { url: receiver.url, eventTypes: ['message.sent'] });
    await emitEvents(app, org.id, 'message.sent', 3);
    await waitFor('three deliveries', async () => (await deliveries(app, key, id)).filter((d) => d.status === 'delivered').length === 3);
    const first = await app.request('GET', `/v1/webhooks/${id}/deliveries?limit=2`, { key });
    expect(first.body.deliveries).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await app.request('GET', `/v1/webhooks/${id}/deliveries?limit=2&before=${first.body.nextCursor}`, { key });
    expect(second.body).toMatchObject({ nextCursor: null });
    const ids = [...first.body.deliveries, ...second.body.deliveries].map((d: { id: string }) => d.id);
    expect(ids).toEqual([...ids].sort().reverse());
    expect(new Set(ids).size).toBe(3);
  });
});
