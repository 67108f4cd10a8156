import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createPairingCode } from '../../src/devices/pairing.js';
import { updateDevice } from '../../src/devices/update-device.js';
import { startWorkers, type Workers } from '../../src/app/workers.js';
import { AndroidApp } from '../support/android-app.js';
import { AppWebhooks } from '../support/android-app-webhooks.js';
import { eventsOf, subscribeWebhook } from '../incoming/support.js';
import { mvolaReceived, readingOf } from '../mobile-money/integration/support.js';
import { webhookSignature } from '../../src/mobile-api/webhook-signature.js';
import { phoneBaseUrl } from '../../src/mobile-api/phone-webhooks.js';
import { messageOf, send, statusOf } from './support.js';

let app: TestApp;
let workers: Workers;
let orgId: string;
let key: string;

beforeAll(async () => {
  app = await startTestApp();
  workers = await startWorkers(app.ctx);
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
  await subscribeWebhook(app, orgId, ['incoming.received']);
});
afterAll(async () => {
  await workers?.close();
  await app?.close();
});

async function pairedPhone(opts: ConstructorParameters<typeof AndroidApp>[1] = {}): Promise<{ phone: AndroidApp; hooks: AppWebhooks }> {
  const phone = new AndroidApp(app.url, opts);
  const res = await phone.register((await createPairingCode(app.ctx, orgId)).code);
  expect(res.status).toBe(201);
  const hooks = new AppWebhooks(phone);
  await hooks.sync();
  return { phone, hooks };
}

const received = (message: string, sender = '+261341112233') => ({
  messageId: 'a1b2c3d4',
  message,
  receivedAt: '2026-07-14T10:02:11.000+03:00',
  sender,
  simNumber: 1,
  phoneNumber: sender,
});

const incomingOf = async (deviceId: string) =>
  (await app.request('GET', `/v1/incoming?deviceId=${deviceId}`, { key })).body.messages as { id: string; from: string; body: string; receivedAt: string }[];

describe('GET /mobile/v1/webhooks and /settings', () => {
  it("lists Hafatra's own absolute URLs for the six events, from the Host the phone reached", async () => {
    const { phone } = await pairedPhone();
    const res = await phone.call('GET', '/webhooks');
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/json');
    expect(res.body.map((h: { event: string }) => h.event)).toEqual(['sms:received', 'sms:sent', 'sms:delivered', 'sms:failed', 'system:ping', 'app:started']);
    for (const h of res.body) expect(h.url).toBe(`${app.url}/mobile/v1/webhooks/events`);
    expect(new Set(res.body.map((h: { id: string }) => h.id)).size).toBe(6);
    expect((await phone.call('GET', '/webhooks', undefined, 'Bearer hfd_nope')).status).toBe(401);
    // The app builds URLs by concatenation: a base ending in a slash gives `//webhooks`.
    expect((await phone.call('GET', '//webhooks')).status).toBe(200);
    expect((await phone.call('GET', '//settings')).status).toBe(200);
  });

  it("prefers HAFATRA_PUBLIC_URL, and a proxy's X-Forwarded-Proto only when trusted", () => {
    const config = { publicUrl: '', https: false, trustProxy: false, port: 3000 };
    expect(phoneBaseUrl({ ...config, publicUrl: 'https://sms.example.org' }, { host: '10.0.0.5:3000' })).toBe('https://sms.example.org');
    expect(phoneBaseUrl(config, { host: 'sms.example.org', forwardedProto: 'https' })).toBe('http://sms.example.org');
    expect(phoneBaseUrl({ ...config, trustProxy: true }, { host: 'sms.example.org', forwardedProto: 'https' })).toBe('https://sms.example.org');
    expect(phoneBaseUrl({ ...config, https: true }, { host: '192.168.1.20:3000' })).toBe('https://192.168.1.20:3000');
    expect(phoneBaseUrl(config, { host: 'bad host/' })).toBe('http://127.0.0.1:3000');
  });

  it("gives each phone its own signing key, SSE only, and a send cap no higher than the phone's pacing, in values the app accepts", async () => {
    const { phone } = await pairedPhone();
    const { phone: other } = await pairedPhone();
    const res = await phone.call('GET', '/settings');
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/json');
    const signingKey = res.body.webhooks.signing_key as string;
    expect(res.body).toEqual({
      gateway: { notification_channel: 'SSE_ONLY' },
      messages: { limit_period: 'PerMinute', limit_value: app.ctx.config.pacingPerMinute },
      webhooks: { signing_key: signingKey },
      ping: { interval_seconds: 300 },
      encryption: {},
    });
    expect(signingKey.length).toBeGreaterThanOrEqual(32);
    // The same key on every sync (webhooks the phone queued stay verifiable), another phone's differs.
    expect((await phone.call('GET', '/settings')).body.webhooks.signing_key).toBe(signingKey);
    expect((await other.call('GET', '/settings')).body.webhooks.signing_key).not.toBe(signingKey);
    for (const section of Object.values(res.body)) expect(section).toBeTypeOf('object');
  });

  it('follows a change of pacing, and tells the phone on its open stream', async () => {
    const { phone } = await pairedPhone();
    await phone.connect();
    await expect.poll(() => phone.events.filter((e) => e.event === 'SettingsUpdated').length).toBe(1);
    await updateDevice(app.ctx, orgId, phone.id!, { pacingPerMinute: 12 });
    await expect.poll(() => phone.events.filter((e) => e.event === 'SettingsUpdated').length).toBe(2);
    expect((await phone.call('GET', '/settings')).body.messages).toEqual({ limit_period: 'PerMinute', limit_value: 12 });
    phone.disconnect();
  });
});

