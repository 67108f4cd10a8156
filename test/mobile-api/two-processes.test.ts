import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { startApiProcess, type ApiProcess } from '../support/api-process.js';
import { pairTestPhone, sendMessages, type TestPhone } from '../support/phones.js';
import { syncDeviceState } from '../../src/dispatch-queue/device-state.js';
import type { Job } from '../../src/phone/protocol.js';
import { AndroidApp } from '../support/android-app.js';
import { registeredPhone } from './support.js';
import { pushAppEvent } from '../../src/devices/app-events.js';

/**
 * Native phones and app phones on two API processes (the in-process one and a real `hafatra api`
 * child) share one organization's messages: each is sent once, by one phone, whichever process
 * took the send and whichever holds the phone's socket or event stream.
 */
let a: TestApp;
let b: ApiProcess;

beforeAll(async () => {
  a = await startTestApp();
  b = await startApiProcess(a);
}, 60_000);
afterAll(async () => {
  b?.stop();
  await a?.close();
});

const MESSAGES = 5000;

it('sends each of 5,000 messages once, by one phone, across native and app phones on two processes', async () => {
  const { org, key } = await a.createOrg({ dailyLimit: 100_000 });
  const handedTo = new Map<string, string>();
  const twice: string[] = [];
  const note = (id: string, phone: string) => {
    if (handedTo.has(id) && handedTo.get(id) !== phone) twice.push(id);
    handedTo.set(id, phone);
  };
  const reporting: Promise<unknown>[] = [];

  const natives: TestPhone[] = [];
  for (let i = 0; i < 2; i++) {
    let handle: (jobs: Job[]) => void = () => undefined;
    const phone = await pairTestPhone(a, org.id, { pacingPerMinute: 100_000, client: { ...(i === 1 ? { baseUrl: b.url } : {}), onJobs: (jobs) => handle(jobs) } });
    handle = (jobs) => {
      for (const job of jobs) {
        note(job.messageId, phone.deviceId);
        reporting.push(
          (async () => {
            await phone.client.reportStatus({ messageId: job.messageId, status: 'sending' });
            await phone.client.reportStatus({ messageId: job.messageId, status: 'sent' });
          })(),
        );
      }
    };
    natives.push(phone);
    await phone.client.connect();
  }

  const apps: AndroidApp[] = [];
  for (let i = 0; i < 4; i++) {
    const registered = await registeredPhone(a, org.id);
    await a.ctx.db.query('UPDATE devices SET pacing_per_minute = 100000 WHERE id = $1', [registered.id]);
    await syncDeviceState(a.ctx, registered.id!);
    // Half the app phones call the child process: their pulls, reports and stream are there.
    const phone = new AndroidApp(i % 2 === 0 ? a.url : b.url, {
      autopilot: true,
      outcome: (m) => {
        note(m.id, registered.id!);
        return { state: 'Sent' };
      },
    });
    Object.assign(phone, { id: registered.id, token: registered.token });
    await phone.start();
    apps.push(phone);
  }

  // Ten sends of 500, the most one request takes.
  const ids: string[] = [];
  for (let i = 0; i < MESSAGES / 500; i++) ids.push(...(await sendMessages(a, key, 500, { body: `Veloma ${i}` })));
  await expect.poll(async () => (await a.ctx.db.query(`SELECT count(*)::int AS n FROM messages WHERE org_id = $1 AND status = 'sent'`, [org.id])).rows[0].n, { timeout: 180_000 }).toBe(MESSAGES);
  await Promise.all(reporting);
  for (const phone of apps) await phone.idle();

  expect(twice).toEqual([]);
  expect(new Set(handedTo.keys())).toEqual(new Set(ids));
  // Every phone took part, on both processes, and each message went to `sending` exactly once.
  const byPhone = new Set(handedTo.values());
  for (const deviceId of [...natives.map((p) => p.deviceId), ...apps.map((p) => p.id!)]) expect(byPhone.has(deviceId), deviceId).toBe(true);
  const { rows } = await a.ctx.db.query(`SELECT count(*)::int AS n, count(DISTINCT message_id)::int AS distinct FROM message_events WHERE message_id = ANY($1) AND to_status = 'sending'`, [ids]);
  expect(rows[0]).toEqual({ n: MESSAGES, distinct: MESSAGES });
  const holders = await a.ctx.db.query(`SELECT device_id AS "deviceId", id FROM messages WHERE id = ANY($1)`, [ids]);
  for (const r of holders.rows) expect(r.deviceId).toBe(handedTo.get(r.id));
  for (const p of apps) p.disconnect();
  for (const p of natives) await p.client.close();
}, 240_000);

it('delivers pushAppEvent to a stream held by the other process, and revokes it there', async () => {
  const { org, key } = await a.createOrg();
  const registered = await registeredPhone(a, org.id);
  const phone = new AndroidApp(b.url, { deaf: true });
  Object.assign(phone, { id: registered.id, token: registered.token });
  expect((await phone.connect()).status).toBe(200);
  await expect.poll(() => phone.events.length).toBe(2); // the sync events of the connect
  await pushAppEvent(a.ctx, { orgId: org.id, deviceId: phone.id! }, { event: 'SettingsUpdated' });
  await pushAppEvent(a.ctx, { orgId: org.id, deviceId: null }, [{ event: 'WebhooksUpdated' }, { event: 'MessageCancelled', data: { messageId: 'msg_x' } }]);
  await expect
    .poll(() => phone.events.slice(2))
    .toEqual([
      { event: 'SettingsUpdated', data: 'null' },
      { event: 'WebhooksUpdated', data: 'null' },
      { event: 'MessageCancelled', data: '{"messageId":"msg_x"}' },
    ]);
  const ended = phone.streamEnded();
  expect((await a.request('DELETE', `/v1/devices/${phone.id}`, { key })).status).toBe(200);
  await ended;
});
