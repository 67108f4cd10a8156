import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually, pairTestPhone, sendMessages } from '../support/phones.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { rawSocketSuite, type Frame } from '../support/raw-socket.js';
import { revokeDevice } from '../../src/devices/revoke-device.js';
import { syncDeviceState } from '../../src/dispatch-queue/device-state.js';

/**
 * The protocol promises `no_session` (then close 4001) for every frame of a revoked phone. A
 * revocation commits in Postgres first and reaches this process's Redis copy and socket a moment
 * later; a frame in that moment used to get whatever its own check found (a status report
 * `invalid_transition`, a heartbeat `unauthorized`). Here the revocation is made by a second
 * process with its own Redis prefix, so this process's copy stays behind for as long as the
 * test needs: the race, held open.
 */
const suite = rawSocketSuite();
let other: TestApp;
beforeAll(async () => {
  other = await startTestApp();
});
afterAll(() => other.close());

async function phoneWithJob() {
  const { org, key } = await suite.app.createOrg();
  const phone = await pairTestPhone(suite.app, org.id);
  const socket = await suite.open(phone.token);
  await socket.request({ type: 'heartbeat', ref: 'h0', defaultSmsApp: true });
  const [id] = await sendMessages(suite.app, key, 1);
  await eventually(() => socket.pushedJobs().length === 1, 5000, 'the pushed job');
  return { ...phone, orgId: org.id, key, id: id!, socket };
}

const statusOf = async (id: string) => (await suite.app.ctx.db.query('SELECT status FROM messages WHERE id = $1', [id])).rows[0].status;

const racing: [string, (id: string) => Frame][] = [
  ['status', (id) => ({ type: 'status', ref: 'x', messageId: id, status: 'sending' })],
  ['heartbeat', () => ({ type: 'heartbeat', ref: 'x', battery: { percent: 10, charging: false } })],
  ['incoming', () => ({ type: 'incoming', ref: 'x', clientId: 'sms-1', from: '+261340000001', body: 'x', receivedAt: new Date().toISOString() })],
  ['claim', () => ({ type: 'claim', ref: 'x', max: 5 })],
];

it.each(racing)('answers a %s frame racing a revocation no_session, then closes with 4001', async (_kind, frame) => {
  const phone = await phoneWithJob();
  await revokeDevice(other.ctx, phone.orgId, phone.deviceId); // committed; this process not told yet
  expect(await phone.socket.request(frame(phone.id))).toMatchObject({ type: 'error', ref: 'x', code: 'no_session' });
  expect((await phone.socket.closed).code).toBe(4001);
  expect(await statusOf(phone.id)).toBe('unknown');
});

it('answers no_session, writing nothing, to a report the message would still take once Redis knows of the revocation', async () => {
  const phone = await phoneWithJob();
  for (const status of ['sending', 'sent']) {
    expect(await phone.socket.request({ type: 'status', ref: status, messageId: phone.id, status })).toMatchObject({ type: 'ack' });
  }
  await revokeDevice(other.ctx, phone.orgId, phone.deviceId);
  await syncDeviceState(suite.app.ctx, phone.deviceId); // this process's copy says revoked; the socket is still open
  const answer = await phone.socket.request({ type: 'status', ref: 'd', messageId: phone.id, status: 'delivered' });
  expect(answer).toMatchObject({ type: 'error', code: 'no_session' });
  expect(await statusOf(phone.id)).toBe('sent');
});

it('answers no_session to a resend of a frame acknowledged before the revocation, not its remembered ack', async () => {
  const phone = await phoneWithJob();
  const report = { type: 'status', ref: 's', messageId: phone.id, status: 'sending' };
  expect(await phone.socket.request(report)).toMatchObject({ type: 'ack' });
  await revokeDevice(other.ctx, phone.orgId, phone.deviceId);
  await syncDeviceState(suite.app.ctx, phone.deviceId);
  expect(await phone.socket.request(report)).toMatchObject({ type: 'error', ref: 's', code: 'no_session' });
});
