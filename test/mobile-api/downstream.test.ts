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
