import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.js';
import { expectError } from '../api/expect-error.js';
import { createRedis } from '../../src/redis/connection.js';
import { heartbeat, holdMessage, pairPhone, sendTo, startDevicesApp } from './support.js';
import { subscribeDeviceSignals } from '../../src/redis/device-signals.js';

let app: TestApp;
let orgId: string;
let key: string;

beforeAll(async () => {
  app = await startDevicesApp();
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
});
afterAll(() => app.close());

const message = async (id: string) => (await app.request('GET', `/v1/messages/${id}`, { key })).body;
const revoke = (id: string) => app.request('DELETE', `/v1/devices/${id}`, { key });

describe('DELETE /v1/devices/{id}', () => {
  it('refuses the token on the very next request', async () => {
    const phone = await pairPhone(app, orgId);
    expect((await heartbeat(app, phone.token, {})).status).toBe(200);
    expect((await revoke(phone.deviceId)).status).toBe(200);
    expectError(await heartbeat(app, phone.token, {}), 401, 'unauthorized');
  });

  it('answers the device with status revoked, keeps it listed, and is idempotent', async () => {
    const phone = await pairPhone(app, orgId, { name: 'Old phone' });
    await heartbeat(app, phone.token, { defaultSmsApp: true, battery: { percent: 10, charging: false } });
    const res = await revoke(phone.deviceId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: phone.deviceId,
      name: 'Old phone',
      status: 'revoked',
      revokedReason: 'revoked by API',
      inbound: { state: 'locked', reason: 'revoked' },
      socket: { connected: false },
      battery: { percent: 10 },
    });
    expect(Date.now() - Date.parse(res.body.revokedAt)).toBeLessThan(10_000);
    const again = await revoke(phone.deviceId);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    const listed = (await app.request('GET', '/v1/devices', { key })).body.devices.find((d: { id: string }) => d.id === phone.deviceId);
    expect(listed).toEqual(res.body);
  });

  it('turns messages the phone held into unknown, fails queued ones pinned to it, leaves the rest', async () => {
    const phone = await pairPhone(app, orgId);
    const other = await pairPhone(app, orgId);
    const claimed = await sendTo(app, key, phone.deviceId);
    const sending = await sendTo(app, key, phone.deviceId);
    const sent = await sendTo(app, key, phone.deviceId);
    const pinned = await sendTo(app, key, phone.deviceId);
    const anyPhone = await sendTo(app, key);
    const othersHeld = await sendTo(app, key, other.deviceId);
    await holdMessage(app, claimed, phone.deviceId, 'claimed');
    await holdMessage(app, sending, phone.deviceId, 'sending');
    await holdMessage(app, sent, phone.deviceId, 'sent');
    await holdMessage(app, othersHeld, other.deviceId, 'claimed');
    const queue = app.ctx.keys.org(orgId).deviceQueue(phone.deviceId);
    expect(await app.ctx.redis.zscore(queue, pinned)).not.toBeNull();

    expect((await revoke(phone.deviceId)).body.queueDepth).toBe(0);

    for (const id of [claimed, sending]) {
      const m = await message(id);
      expect(m).toMatchObject({ status: 'unknown', deviceId: phone.deviceId });
      expect(m.events.at(-1)).toMatchObject({ toStatus: 'unknown', source: 'system', code: 'device_revoked' });
    }
    const failed = await message(pinned);
    expect(failed).toMatchObject({ status: 'failed', failureCode: 'device_revoked' });
    expect(Date.now() - Date.parse(failed.failedAt)).toBeLessThan(10_000);
    expect(failed.events.at(-1)).toMatchObject({ fromStatus: 'queued', toStatus: 'failed', source: 'system', code: 'device_revoked' });
    expect(await app.ctx.redis.zscore(queue, pinned)).toBeNull();
    expect((await message(sent)).status).toBe('sent');
    expect((await message(anyPhone)).status).toBe('queued');
    expect((await message(othersHeld)).status).toBe('claimed');
  });

  it('marks the phone revoked in the dispatch state and tells every process to close its socket', async () => {
    const phone = await pairPhone(app, orgId);
    const listener = createRedis(app.ctx.config.redisUrl, { name: 'test-listener', subscriber: true });
    const seen: unknown[] = [];
    await subscribeDeviceSignals(listener, app.ctx.keys, app.ctx.log, (signal) => seen.push(signal));
    try {
      await revoke(phone.deviceId);
      await expect.poll(() => seen).toContainEqual({ type: 'revoked', orgId, deviceId: phone.deviceId });
      expect(await app.ctx.redis.hget(app.ctx.keys.org(orgId).deviceState(phone.deviceId), 'revoked')).toBe('1');
      expectError(await app.request('POST', '/v1/messages', { key, body: { to: '+261341234567', body: 'x', deviceId: phone.deviceId } }), 409, 'no_device', /revoked/);
    } finally {
      listener.disconnect();
    }
  });

  it('refuses re-pairing the same token: a revoked phone must pair again with a new code', async () => {
    const phone = await pairPhone(app, orgId);
    await revoke(phone.deviceId);
    const fresh = await pairPhone(app, orgId);
    expect(fresh.deviceId).not.toBe(phone.deviceId);
    expect((await heartbeat(app, fresh.token, {})).status).toBe(200);
    expectError(await heartbeat(app, phone.token, {}), 401, 'unauthorized');
  });
});
