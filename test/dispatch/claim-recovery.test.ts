import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { pairTestPhone, sendMessages, eventually } from '../support/phones.js';
import { recoverInterruptedClaims } from '../../src/dispatch/sweeps.js';
import { claimInRedisOnly } from '../support/redis-half-claim.js';
import type { Job } from '../../src/phone/protocol.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

it('wakes the phones for the messages of an interrupted claim it puts back, without waiting for another send', async () => {
  const { org, key } = await app.createOrg({ dailyLimit: 1000 });
  const received: string[] = [];
  const phone = await pairTestPhone(app, org.id, { pacingPerMinute: 100_000, client: { onJobs: (jobs: Job[]) => received.push(...jobs.map((j) => j.messageId)) } });
  const [id] = await sendMessages(app, key, 1);
  const k = app.ctx.keys.org(org.id);
  // The Redis half of a claim whose Postgres half never happened (a Postgres outage, a crash).
  await claimInRedisOnly(app.ctx, org.id, phone.deviceId);
  await app.ctx.redis.zadd(k.claiming(), Date.now() - 60_000, id!);
  await phone.client.connect();
  // Connected and idle: its claim on connect found nothing.
  await eventually(async () => (await app.ctx.db.query('SELECT 1 FROM devices WHERE id = $1 AND socket_connected', [phone.deviceId])).rowCount === 1, 10_000, 'the phone connected');
  expect(received).toEqual([]);

  expect(await recoverInterruptedClaims(app.ctx)).toBeGreaterThanOrEqual(1);
  await eventually(() => received.includes(id!), 10_000, 'the job pushed to the idle phone');
  await phone.client.close();
});
