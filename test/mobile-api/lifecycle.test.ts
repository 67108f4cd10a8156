import { describe, expect, it } from 'vitest';
import { messageOf, registeredPhone, send, startedPhone, statusOf, useMobileApp } from './support.js';

const env = useMobileApp();

const deviceOf = async (id: string) => (await env.app.request('GET', `/v1/devices/${id}`, { key: env.key })).body;

describe('revoking an app phone', () => {
  it('closes its stream, answers every mobile call 401, and settles what it held', async () => {
    const phone = await startedPhone(env.app, env.orgId);
    const id = await send(env.app, env.key, { deviceId: phone.id });
    await expect.poll(() => phone.local.has(id)).toBe(true);
    const ended = phone.streamEnded();
    expect((await env.app.request('DELETE', `/v1/devices/${phone.id}`, { key: env.key })).status).toBe(200);
    await ended;
    const calls: [string, string, unknown?][] = [
      ['GET', '/message'],
      ['GET', '/messages'],
      ['PATCH', '/message', phone.reportBody({ ...phone.local.get(id)!, state: 'Sent' })],
      ['PATCH', '/device', { id: phone.id, simCards: [] }],
      ['GET', '/device'],
      ['PATCH', '/user/password', { currentPassword: 'x'.repeat(14), newPassword: 'y'.repeat(14) }],
    ];
    for (const [method, path, body] of calls) expect((await phone.call(method, path, body)).status, `${method} ${path}`).toBe(401);
    expect((await phone.connect()).status).toBe(401);
    expect(await statusOf(env.app, env.key, id)).toBe('unknown');
    expect((await deviceOf(phone.id!)).status).toBe('revoked');
  });
});

describe('presence', () => {
  it('counts an open event stream as a connected phone in hafatra_phones_connected', async () => {
    const connected = async () => {
      const gauge = env.app.ctx.metrics.registry.getSingleMetric('hafatra_phones_connected')!;
      return (await gauge.get()).values[0]!.value;
    };
    const before = await connected();
    const phone = await registeredPhone(env.app, env.orgId);
    await phone.connect();
    await expect.poll(connected).toBe(before + 1);
    phone.disconnect();
    await expect.poll(connected).toBe(before);
  });

  it('is online while its stream is open or it called within the window, never_seen before', async () => {
    const phone = await registeredPhone(env.app, env.orgId);
    // Registration is no call of the phone's own yet.
    expect((await deviceOf(phone.id!)).status).toBe('never_seen');
    await phone.call('GET', '/message');
    expect((await deviceOf(phone.id!)).status).toBe('online');
    expect((await deviceOf(phone.id!)).socket.connected).toBe(false);
  });
});

describe('older app versions', () => {
  it('before 1.39.1 the app reads only `message`: it is always sent', async () => {
    const phone = await startedPhone(env.app, env.orgId, { version: '1.38.0', autopilot: true });
    const id = await send(env.app, env.key, { deviceId: phone.id, body: 'Tonga soa' });
    await expect.poll(() => statusOf(env.app, env.key, id)).toBe('delivered');
    expect(phone.local.get(id)!.text).toBe('Tonga soa');
    expect((await deviceOf(phone.id!)).appVersion).toBe('SMS Gateway for Android 1.38.0');
    phone.disconnect();
  });

  it('before 1.53.1 the app does not pull when its stream opens: it is told to', async () => {
    const phone = await registeredPhone(env.app, env.orgId, { version: '1.50.0', autopilot: true });
    const id = await send(env.app, env.key, { deviceId: phone.id });
    await phone.start(); // no pull of its own
    await expect.poll(() => statusOf(env.app, env.key, id)).toBe('delivered');
    expect(phone.events.map((e) => e.event)).toContain('MessageEnqueued');
    expect((await messageOf(env.app, env.key, id)).deviceId).toBe(phone.id);
    phone.disconnect();
  });
});

describe('account calls', () => {
  it('GET /user/code and PATCH /user/password answer 501: phones have no login in Hafatra', async () => {
    const phone = await registeredPhone(env.app, env.orgId);
    expect((await phone.call('GET', '/user/code', undefined, 'Basic VlE0R0lJOmNwMnB5ZHZ4ZDJ6d3B4')).status).toBe(501);
    const res = await phone.call('PATCH', '/user/password', { currentPassword: 'x'.repeat(14), newPassword: 'y'.repeat(14) });
    expect(res.status).toBe(501);
    expect(res.body.error.message).toMatch(/pair/);
  });
});
