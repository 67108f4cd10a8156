import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { countRows, expectError } from '../api/expect-error.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const message = { to: '+261341234567', body: 'Salama' };
const send = (key: string, extra: Record<string, unknown> = {}) => app.request('POST', '/v1/messages', { key, body: { ...message, ...extra } });

describe('409 no_device when no phone of the organization can send', () => {
  it('refuses an organization without phones, and writes nothing', async () => {
    const { org, key } = await app.createOrg();
    expectError(await send(key), 409, 'no_device');
    expect(await countRows(app, 'messages', org.id)).toBe(0);
    expect(await countRows(app, 'batches', org.id)).toBe(0);
  });

  it.each([
    ['revoked', { revoked: true }],
    ['draining', { draining: true }],
    ['with outbound disabled', { outboundEnabled: false }],
  ])('refuses when the only phone is %s', async (_name, opts) => {
    const { org, key } = await app.createOrg();
    const deviceId = await insertTestDevice(app.ctx, org.id, opts);
    expectError(await send(key), 409, 'no_device');
    expectError(await send(key, { deviceId }), 409, 'no_device');
    expect(await countRows(app, 'messages', org.id)).toBe(0);
  });

  it('does not count a refused send against the daily limit', async () => {
    const { org, key } = await app.createOrg({ dailyLimit: 1 });
    expectError(await send(key), 409, 'no_device');
    await insertTestDevice(app.ctx, org.id);
    expect((await send(key)).status).toBe(202);
  });

  it('accepts once one phone of several is eligible', async () => {
    const { org, key } = await app.createOrg();
    await insertTestDevice(app.ctx, org.id, { revoked: true });
    await insertTestDevice(app.ctx, org.id, { draining: true });
    await insertTestDevice(app.ctx, org.id);
    expect((await send(key)).status).toBe(202);
  });
});

describe('a pinned phone and SIM', () => {
  it('refuses a phone of another organization exactly like a phone that does not exist', async () => {
    const mine = await app.createOrg();
    await insertTestDevice(app.ctx, mine.org.id);
    const other = await app.createOrg();
    const foreign = await insertTestDevice(app.ctx, other.org.id);
    const res = await send(mine.key, { deviceId: foreign });
    expectError(res, 400, 'invalid_request', /^deviceId: /);
    const missing = await send(mine.key, { deviceId: 'dev_doesnotexist' });
    expectError(missing, 400, 'invalid_request');
    expect(res.body.error.message.replace(foreign, 'X')).toBe(missing.body.error.message.replace('dev_doesnotexist', 'X'));
    expect(await countRows(app, 'messages', mine.org.id)).toBe(0);
  });

  it('refuses a SIM the phone has not reported, and accepts one it has', async () => {
    const { org, key } = await app.createOrg();
    const deviceId = await insertTestDevice(app.ctx, org.id, { sims: [1, 2] });
    expectError(await send(key, { deviceId, simSubscriptionId: 3 }), 400, 'invalid_request', /^simSubscriptionId: /);
    expect(await countRows(app, 'messages', org.id)).toBe(0);
    const ok = await send(key, { deviceId, simSubscriptionId: 2 });
    expect(ok.status).toBe(202);
    expect(ok.body.messages[0]).toMatchObject({ requestedDeviceId: deviceId, simSubscriptionId: 2, deviceId: null });
  });

  it('queues a pinned message on that phone and an unpinned one on the organization queue', async () => {
    const { org, key } = await app.createOrg();
    const deviceId = await insertTestDevice(app.ctx, org.id);
    const pinned = (await send(key, { deviceId })).body.messages[0].id;
    const free = (await send(key)).body.messages[0].id;
    const k = app.ctx.keys.org(org.id);
    expect(await app.ctx.redis.zscore(k.deviceQueue(deviceId), pinned)).not.toBeNull();
    expect(await app.ctx.redis.zscore(k.orgQueue(), pinned)).toBeNull();
    expect(await app.ctx.redis.zscore(k.orgQueue(), free)).not.toBeNull();
  });
});
