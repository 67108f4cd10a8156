import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.js';
import { expectError } from '../api/expect-error.js';
import { HeartbeatReplySchema } from '../../src/devices/schemas.js';
import { heartbeat, pairPhone, schemaErrors, startDevicesApp } from './support.js';

let app: TestApp;
let orgId: string;
let key: string;

beforeAll(async () => {
  app = await startDevicesApp({ inboundFreshnessSeconds: 60 });
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
});
afterAll(() => app.close());

const device = async (id: string) => (await app.request('GET', `/v1/devices/${id}`, { key })).body;
const sim = (subscriptionId: number, extra: object = {}) => ({ subscriptionId, slotIndex: subscriptionId - 1, carrierName: 'Orange', ...extra });

describe('POST /device/v1/heartbeat', () => {
  it('answers serverTime and inbound, and fills every reported field', async () => {
    const phone = await pairPhone(app, orgId);
    const res = await heartbeat(app, phone.token, {
      battery: { percent: 42, charging: false },
      networkType: 'lte',
      uptimeSeconds: 120,
      freeStorageBytes: 1234,
      appVersion: '2.0.0',
      defaultSmsApp: true,
      sentAt: new Date().toISOString(),
      sims: [sim(1), sim(2, { phoneNumber: '+261320000000' })],
    });
    expect(res.status).toBe(200);
    expect(schemaErrors(HeartbeatReplySchema, res.body)).toEqual([]);
    expect(res.body.warning).toBeUndefined();
    expect(Math.abs(Date.parse(res.body.serverTime) - Date.now())).toBeLessThan(5000);
    expect(res.body.inbound).toEqual({ state: 'unlocked' });
    expect(await device(phone.deviceId)).toMatchObject({
      status: 'online',
      battery: { percent: 42, charging: false },
      networkType: 'lte',
      uptimeSeconds: 120,
      freeStorageBytes: 1234,
      appVersion: '2.0.0',
      inbound: { state: 'unlocked' },
      sims: [
        { subscriptionId: 1, slotIndex: 0, carrierName: 'Orange', displayName: null, phoneNumber: null, countryIso: null, removedAt: null },
        { subscriptionId: 2, slotIndex: 1, carrierName: 'Orange', phoneNumber: '+261320000000', removedAt: null },
      ],
    });
  });

  it('keeps omitted fields and clears fields sent as null', async () => {
    const phone = await pairPhone(app, orgId);
    await heartbeat(app, phone.token, { battery: { percent: 90, charging: true }, networkType: 'wifi', appVersion: '1.0' });
    await heartbeat(app, phone.token, { networkType: null });
    expect(await device(phone.deviceId)).toMatchObject({ battery: { percent: 90, charging: true }, networkType: null, appVersion: '1.0' });
  });

  it('marks a SIM no longer reported as removed, and a returning one as present again', async () => {
    const phone = await pairPhone(app, orgId);
    await heartbeat(app, phone.token, { sims: [sim(1), sim(2)] });
    const before = (await device(phone.deviceId)).sims;
    const firstSeen = before.find((s: { subscriptionId: number }) => s.subscriptionId === 2);
    const lastOfOne = before.find((s: { subscriptionId: number }) => s.subscriptionId === 1).lastSeenAt;
    await new Promise((r) => setTimeout(r, 20));
    await heartbeat(app, phone.token, { sims: [sim(2)] });
    let sims = (await device(phone.deviceId)).sims;
    // the card still reported keeps its firstSeenAt and moves its lastSeenAt; the removed one keeps its last sighting
    expect(sims[0].firstSeenAt).toBe(firstSeen.firstSeenAt);
    expect(Date.parse(sims[0].lastSeenAt)).toBeGreaterThan(Date.parse(firstSeen.lastSeenAt));
    expect(sims[1].lastSeenAt).toBe(lastOfOne);
    expect(sims.map((s: { subscriptionId: number }) => s.subscriptionId)).toEqual([2, 1]);
    expect(sims[0].removedAt).toBeNull();
    expect(Date.now() - Date.parse(sims[1].removedAt)).toBeLessThan(10_000);
    await heartbeat(app, phone.token, {});
    expect((await device(phone.deviceId)).sims[1].removedAt).not.toBeNull();
    await heartbeat(app, phone.token, { sims: [sim(1, { carrierName: 'Airtel' }), sim(2)] });
    sims = (await device(phone.deviceId)).sims;
    expect(sims).toMatchObject([
      { subscriptionId: 1, carrierName: 'Airtel', removedAt: null },
      { subscriptionId: 2, removedAt: null },
    ]);
    await heartbeat(app, phone.token, { sims: [] });
    expect((await device(phone.deviceId)).sims.every((s: { removedAt: string | null }) => s.removedAt !== null)).toBe(true);
  });

  it('reads the default-SMS-app report into inbound: not reported, not default, stale, unlocked', async () => {
    const phone = await pairPhone(app, orgId);
    expect((await heartbeat(app, phone.token, {})).body.inbound).toEqual({ state: 'locked', reason: 'not_reported' });
    expect((await heartbeat(app, phone.token, { defaultSmsApp: false })).body.inbound).toEqual({ state: 'locked', reason: 'not_default_sms_app' });
    expect((await heartbeat(app, phone.token, { defaultSmsApp: true })).body.inbound).toEqual({ state: 'unlocked' });
    await app.ctx.db.query(`UPDATE devices SET default_sms_app_reported_at = now() - interval '61 seconds' WHERE id = $1`, [phone.deviceId]);
    expect((await device(phone.deviceId)).inbound).toEqual({ state: 'locked', reason: 'stale' });
    expect((await heartbeat(app, phone.token, {})).body.inbound).toEqual({ state: 'locked', reason: 'stale' });
    expect((await heartbeat(app, phone.token, { defaultSmsApp: true })).body.inbound).toEqual({ state: 'unlocked' });
  });

  it('warns clock_skew when sentAt is more than 5 minutes off, and keeps server time', async () => {
    const phone = await pairPhone(app, orgId);
    const ahead = await heartbeat(app, phone.token, { sentAt: new Date(Date.now() + 10 * 60_000).toISOString() });
    expect(ahead.status).toBe(200);
    expect(ahead.body.warning).toMatchObject({ code: 'clock_skew' });
    expect(ahead.body.warning.message).toMatch(/\b6\d\d s off/);
    expect(Math.abs(Date.parse(ahead.body.serverTime) - Date.now())).toBeLessThan(5000);
    expect(Math.abs(Date.parse((await device(phone.deviceId)).lastSeenAt) - Date.now())).toBeLessThan(5000);
    const behind = await heartbeat(app, phone.token, { sentAt: new Date(Date.now() - 6 * 60_000).toISOString() });
    expect(behind.body.warning.message).toMatch(/-3\d\d s off/);
    const close = await heartbeat(app, phone.token, { sentAt: new Date(Date.now() - 4 * 60_000).toISOString() });
    expect(close.body.warning).toBeUndefined();
  });

  it.each([
    ['a battery percent above 100', { battery: { percent: 101, charging: null } }, 'battery.percent'],
    ['a battery without charging', { battery: { percent: 50 } }, 'battery.charging'],
    ['a negative uptime', { uptimeSeconds: -1 }, 'uptimeSeconds'],
    ['a SIM without subscriptionId', { sims: [{ slotIndex: 0 }] }, 'sims[0].subscriptionId'],
    ['a sentAt that is not a date-time', { sentAt: 'yesterday' }, 'sentAt'],
    ['a sentAt with an impossible date', { sentAt: '2025-13-45T10:00:00Z' }, 'sentAt'],
    ['defaultSmsApp as a string', { defaultSmsApp: 'true' }, 'defaultSmsApp'],
  ])('refuses %s with 400 naming the field', async (_what, body, field) => {
    const phone = await pairPhone(app, orgId);
    expectError(await heartbeat(app, phone.token, body), 400, 'invalid_request', new RegExp(`^${field.replace(/[[\].]/g, '\\$&')}\\b`));
  });

  it('ignores fields it does not know (newer apps)', async () => {
    const phone = await pairPhone(app, orgId);
    expect((await heartbeat(app, phone.token, { type: 'heartbeat', ref: 'r1', thermalState: 'nominal' })).status).toBe(200);
  });

  it('answers 401 without a token, with an unknown token, and with an API key', async () => {
    expectError(await app.request('POST', '/device/v1/heartbeat', { body: {} }), 401, 'unauthorized');
    expectError(await heartbeat(app, `hfd_${'A'.repeat(43)}`, {}), 401, 'unauthorized');
    expectError(await heartbeat(app, key, {}), 401, 'unauthorized');
  });
});
