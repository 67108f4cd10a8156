import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { newIds } from '../../src/ids/ids.js';
import { insertBatchMessages } from '../../src/messages/sql/insert-messages.js';
import { reconcileAccepted, rebuildQueuesIfLost } from '../../src/messages/reconciler.js';

let app: TestApp;
let key: string;
let orgId: string;
let deviceId: string;

beforeAll(async () => {
  app = await startTestApp({ reconcileGraceMs: 5000 });
  ({ org: { id: orgId }, key } = await app.createOrg());
  deviceId = await insertTestDevice(app.ctx, orgId);
});
afterAll(() => app.close());

/** Messages a crashed API process committed but never queued. */
async function insertAccepted(count: number, ageMs: number, pinned: string | null = null): Promise<string[]> {
  const createdAt = new Date(Date.now() - ageMs);
  const ids = newIds('message', count);
  await insertBatchMessages(app.ctx.db, {
    orgId, body: 'left behind', status: 'accepted', segments: 1, encoding: 'gsm7',
    requestedDeviceId: pinned, simSubscriptionId: null, batchId: 'bat_leftbehind', resendOfId: null, createdAt,
    expiresAt: new Date(createdAt.getTime() + 86_400_000),
  }, ids.map((id) => ({ id, to: '+261341234567' })));
  return ids;
}
const statuses = async (ids: string[]) =>
  (await app.ctx.db.query('SELECT status FROM messages WHERE id = ANY($1) ORDER BY id', [ids])).rows.map((r) => r.status);

describe('reconcileAccepted', () => {
  it('queues accepted messages older than the grace period, in Postgres and in Redis', async () => {
    const old = await insertAccepted(3, 60_000);
    const pinned = await insertAccepted(1, 60_000, deviceId);
    const fresh = await insertAccepted(1, 0);
    expect(await reconcileAccepted(app.ctx)).toBeGreaterThanOrEqual(4);
    expect(await statuses(old)).toEqual(['queued', 'queued', 'queued']);
    expect(await statuses(pinned)).toEqual(['queued']);
    expect(await statuses(fresh)).toEqual(['accepted']); // its request may still be queueing it
    const k = app.ctx.keys.org(orgId);
    for (const id of old) expect(await app.ctx.redis.zscore(k.orgQueue(), id)).not.toBeNull();
    expect(await app.ctx.redis.zscore(k.deviceQueue(deviceId), pinned[0]!)).not.toBeNull();
    expect(await app.ctx.redis.zscore(k.orgQueue(), fresh[0]!)).toBeNull();
    const events = await app.ctx.db.query('SELECT from_status, to_status, source FROM message_events WHERE message_id = $1', [old[0]]);
    expect(events.rows).toEqual([{ from_status: null, to_status: 'queued', source: 'system' }]);
  });

  it('is idempotent: a second run queues nothing again', async () => {
    const old = await insertAccepted(2, 60_000);
    await reconcileAccepted(app.ctx);
    const before = await app.ctx.redis.zcard(app.ctx.keys.org(orgId).orgQueue());
    await reconcileAccepted(app.ctx);
    expect(await app.ctx.redis.zcard(app.ctx.keys.org(orgId).orgQueue())).toBe(before);
    const events = await app.ctx.db.query('SELECT count(*)::int AS n FROM message_events WHERE message_id = ANY($1)', [old]);
    expect(events.rows[0].n).toBe(2);
  });

  it('makes the messages visible as queued through the API', async () => {
    const [id] = await insertAccepted(1, 60_000);
    expect((await app.request('GET', `/v1/messages/${id}`, { key })).body.status).toBe('accepted');
    await reconcileAccepted(app.ctx);
    expect((await app.request('GET', `/v1/messages/${id}`, { key })).body.status).toBe('queued');
  });
});

describe('rebuildQueuesIfLost', () => {
  it('puts queued messages back on their queues after Redis lost them, in their original order', async () => {
    await rebuildQueuesIfLost(app.ctx); // the first run of a process marks the queues whole
    expect(await rebuildQueuesIfLost(app.ctx)).toBe(0);
    const sent = await app.request('POST', '/v1/messages', { key, body: { to: ['+261341234567', '+261341234568'], body: 'x' } });
    const pinned = await app.request('POST', '/v1/messages', { key, body: { to: '+261341234569', body: 'x', deviceId } });
    const ids = sent.body.messages.map((m: any) => m.id);
    const k = app.ctx.keys.org(orgId);
    const scores = await Promise.all(ids.map((id: string) => app.ctx.redis.zscore(k.orgQueue(), id)));

    await app.ctx.redis.del(k.orgQueue(), k.deviceQueue(deviceId), k.queueMeta(), app.ctx.keys.queuesBuilt());
    expect(await rebuildQueuesIfLost(app.ctx)).toBeGreaterThanOrEqual(3);

    expect(await Promise.all(ids.map((id: string) => app.ctx.redis.zscore(k.orgQueue(), id)))).toEqual(scores);
    expect(await app.ctx.redis.zscore(k.deviceQueue(deviceId), pinned.body.messages[0].id)).not.toBeNull();
    expect(JSON.parse((await app.ctx.redis.hget(k.queueMeta(), ids[0]))!)).toMatchObject({ to: '+261341234567', body: 'x' });
    expect(await app.ctx.redis.exists(app.ctx.keys.queuesBuilt())).toBe(1);
  });

  it('leaves cancelled messages off the rebuilt queues', async () => {
    const sent = await app.request('POST', '/v1/messages', { key, body: { to: '+261341234567', body: 'x' } });
    const id = sent.body.messages[0].id;
    await app.request('POST', `/v1/messages/${id}/cancel`, { key });
    const k = app.ctx.keys.org(orgId);
    await app.ctx.redis.del(k.orgQueue(), k.queueMeta(), app.ctx.keys.queuesBuilt());
    await rebuildQueuesIfLost(app.ctx);
    expect(await app.ctx.redis.zscore(k.orgQueue(), id)).toBeNull();
  });
});
