import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { newIds } from '../../src/ids/ids.js';
import { insertBatchWithMessages } from '../../src/messages/sql/insert-messages.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { migrationsDir } from '../../src/package/paths.js';

let app: TestApp;
let key: string;
let orgId: string;
let deviceId: string;

beforeAll(async () => {
  app = await startTestApp({ reconcileGraceMs: 5000 });
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
  deviceId = await insertTestDevice(app.ctx, orgId);
});
afterAll(() => app.close());

/** Messages written `accepted` by a version older than migration 011, in a batch marked dispatched. */
async function insertAccepted(count: number, ageMs: number, pinned: string | null = null): Promise<string[]> {
  const createdAt = new Date(Date.now() - ageMs);
  const ids = newIds('message', count);
  const batchId = newIds('batch', 1)[0]!;
  await insertBatchWithMessages(
    app.ctx.db,
    {
      orgId,
      body: 'left behind',
      status: 'accepted',
      segments: 1,
      encoding: 'gsm7',
      requestedDeviceId: pinned,
      simSubscriptionId: null,
      batchId,
      resendOfId: null,
      priority: 0,
      autoResendsLeft: 0,
      autoResend: false,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + 86_400_000),
    },
    { idempotencyKey: null, requestHash: 'h' },
    ids.map((id) => ({ id, to: '+261341234567' })),
  );
  await app.ctx.db.query('UPDATE batches SET created_at = $2, dispatched_at = $2 WHERE id = $1', [batchId, createdAt]);
  return ids;
}
const statuses = async (ids: string[]) => (await app.ctx.db.query('SELECT status FROM messages WHERE id = ANY($1) ORDER BY id', [ids])).rows.map((r) => r.status);

describe('migration 024: messages an older version left accepted', () => {
  it('become queued with their timeline row, and the batch reconciler puts them on their queues', async () => {
    const old = await insertAccepted(2, 60_000);
    const pinned = await insertAccepted(1, 60_000, deviceId);
    // Idempotent: re-running it on a migrated database finds no accepted row.
    await app.ctx.db.query(await readFile(join(migrationsDir, '024_no_accepted_outbox.sql'), 'utf8'));
    expect(await statuses([...old, ...pinned])).toEqual(['queued', 'queued', 'queued']);
    const events = await app.ctx.db.query('SELECT from_status, to_status, source FROM message_events WHERE message_id = $1', [old[0]]);
    expect(events.rows).toEqual([{ from_status: null, to_status: 'queued', source: 'system' }]);
    expect((await app.request('GET', `/v1/messages/${old[0]}`, { key })).body.status).toBe('queued');

    expect(await app.ctx.dispatch.reconcileBatches()).toBeGreaterThanOrEqual(3);
    const k = app.ctx.keys.org(orgId);
    for (const id of old) expect(await app.ctx.redis.zscore(k.orgQueue(), id)).not.toBeNull();
    expect(await app.ctx.redis.zscore(k.deviceQueue(deviceId), pinned[0]!)).not.toBeNull();
  });
});

describe('rebuildQueuesIfLost', () => {
  it('puts queued messages back on their queues after Redis lost them, in their original order', async () => {
    await app.ctx.dispatch.rebuildIfLost(); // the first run of a process marks the queues whole
    expect(await app.ctx.dispatch.rebuildIfLost()).toBe(0);
    const sent = await app.request('POST', '/v1/messages', { key, body: { to: ['+261341234567', '+261341234568'], body: 'x' } });
    const pinned = await app.request('POST', '/v1/messages', { key, body: { to: '+261341234569', body: 'x', deviceId } });
    const ids = sent.body.messages.map((m: any) => m.id);
    const k = app.ctx.keys.org(orgId);
    const scores = await Promise.all(ids.map((id: string) => app.ctx.redis.zscore(k.orgQueue(), id)));

    for (const lost of [k.orgQueue(), k.deviceQueue(deviceId), k.queueMeta(), app.ctx.keys.queuesBuilt()]) await app.ctx.redis.del(lost);
    expect(await app.ctx.dispatch.rebuildIfLost()).toBeGreaterThanOrEqual(3);

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
    for (const lost of [k.orgQueue(), k.queueMeta(), app.ctx.keys.queuesBuilt()]) await app.ctx.redis.del(lost);
    await app.ctx.dispatch.rebuildIfLost();
    expect(await app.ctx.redis.zscore(k.orgQueue(), id)).toBeNull();
  });
});
