import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { recordHeartbeat } from '../../src/devices/heartbeat.js';
import type { DevicePrincipal } from '../../src/auth/principal.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const principal = (orgId: string, deviceId: string): DevicePrincipal => ({ kind: 'device', orgId, deviceId });
const heartbeat = (p: DevicePrincipal, hb: Parameters<typeof recordHeartbeat>[2]) => recordHeartbeat(app.ctx, p, hb);

it('gives nothing new to a phone whose battery is low and not charging, or that has no service; the others take the work', async () => {
  const { org, key } = await app.createOrg();
  const [low, offline, healthy] = [await insertTestDevice(app.ctx, org.id), await insertTestDevice(app.ctx, org.id), await insertTestDevice(app.ctx, org.id)];
  await heartbeat(principal(org.id, low!), { battery: { percent: 9, charging: false } });
  await heartbeat(principal(org.id, offline!), { battery: { percent: 80, charging: false }, networkType: 'none' });
  await heartbeat(principal(org.id, healthy!), { battery: { percent: 9, charging: true }, networkType: 'lte' });

  const sent = await app.request('POST', '/v1/messages', { key, body: { to: ['+261340000001', '+261340000002', '+261340000003'], body: 'x' } });
  expect(sent.status).toBe(202);
  const claim = (deviceId: string) => app.ctx.dispatch.claim({ orgId: org.id, deviceId }, 10);
  expect(await claim(low!)).toMatchObject({ jobs: [], refused: 'not_sending' });
  expect(await claim(offline!)).toMatchObject({ jobs: [], refused: 'not_sending' });
  expect((await claim(healthy!)).jobs).toHaveLength(3); // low battery, but charging

  // Plugged in, and back on the network: they take work again.
  await heartbeat(principal(org.id, low!), { battery: { percent: 10, charging: true } });
  await heartbeat(principal(org.id, offline!), { networkType: 'wifi' });
  await app.request('POST', '/v1/messages', { key, body: { to: ['+261340000004', '+261340000005'], body: 'y' } });
  const jobs = [...(await claim(low!)).jobs, ...(await claim(offline!)).jobs];
  expect(jobs).toHaveLength(2);
});

it('keeps resting after Redis lost the phone state: the state is rebuilt from Postgres with it', async () => {
  const { org, key } = await app.createOrg();
  const phone = await insertTestDevice(app.ctx, org.id);
  await heartbeat(principal(org.id, phone), { battery: { percent: 3, charging: false } });
  await app.ctx.redis.del(app.ctx.keys.org(org.id).deviceState(phone));
  expect((await app.request('POST', '/v1/messages', { key, body: { to: '+261340000001', body: 'x' } })).status).toBe(202);
  expect(await app.ctx.dispatch.claim({ orgId: org.id, deviceId: phone }, 10)).toMatchObject({ jobs: [], refused: 'not_sending' });
  expect(await app.ctx.redis.hget(app.ctx.keys.org(org.id).deviceState(phone), 'resting')).toBe('1');
});