describe('the webhooks a phone fires', () => {
  it("signs as the app does: HMAC-SHA256 of the body then X-Timestamp, lowercase hex (the write-up's test vector)", () => {
    expect(webhookSignature('Ab3dE6gH', Buffer.from('{"id":"x"}'), '1720000000')).toBe('d4ce1a1beef24cb83c171d7d40dbf77d26cb2b35ad2f8748624e060baea6d544');
  });

  it('stores a signed sms:received as a received SMS: listed in /v1/incoming, with its incoming.received event', async () => {
    const { phone, hooks } = await pairedPhone();
    const res = await hooks.fire('sms:received', received('Salama! Misaotra.'));
    expect(res.status).toBe(204);
    const [sms] = await incomingOf(phone.id!);
    expect(sms).toMatchObject({ from: '+261341112233', body: 'Salama! Misaotra.', receivedAt: '2026-07-14T07:02:11.000Z' });
    const events = await eventsOf(app, orgId, 'incoming.received');
    expect(events.filter((e) => JSON.stringify(e.payload).includes(sms!.id))).toHaveLength(1);
  });

  it('stores an event the app retries (same id) once', async () => {
    const { phone, hooks } = await pairedPhone();
    const first = await hooks.fire('sms:received', received('once'));
    expect(first.status).toBe(204);
    const again = await hooks.fire('sms:received', received('once'), { id: first.id });
    expect(again.status).toBe(204);
    expect((await incomingOf(phone.id!)).map((m) => m.body)).toEqual(['once']);
  });

  it('reads mobile money from an MVola SMS, the sender deciding as for a native phone', async () => {
    const { phone, hooks } = await pairedPhone();
    expect((await hooks.fire('sms:received', received(mvolaReceived(), 'MVola'))).status).toBe(204);
    expect((await hooks.fire('sms:received', received(mvolaReceived(), '+261341112299'))).status).toBe(204);
    const list = await incomingOf(phone.id!);
    const fromMvola = list.find((m) => m.from === 'MVola')!;
    const fromPerson = list.find((m) => m.from !== 'MVola')!;
    expect((await readingOf(app, key, fromMvola.id))?.classification).toBe('matched');
    // The same text from a person's number is not the provider's notification (a spoof).
    expect((await readingOf(app, key, fromPerson.id))?.classification).toBe('ambiguous');
  });

  it('counts STOP as an opt-out of the sender', async () => {
    const { hooks } = await pairedPhone();
    expect((await hooks.fire('sms:received', received('STOP', '+261349998877'))).status).toBe(204);
    const optOuts = await app.request('GET', '/v1/opt-outs', { key });
    expect(JSON.stringify(optOuts.body)).toContain('+261349998877');
  });

  it('refuses a bad, missing, stale or foreign signature with 401 and stores nothing', async () => {
    const { phone, hooks } = await pairedPhone();
    const { hooks: other } = await pairedPhone();
    const tries = [];
    tries.push(await hooks.fire('sms:received', received('wrong key'), { key: 'random-k' }));
    tries.push(await hooks.fire('sms:received', received('bad hex'), { signature: 'deadbeef' }));
    tries.push(await hooks.fire('sms:received', received('old'), { timestamp: Math.floor(Date.now() / 1000) - 3600 }));
    tries.push(await hooks.fire('sms:received', received('future'), { timestamp: Math.floor(Date.now() / 1000) + 3600 }));
    // Another phone's key, for this phone's deviceId.
    tries.push(await hooks.fire('sms:received', received('foreign'), { key: other.signingKey }));
    for (const t of tries) expect(t.status).toBe(401);
    // A revoked phone's webhooks, however well signed, and its syncs.
    const { phone: revoked, hooks: revokedHooks } = await pairedPhone();
    expect((await app.request('DELETE', `/v1/devices/${revoked.id}`, { key })).status).toBe(200);
    expect((await revokedHooks.fire('sms:received', received('after revoke'))).status).toBe(401);
    expect((await revoked.call('GET', '/settings')).status).toBe(401);
    expect(await incomingOf(revoked.id!)).toEqual([]);
    // No signature at all: what a phone sends before its first settings sync.
    const body = JSON.stringify({ id: 'x1', event: 'sms:received', deviceId: phone.id, payload: received('unsigned') });
    const unsigned = await fetch(`${app.url}/mobile/v1/webhooks/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(unsigned.status).toBe(401);
    // An unknown device, signed with a real key.
    const ts = String(Math.floor(Date.now() / 1000));
    const ghost = JSON.stringify({ id: 'x2', event: 'sms:received', deviceId: 'dev_ghost', payload: received('ghost') });
    const res = await fetch(`${app.url}/mobile/v1/webhooks/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-timestamp': ts, 'x-signature': webhookSignature(hooks.signingKey!, Buffer.from(ghost), ts) },
      body: ghost,
    });
    expect(res.status).toBe(401);
    expect(await incomingOf(phone.id!)).toEqual([]);
  });

  it('refuses a malformed event with 400, and acknowledges an event Hafatra does not list', async () => {
    const { phone, hooks } = await pairedPhone();
    expect((await hooks.fire('sms:received', { message: 'no sender', receivedAt: 'x' })).status).toBe(400);
    expect((await hooks.fire('sms:received', { ...received('x'), simNumber: 'one' })).status).toBe(400);
    expect((await hooks.fire('app:started', { simCards: [{ slotIndex: 99 }] })).status).toBe(400);
    const url = hooks.urls.get('sms:received')!;
    for (const body of ['[]', 'null', '{', '"text"', JSON.stringify({ id: 'x', event: 'sms:received', deviceId: phone.id, payload: 'nope' })]) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(res.status, body).toBe(400);
      expect((await res.json()).error.code).toBe('invalid_request');
    }
    const huge = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pad: 'x'.repeat(300 * 1024) }) });
    expect(huge.status).toBe(413);
    // A received SMS whose date the server cannot read is stored with the server's time.
    const res = await hooks.fire('sms:received', { ...received('no date'), receivedAt: 'yesterday' });
    expect(res.status).toBe(204);
    expect(Math.abs(Date.parse((await incomingOf(phone.id!))[0]!.receivedAt) - Date.now())).toBeLessThan(60_000);

    expect((await hooks.fire('sms:cancelled', { messageId: 'm1', recipient: '+261340000000' }, { url: hooks.urls.get('sms:sent') })).status).toBe(204);
    expect((await incomingOf(phone.id!)).map((m) => m.body)).toEqual(['no date']);
  });

  it('takes battery and connection from system:ping (presence, resting rule) and the unredacted SIMs from app:started', async () => {
    const { phone, hooks } = await pairedPhone();
    const ping = (level: number, charging: number) => ({
      health: {
        status: 'pass',
        version: '1.68.0',
        releaseId: 1,
        checks: {
          'battery:level': { description: 'Battery level in percent', observedUnit: 'percent', observedValue: level, status: 'pass' },
          'battery:charging': { description: 'Is the phone charging?', observedUnit: 'flags', observedValue: charging, status: 'pass' },
          'connection:status': { description: 'Internet connection status', observedUnit: 'boolean', observedValue: 1, status: 'pass' },
          'connection:cellular': { description: 'Cellular network type', observedUnit: 'index', observedValue: 4, status: 'pass' },
        },
      },
    });
    expect((await hooks.fire('system:ping', ping(9, 0))).status).toBe(204);
    const device = (await app.request('GET', `/v1/devices/${phone.id}`, { key })).body;
    // The app receives SMS without the default-SMS-app role a native phone needs.
    expect(device).toMatchObject({ battery: { percent: 9, charging: false }, networkType: '4g', status: 'online', inbound: { state: 'unlocked' } });
    const resting = () => app.ctx.redis.hget(app.ctx.keys.org(orgId).deviceState(phone.id!), 'resting');
    expect(await resting()).toBe('1');
    expect((await hooks.fire('system:ping', ping(9, 2))).status).toBe(204);
    expect(await resting()).toBe('0');
    // A ping queued while offline says "no connection" once it arrives: the phone is not rested for it.
    const offline = ping(80, 0);
    offline.health.checks['connection:status'].observedValue = 0;
    offline.health.checks['connection:cellular'].observedValue = 0;
    expect((await hooks.fire('system:ping', offline)).status).toBe(204);
    expect(await resting()).toBe('0');
    expect((await app.request('GET', `/v1/devices/${phone.id}`, { key })).body).toMatchObject({ battery: { percent: 80, charging: false }, networkType: '4g' });

    const started = { simCards: [{ slotIndex: 0, simNumber: 1, phoneNumber: '+261320000001', carrierName: 'Orange MG', iccid: '8926100000001234' }] };
    expect((await hooks.fire('app:started', started)).status).toBe(204);
    const sims = (await app.request('GET', `/v1/devices/${phone.id}`, { key })).body.sims;
    expect(sims).toMatchObject([{ subscriptionId: 0, slotIndex: 0, carrierName: 'Orange MG', phoneNumber: '+261320000001' }]);
  });

  it('merges sms:sent, sms:delivered and sms:failed with the PATCH reports: each step once, never backwards, only for its own jobs', async () => {
    const { phone, hooks } = await pairedPhone({ autopilot: false });
    await phone.start();
    const id = await send(app, key, { deviceId: phone.id });
    await expect.poll(() => phone.local.has(id)).toBe(true);
    const m = phone.local.get(id)!;
    const sentAt = new Date(Date.now() - 2000);
    // The webhook may come before the PATCH that says Processed: the steps before it are taken.
    expect((await hooks.fire('sms:sent', { messageId: id, partsCount: 1, sentAt: phone.formatDate(sentAt), recipient: '+261341234567', simNumber: 1, phoneNumber: '+261341234567' })).status).toBe(204);
    expect(await statusOf(app, key, id)).toBe('sent');
    await phone.move(m, 'Processed');
    await phone.move(m, 'Sent');
    expect(await statusOf(app, key, id)).toBe('sent');
    expect((await hooks.fire('sms:delivered', { messageId: id, deliveredAt: phone.formatDate(new Date()), recipient: '+261341234567', phoneNumber: '+261341234567' })).status).toBe(204);
    await phone.move(m, 'Delivered');
    // Repeats and older news change nothing.
    expect((await hooks.fire('sms:sent', { messageId: id, sentAt: phone.formatDate(sentAt), recipient: '+261341234567', phoneNumber: '+261341234567' })).status).toBe(204);
    const message = await messageOf(app, key, id);
    expect(message.status).toBe('delivered');
    const moves = message.events.map((e: { toStatus: string }) => e.toStatus);
    expect(moves.filter((s: string) => s === 'sending')).toHaveLength(1);
    expect(moves.filter((s: string) => s === 'sent')).toHaveLength(1);
    expect(moves.filter((s: string) => s === 'delivered')).toHaveLength(1);
    expect(Date.parse(message.events.find((e: { toStatus: string }) => e.toStatus === 'sent').at)).toBe(sentAt.getTime());

    const failing = await send(app, key, { deviceId: phone.id });
    await expect.poll(() => phone.local.has(failing)).toBe(true);
    const reason = 'Send result: RESULT_ERROR_NO_SERVICE (Failed because service is currently unavailable)';
    expect((await hooks.fire('sms:failed', { messageId: failing, failedAt: phone.formatDate(new Date()), reason, recipient: '+261341234567', phoneNumber: '+261341234567' })).status).toBe(204);
    expect(await messageOf(app, key, failing)).toMatchObject({ status: 'failed', failureCode: 'no_service' });

    // Another phone's webhook about this job, or about no job at all: acknowledged, nothing moves.
    const other = await pairedPhone();
    const third = await send(app, key, { deviceId: phone.id });
    await expect.poll(() => phone.local.has(third)).toBe(true);
    expect((await other.hooks.fire('sms:sent', { messageId: third, recipient: '+261341234567', phoneNumber: '+261341234567' })).status).toBe(204);
    expect((await other.hooks.fire('sms:delivered', { messageId: 'msg_nothing', recipient: '+261341234567', phoneNumber: '+261341234567' })).status).toBe(204);
    expect(await statusOf(app, key, third)).toBe('claimed');
    phone.disconnect();
  });
});
