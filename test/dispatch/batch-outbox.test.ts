import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { flushPrefix } from '../support/redis.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ reconcileGraceMs: 0 });
});
afterAll(() => app.close());

it('dispatches a batch that was committed but never reached the queues (crash or Redis outage)', async () => {
  const { org, key } = await app.createOrg();
  const deviceId = await insertTestDevice(app.ctx, org.id);
  const res = await app.request('POST', '/v1/messages', { key, body: { to: ['+261340000001', '+261340000002'], body: 'hi' } });
  expect(res.status).toBe(202);
  expect(res.body.messages.map((m: { status: string }) => m.status)).toEqual(['queued', 'queued']);
  // Undo the dispatch: as if the process died right after the commit.
  await flushPrefix(app.ctx);
  await app.ctx.db.query('UPDATE batches SET dispatched_at = NULL WHERE id = $1', [res.body.batchId]);
  expect((await app.ctx.dispatch.claim({ orgId: org.id, deviceId }, 10)).jobs).toHaveLength(0);

  expect(await app.ctx.dispatch.reconcileBatches()).toBeGreaterThanOrEqual(2);
  const { rows } = await app.ctx.db.query('SELECT dispatched_at FROM batches WHERE id = $1', [res.body.batchId]);
  expect(rows[0].dispatched_at).not.toBeNull();
  const jobs = (await app.ctx.dispatch.claim({ orgId: org.id, deviceId }, 10)).jobs.map((j) => j.messageId).sort();
  expect(jobs).toEqual(res.body.messages.map((m: { id: string }) => m.id).sort());
  expect(await app.ctx.dispatch.reconcileBatches()).toBe(0);
});
