import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { countRows, expectError } from '../api/expect-error.js';

let app: TestApp;
let key: string;
let orgId: string;
let deviceId: string;

beforeAll(async () => {
  app = await startTestApp();
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg({ dailyLimit: 40 }));
  deviceId = await insertTestDevice(app.ctx, orgId, { sims: [1] });
});
afterAll(() => app.close());

async function sendOne(extra: Record<string, unknown> = {}): Promise<string> {
  const res = await app.request('POST', '/v1/messages', { key, body: { to: '+261341234567', body: 'x', ...extra } });
  expect(res.status).toBe(202);
  return res.body.messages[0].id;
}
const setStatus = (id: string, status: string, extra = '') => app.ctx.db.query(`UPDATE messages SET status = $2 ${extra} WHERE id = $1`, [id, status]);
const cancel = (id: string, k = key) => app.request('POST', `/v1/messages/${id}/cancel`, { key: k });
const resend = (id: string, k = key) => app.request('POST', `/v1/messages/${id}/resend`, { key: k });

describe('POST /v1/messages/{messageId}/cancel', () => {
  it('cancels a queued message, records the change and takes it off the dispatch queue', async () => {
    const id = await sendOne();
    const k = app.ctx.keys.org(orgId);
    expect(await app.ctx.redis.zscore(k.orgQueue(), id)).not.toBeNull();
    const res = await cancel(id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'cancelled' });
    expect(await app.ctx.redis.zscore(k.orgQueue(), id)).toBeNull();
    expect(await app.ctx.redis.hget(k.queueMeta(), id)).toBeNull();
    const detail = await app.request('GET', `/v1/messages/${id}`, { key });
    expect(detail.body.status).toBe('cancelled');
    expect(detail.body.events.map((e: any) => [e.fromStatus, e.toStatus, e.source])).toEqual([
      [null, 'queued', 'api'],
      ['queued', 'cancelled', 'api'],
    ]);
  });

  it('takes a pinned message off its phone queue', async () => {
    const id = await sendOne({ deviceId });
    const queue = app.ctx.keys.org(orgId).deviceQueue(deviceId);
    expect(await app.ctx.redis.zscore(queue, id)).not.toBeNull();
    expect((await cancel(id)).status).toBe(200);
    expect(await app.ctx.redis.zscore(queue, id)).toBeNull();
  });

  it('refuses to cancel twice: 409 invalid_transition', async () => {
    const id = await sendOne();
    expect((await cancel(id)).status).toBe(200);
    expectError(await cancel(id), 409, 'invalid_transition', /cancelled/);
  });

  it.each(['claimed', 'sending', 'sent', 'delivered', 'failed', 'expired', 'unknown'])('refuses a %s message: 409 invalid_transition, unchanged', async (status) => {
    const id = await sendOne();
    await setStatus(id, status, status === 'claimed' ? `, device_id = '${deviceId}', claimed_at = now()` : '');
    expectError(await cancel(id), 409, 'invalid_transition', new RegExp(status));
    expect((await app.request('GET', `/v1/messages/${id}`, { key })).body.status).toBe(status);
  });

  it('answers 404 for an unknown message and for one of another organization', async () => {
    expectError(await cancel('msg_doesnotexist'), 404, 'not_found');
    const id = await sendOne();
    const other = await app.createOrg();
    expectError(await cancel(id, other.key), 404, 'not_found');
    expect((await app.request('GET', `/v1/messages/${id}`, { key })).body.status).toBe('queued');
  });

  it('lets exactly one of concurrent cancels succeed', async () => {
    const id = await sendOne();
    const results = await Promise.all(Array.from({ length: 5 }, () => cancel(id)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(4);
    const events = await app.ctx.db.query(`SELECT count(*)::int AS n FROM message_events WHERE message_id = $1 AND to_status = 'cancelled'`, [id]);
    expect(events.rows[0].n).toBe(1);
  });
});

describe('POST /v1/messages/{messageId}/resend', () => {
  it.each(['queued', 'claimed', 'sending', 'sent'])('refuses a message that is still %s: 409 invalid_transition', async (status) => {
    const id = await sendOne();
    await setStatus(id, status);
    expectError(await resend(id), 409, 'invalid_transition');
  });

  it.each(['failed', 'expired', 'cancelled', 'unknown', 'delivered'])('resends a %s message as a new queued message with resendOfId', async (status) => {
    const id = await sendOne({ deviceId, simSubscriptionId: 1 });
    await setStatus(id, status);
    const res = await resend(id);
    expect(res.status).toBe(202);
    expect(res.body.messages).toHaveLength(1);
    const copy = res.body.messages[0];
    expect(copy.id).not.toBe(id);
    expect(copy).toMatchObject({ resendOfId: id, to: '+261341234567', body: 'x', status: 'queued', requestedDeviceId: deviceId, simSubscriptionId: 1 });
    expect((await app.request('GET', `/v1/messages/${id}`, { key })).body.status).toBe(status);
  });

  it('answers 404 for a message of another organization', async () => {
    const id = await sendOne();
    await setStatus(id, 'failed');
    const other = await app.createOrg();
    await insertTestDevice(app.ctx, other.org.id);
    expectError(await resend(id, other.key), 404, 'not_found');
  });

  it('counts against the daily limit', async () => {
    const limited = await app.createOrg({ dailyLimit: 2 });
    await insertTestDevice(app.ctx, limited.org.id);
    const sent = await app.request('POST', '/v1/messages', { key: limited.key, body: { to: ['+261341234567', '+261341234568'], body: 'x' } });
    const id = sent.body.messages[0].id;
    await setStatus(id, 'failed');
    expectError(await app.request('POST', `/v1/messages/${id}/resend`, { key: limited.key }), 429, 'rate_limited');
    expect(await countRows(app, 'messages', limited.org.id)).toBe(2);
  });

  it('needs an eligible phone: 409 no_device when the pinned phone is draining', async () => {
    const id = await sendOne({ deviceId });
    await setStatus(id, 'failed');
    await app.ctx.db.query('UPDATE devices SET draining = true WHERE id = $1', [deviceId]);
    try {
      expectError(await resend(id), 409, 'no_device');
    } finally {
      await app.ctx.db.query('UPDATE devices SET draining = false WHERE id = $1', [deviceId]);
    }
  });
});
