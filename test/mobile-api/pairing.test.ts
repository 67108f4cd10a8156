import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createPairingCode } from '../../src/devices/pairing.js';
import { AndroidApp } from '../support/android-app.js';
import { useMobileApp } from './support.js';

const env = useMobileApp();

const newCode = async (name?: string) => (await createPairingCode(env.app.ctx, env.orgId, name)).code;
const deviceCount = async () => (await env.app.request('GET', '/v1/devices', { key: env.key })).body.devices.length as number;

describe('registering SMS Gateway for Android with a pairing code', () => {
  it("makes a device of the code's organization: its name, SIMs and app version shown, its token stored hashed", async () => {
    const phone = new AndroidApp(env.app.url, {
      name: 'Google/oriole',
      simCards: [{ slotIndex: 0, carrierName: 'Orange MG', phoneNumber: '+261320000001', iccid: '8926100000001234' }, { slotIndex: 1 }],
    });
    const res = await phone.register(await newCode());
    expect(res.status).toBe(201);
    expect(res.contentType).toBe('application/json');
    expect(Object.keys(res.body).sort()).toEqual(['id', 'login', 'token']);
    expect(res.body.token).toMatch(/^hfd_[A-Za-z0-9_-]{43}$/);
    const row = (await env.app.ctx.db.query('SELECT token_hash, org_id, protocol, confirms_cancellation FROM devices WHERE id = $1', [phone.id])).rows[0];
    expect(row).toMatchObject({ org_id: env.orgId, protocol: 'mobile', confirms_cancellation: true });
    expect((row.token_hash as Buffer).toString('hex')).toBe(createHash('sha256').update(phone.token!).digest('hex'));
    const device = (await env.app.request('GET', `/v1/devices/${phone.id}`, { key: env.key })).body;
    expect(device).toMatchObject({ name: 'Google/oriole', model: 'Google/oriole', appVersion: 'SMS Gateway for Android 1.68.0' });
    // Redacted values (`****e MG`) say nothing: they are not stored.
    expect(device.sims.map((s: { subscriptionId: number; slotIndex: number; carrierName: string | null }) => [s.subscriptionId, s.slotIndex, s.carrierName])).toEqual([
      [0, 0, null],
      [1, 1, null],
    ]);
  });

  it("takes the code as `Code <code>` too, in any case and without its dash; the operator's name wins", async () => {
    const phone = new AndroidApp(env.app.url);
    const code = await newCode('Front desk');
    expect((await phone.register(code.replace('-', '').toLowerCase(), 'Code')).status).toBe(201);
    expect((await env.app.request('GET', `/v1/devices/${phone.id}`, { key: env.key })).body.name).toBe('Front desk');
  });

  it('refuses a wrong, spent or missing code with 401 and creates nothing', async () => {
    const before = await deviceCount();
    const code = await newCode();
    expect((await new AndroidApp(env.app.url).register(code)).status).toBe(201);
    for (const auth of [`Bearer ${code}`, 'Bearer 0000-0000', 'Basic VlE0R0lJOmNwMnB5ZHZ4ZDJ6d3B4', undefined]) {
      const res = await new AndroidApp(env.app.url).call('POST', '/device', { name: 'x/y', simCards: [] }, auth);
      expect(res.status).toBe(401);
    }
    expect(await deviceCount()).toBe(before + 1);
  });

  it('answers PATCH and GET /device for the phone, on a doubled slash too', async () => {
    const phone = new AndroidApp(env.app.url, { version: '1.60.2' });
    await phone.register(await newCode());
    expect((await phone.call('PATCH', '/device', { id: phone.id, simCards: [{ slotIndex: 1, simNumber: 2 }] })).status).toBe(204);
    const device = (await env.app.request('GET', `/v1/devices/${phone.id}`, { key: env.key })).body;
    expect(device.appVersion).toBe('SMS Gateway for Android 1.60.2');
    expect(device.sims.filter((s: { removedAt: string | null }) => s.removedAt === null).map((s: { slotIndex: number }) => s.slotIndex)).toEqual([1]);
    const res = await fetch(`${env.app.url}/mobile/v1//device`, { headers: { authorization: `Bearer ${phone.token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ externalIp: '127.0.0.1' });
    // Another device's id in the body: refused, nothing changed.
    expect((await phone.call('PATCH', '/device', { id: 'dev_someone_else', simCards: [] })).status).toBe(403);
  });
});

describe('the event stream', () => {
  it('opens as text/event-stream, asks the phone to sync its webhooks and settings, and keeps the phone online', async () => {
    const phone = new AndroidApp(env.app.url);
    await phone.register(await newCode());
    const stream = await phone.connect();
    expect(stream.status).toBe(200);
    expect(stream.contentType).toBe('text/event-stream');
    await expect.poll(() => phone.events.map((e) => e.event)).toEqual(['WebhooksUpdated', 'SettingsUpdated']);
    await expect.poll(async () => (await env.app.request('GET', `/v1/devices/${phone.id}`, { key: env.key })).body.socket.connected).toBe(true);
    phone.disconnect();
    await expect.poll(async () => (await env.app.request('GET', `/v1/devices/${phone.id}`, { key: env.key })).body.socket.connected).toBe(false);
  });

  it('refuses an unknown token with 401', async () => {
    const phone = new AndroidApp(env.app.url);
    phone.token = `hfd_${'A'.repeat(43)}`;
    expect((await phone.connect()).status).toBe(401);
  });
});
