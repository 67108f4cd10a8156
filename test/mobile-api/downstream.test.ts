import { expect, it } from 'vitest';
import { sendMessages } from '../support/phones.js';
import { startedPhone, useMobileApp } from './support.js';

const env = useMobileApp();

it('resends what an app phone without service failed, from another phone, as for native phones', async () => {
  const { org, key } = await env.app.createOrg({ autoResend: { attempts: 2 } });
  const failing = await startedPhone(env.app, org.id, {
    autopilot: true,
    outcome: () => ({ state: 'Failed', error: 'Send result: RESULT_ERROR_NO_SERVICE (Failed because service is currently unavailable)' }),
  });
  const [id] = await sendMessages(env.app, key, 1);
  await expect.poll(async () => (await env.app.ctx.db.query('SELECT status, failure_code FROM messages WHERE id = $1', [id])).rows[0]).toEqual({ status: 'failed', failure_code: 'no_service' });
  const working = await startedPhone(env.app, org.id, { autopilot: true });
  // The resend is a new message with resendOfId, and it is not handed to the phone it failed on first.
  await expect
    .poll(async () => (await env.app.ctx.db.query(`SELECT status, device_id AS "deviceId" FROM messages WHERE resend_of_id = $1`, [id])).rows)
    .toEqual([{ status: 'delivered', deviceId: working.id }]);
  failing.disconnect();
  working.disconnect();
});

it("writes the organization's webhook events for an app phone's reports, as for native phones", async () => {
  const { org, key } = await env.app.createOrg();
  const endpoint = await env.app.request('POST', '/v1/webhooks', { key, body: { url: 'https://93.184.216.34/hook', eventTypes: ['message.sent', 'message.delivered'] } });
  expect(endpoint.status).toBe(201);
  const phone = await startedPhone(env.app, org.id, { autopilot: true });
  const [id] = await sendMessages(env.app, key, 1);
  await expect
    .poll(async () => (await env.app.ctx.db.query(`SELECT type FROM events WHERE org_id = $1 AND payload->'data'->>'id' = $2 ORDER BY type`, [org.id, id])).rows.map((r) => r.type))
    .toEqual(['message.delivered', 'message.sent']);
  phone.disconnect();
});

it("keeps an app phone's jobs inside its send windows, and wakes it when they open", async () => {
  const { org, key } = await env.app.createOrg();
  const phone = await startedPhone(env.app, org.id, { autopilot: true });
  // A one-hour window eleven or twelve hours from now: closed.
  const hour = Math.min((new Date().getUTCHours() + 12) % 24, 22);
  const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;
  const closed = { timeZone: 'UTC', ranges: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: hh(hour), to: hh(hour + 1) }] };
  const put = await env.app.request('PUT', `/v1/devices/${phone.id}/send-windows`, { key, body: { sendWindows: closed } });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  const [id] = await sendMessages(env.app, key, 1);
  expect(await phone.pull()).toEqual([]);
  expect((await env.app.ctx.db.query('SELECT status FROM messages WHERE id = $1', [id])).rows[0].status).toBe('queued');
  // Windows lifted: the phone is told, pulls and sends.
  expect((await env.app.request('PUT', `/v1/devices/${phone.id}/send-windows`, { key, body: { sendWindows: null } })).status).toBe(200);
  await expect.poll(async () => (await env.app.ctx.db.query('SELECT status FROM messages WHERE id = $1', [id])).rows[0].status).toBe('delivered');
  phone.disconnect();
});
