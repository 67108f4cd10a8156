import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { syncDeviceState } from '../../src/dispatch-queue/device-state.js';
import { swapResting } from '../../src/devices/resting-writes.js';
import { workWaitingFor } from '../../src/dispatch-queue/work-waiting.js';
import { createRedis } from '../../src/redis/connection.js';

let app: TestApp;
let orgs: string[];

beforeAll(async () => {
  app = await startTestApp();
  orgs = [(await app.createOrg()).org.id, (await app.createOrg()).org.id];
});
afterAll(() => app.close());

describe('device state writes of one turn, batched', () => {
  it('syncs the phones of two organizations asked at once, each with its own state, and answers an unknown phone with nothing', async () => {
    const phones = await Promise.all(orgs.flatMap((orgId) => [false, true].map(async (draining) => ({ orgId, draining, id: await insertTestDevice(app.ctx, orgId, { draining }) }))));
    const synced = await Promise.all([...phones.map((p) => syncDeviceState(app.ctx, p.id)), syncDeviceState(app.ctx, 'dev_unknown'), syncDeviceState(app.ctx, phones[0]!.id)]);
    expect(synced.slice(0, phones.length).map((s) => s?.id)).toEqual(phones.map((p) => p.id));
    expect(synced[phones.length]).toBeUndefined();
    expect(synced[phones.length + 1]?.id).toBe(phones[0]!.id);
    for (const p of phones) {
      const state = await app.ctx.redis.hgetall(app.ctx.keys.org(p.orgId).deviceState(p.id));
      expect(state).toMatchObject({ draining: p.draining ? '1' : '0', resting: '0', revoked: '0' });
    }
    for (const orgId of orgs) expect(await app.ctx.redis.exists(app.ctx.keys.org(orgId).carrierPrefixes())).toBe(1);
  });

  it('answers each resting swap with the value before it, in order for a phone swapped twice in one turn', async () => {
    const principals = await Promise.all(orgs.map(async (orgId) => ({ kind: 'device' as const, orgId, deviceId: await insertTestDevice(app.ctx, orgId) })));
    const [a, b] = principals as [(typeof principals)[0], (typeof principals)[0]];
    expect(await Promise.all([swapResting(app.ctx, a, true), swapResting(app.ctx, b, false), swapResting(app.ctx, a, false)])).toEqual([null, null, '1']);
    expect(await Promise.all([swapResting(app.ctx, a, true), swapResting(app.ctx, b, true)])).toEqual(['0', '0']);
    expect(await app.ctx.redis.hget(app.ctx.keys.org(a.orgId).deviceState(a.deviceId), 'resting')).toBe('1');
  });
});

describe('work checks of the sockets opened in one turn, batched', () => {
  it("tells phones of two organizations asked in one turn whether work waits for each, from its own organization's queues", async () => {
    const [busy, idle] = orgs as [string, string];
    const [busyPhone, idlePhone, pinnedPhone] = ['dev_w1', 'dev_w2', 'dev_w3'];
    await app.ctx.redis.zadd(app.ctx.keys.org(busy).orgQueue(), 1, 'msg_waiting');
    await app.ctx.redis.zadd(app.ctx.keys.org(idle).deviceQueue(pinnedPhone), 1, 'msg_pinned');
    try {
      const asked = [
        { orgId: busy, deviceId: busyPhone },
        { orgId: idle, deviceId: idlePhone },
        { orgId: idle, deviceId: pinnedPhone },
      ];
      expect(await Promise.all(asked.map((p) => workWaitingFor(app.ctx, p)))).toEqual([true, false, true]);
    } finally {
      // One call per organization: their keys live in different slots of a cluster.
      await app.ctx.redis.del(app.ctx.keys.org(busy).orgQueue());
      await app.ctx.redis.del(app.ctx.keys.org(idle).deviceQueue(pinnedPhone));
    }
  });

  it('answers that work may wait when Redis cannot be asked, so the open claims as it did before the check', async () => {
    const closed = createRedis(app.ctx.config.redisUrl, { name: 'closed-for-test', failFast: true });
    closed.disconnect();
    expect(await workWaitingFor({ ...app.ctx, redis: closed }, { orgId: orgs[0]!, deviceId: 'dev_w4' })).toBe(true);
  });
});
