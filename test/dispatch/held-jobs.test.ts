import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { syncDeviceState } from '../../src/dispatch-queue/device-state.js';
import { selectClaimedJobsOfDevices } from '../../src/dispatch/sql/select-claimed-jobs-of-devices.js';

/** Phones whose sockets open in the same turn read the jobs they hold in one statement: each gets its own, none another's. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

it('gives each phone of a batch its own claimed jobs, oldest first, and none to a phone that holds nothing', async () => {
  const { org, key } = await app.createOrg({ dailyLimit: 100_000 });
  const phones: string[] = [];
  for (let i = 0; i < 3; i++) {
    const id = await insertTestDevice(app.ctx, org.id);
    await app.ctx.db.query('UPDATE devices SET pacing_per_minute = 100000 WHERE id = $1', [id]);
    await syncDeviceState(app.ctx, id);
    phones.push(id);
  }
  const res = await app.request('POST', '/v1/messages', { key, body: { to: Array.from({ length: 5 }, (_, i) => `+26134200000${i}`), body: 'held' } });
  expect(res.status).toBe(202);
  const first = await app.ctx.dispatch.claim({ orgId: org.id, deviceId: phones[0]! }, 3);
  const second = await app.ctx.dispatch.claim({ orgId: org.id, deviceId: phones[1]! }, 2);
  expect(first.jobs).toHaveLength(3);
  expect(second.jobs).toHaveLength(2);

  const held = await selectClaimedJobsOfDevices(app.ctx.db, [phones[1]!, phones[2]!, 'dev_unknown', phones[0]!]);
  expect(held.map((jobs) => jobs.map((j) => j.messageId))).toEqual([second.jobs.map((j) => j.messageId).sort(), [], [], first.jobs.map((j) => j.messageId).sort()]);
  const oldest = held[3]![0]!;
  expect(oldest).toMatchObject({ to: first.jobs.find((j) => j.messageId === oldest.messageId)!.to, body: 'held', segments: 1 });
  expect(oldest.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});
