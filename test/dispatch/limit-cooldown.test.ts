import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { writeReports } from '../../src/dispatch/status-reports.js';

const clock = { t: Date.now(), now: () => clock.t };
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ limitCooldownSeconds: 60 }, undefined, clock);
});
afterAll(() => app.close());

it('cools a phone down after Android refused a send as over its limit; the other phone takes the work, and the first claims again after', async () => {
  const { org, key } = await app.createOrg();
  const limited = await insertTestDevice(app.ctx, org.id);
  const other = await insertTestDevice(app.ctx, org.id);
  const send = async (to: string) => (await app.request('POST', '/v1/messages', { key, body: { to, body: 'x' } })).body.messages[0].id as string;
  const claim = (deviceId: string) => app.ctx.dispatch.claim({ orgId: org.id, deviceId }, 10);

  const first = await send('+261340000001');
  expect((await claim(limited)).jobs.map((j) => j.messageId)).toEqual([first]);
  await writeReports(app.ctx, [{ deviceId: limited, report: { messageId: first, status: 'sending' } }]);
  const [outcome] = await writeReports(app.ctx, [{ deviceId: limited, report: { messageId: first, status: 'failed', failureCode: 'limit_exceeded' } }]);
  expect(outcome).toMatchObject({ status: 'failed' });

  const second = await send('+261340000002');
  expect(await claim(limited)).toMatchObject({ jobs: [], retryAfterMs: 60_000 });
  expect((await claim(other)).jobs.map((j) => j.messageId)).toEqual([second]);

  clock.t += 59_000;
  const third = await send('+261340000003');
  expect(await claim(limited)).toMatchObject({ jobs: [], retryAfterMs: 1_000 });
  clock.t += 1_000;
  expect((await claim(limited)).jobs.map((j) => j.messageId)).toEqual([third]);
});

it('does not cool a phone down for any other failure', async () => {
  const { org, key } = await app.createOrg();
  const phone = await insertTestDevice(app.ctx, org.id);
  const id = (await app.request('POST', '/v1/messages', { key, body: { to: '+261340000001', body: 'x' } })).body.messages[0].id;
  await app.ctx.dispatch.claim({ orgId: org.id, deviceId: phone }, 10);
  await writeReports(app.ctx, [{ deviceId: phone, report: { messageId: id, status: 'sending' } }]);
  await writeReports(app.ctx, [{ deviceId: phone, report: { messageId: id, status: 'failed', failureCode: 'no_service' } }]);
  await app.request('POST', '/v1/messages', { key, body: { to: '+261340000002', body: 'x' } });
  expect((await app.ctx.dispatch.claim({ orgId: org.id, deviceId: phone }, 10)).jobs).toHaveLength(1);
});
