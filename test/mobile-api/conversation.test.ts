import { describe, expect, it } from 'vitest';
import { messageOf, send, startedPhone, statusOf, useMobileApp } from './support.js';
import { syncDeviceState } from '../../src/dispatch-queue/device-state.js';

const env = useMobileApp();

const THREE_DIGITS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('a phone running SMS Gateway for Android 1.68.0, from pairing to delivered', () => {
  it("is woken by MessageEnqueued, pulls the message in the app's format, and its reports make it delivered with the phone's times", async () => {
    const phone = await startedPhone(env.app, env.orgId, { utcOffsetMinutes: 180, autopilot: false });
    const id = await send(env.app, env.key, { priority: 'high' });
    await expect.poll(() => phone.local.has(id)).toBe(true);
    expect(phone.events.map((e) => e.event)).toContain('MessageEnqueued');
    expect(phone.events.find((e) => e.event === 'MessageEnqueued')!.data).toBe('null');

    // The item exactly as pulled: one recipient, both texts, dates with three digits and Z.
    const [item] = await phone.pull();
    expect(item).toEqual({
      id,
      message: 'Salama',
      textMessage: { text: 'Salama' },
      phoneNumbers: ['+261341234567'],
      withDeliveryReport: true,
      isEncrypted: false,
      priority: 100,
      validUntil: expect.stringMatching(THREE_DIGITS_Z),
      createdAt: expect.stringMatching(THREE_DIGITS_Z),
      state: 'Pending',
    });
    expect(await statusOf(env.app, env.key, id)).toBe('claimed');

    const m = phone.local.get(id)!;
    const processedAt = new Date(Date.now() - 3000);
    m.states.Processed = phone.formatDate(processedAt);
    await phone.move(m, 'Processed');
    expect(await statusOf(env.app, env.key, id)).toBe('sending');
    await phone.move(m, 'Sent');
    await phone.move(m, 'Delivered');
    const message = await messageOf(env.app, env.key, id);
    expect(message.status).toBe('delivered');
    expect(message.deviceId).toBe(phone.id);
    // The phone wrote +03:00; Hafatra keeps the instant.
    const sending = message.events.find((e: { toStatus: string }) => e.toStatus === 'sending');
    expect(Date.parse(sending.at)).toBe(processedAt.getTime());
    expect(phone.reports.every((r) => r.status === 204)).toBe(true);
    phone.disconnect();
  });

  it("sends from the SIM the claim chose, as the 1-based simNumber: the default SIM, or the one on the recipient's network", async () => {
    const phone = await startedPhone(env.app, env.orgId, { simCards: [{ slotIndex: 0 }, { slotIndex: 1 }] });
    expect((await env.app.request('PATCH', `/v1/devices/${phone.id}`, { key: env.key, body: { defaultSimSubscriptionId: 1 } })).status).toBe(200);
    const first = await send(env.app, env.key, { deviceId: phone.id });
    await expect.poll(() => phone.local.get(first)?.simNumber).toBe(2);
    // The carriers as the unredacted app:started event gives them: slot 0 is on Orange.
    await env.app.ctx.db.query(`UPDATE device_sims SET carrier_name = CASE subscription_id WHEN 0 THEN 'Orange MG' ELSE 'Yas' END WHERE device_id = $1`, [phone.id]);
    await syncDeviceState(env.app.ctx, phone.id!);
    const onNet = await send(env.app, env.key, { deviceId: phone.id, to: '+261321234567' });
    await expect.poll(() => phone.local.get(onNet)?.simNumber).toBe(1);
    phone.disconnect();
  });

  it('answers an empty pull with [] as application/json', async () => {
    const phone = await startedPhone(env.app, env.orgId);
    const res = await phone.call('GET', '/message');
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/json');
    expect(res.text).toBe('[]');
    expect((await phone.call('GET', '/messages?order=fifo')).text).toBe('[]');
    expect((await phone.call('GET', '/message?order=random')).status).toBe(400);
    phone.disconnect();
  });
});

describe('the order of a pull', () => {
  it('lists high priority first, then newest first (lifo, the default) or oldest first (fifo)', async () => {
    const phone = await startedPhone(env.app, env.orgId, { deaf: true });
    const first = await send(env.app, env.key, { deviceId: phone.id, to: '+261341000001' });
    const second = await send(env.app, env.key, { deviceId: phone.id, to: '+261341000002' });
    const urgent = await send(env.app, env.key, { deviceId: phone.id, to: '+261341000003', priority: 'high' });
    const ids = async (order: string) => ((await phone.call('GET', `/message?order=${order}`)).body as { id: string }[]).map((m) => m.id);
    expect(await ids('lifo')).toEqual([urgent, second, first]);
    expect(await ids('fifo')).toEqual([urgent, first, second]);
    phone.disconnect();
  });
});

describe('GET /device and the stream on a doubled slash', () => {
  it('answers GET /device without a token, and opens //events', async () => {
    const phone = await startedPhone(env.app, env.orgId);
    const res = await phone.call('GET', '/device', undefined, null);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ externalIp: '127.0.0.1' });
    const stream = await fetch(`${env.app.url}/mobile/v1//events`, { headers: { authorization: `Bearer ${phone.token}` } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    await stream.body?.cancel();
    phone.disconnect();
  });
});
