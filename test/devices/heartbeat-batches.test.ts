import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { recordHeartbeat } from '../../src/devices/heartbeat.js';
import type { DevicePrincipal } from '../../src/auth/principal.js';

let app: TestApp;
let orgId: string;

beforeAll(async () => {
  app = await startTestApp();
  orgId = (await app.createOrg()).org.id;
});
afterAll(() => app.close());

const phone = async (opts: { revoked?: boolean } = {}): Promise<DevicePrincipal> => ({ kind: 'device', orgId, deviceId: await insertTestDevice(app.ctx, orgId, opts) });

async function row(deviceId: string) {
  const { rows } = await app.ctx.db.query(
    'SELECT battery_percent, battery_charging, network_type, app_version, uptime_seconds, default_sms_app, default_sms_app_reported_at, last_seen_at FROM devices WHERE id = $1',
    [deviceId],
  );
  return rows[0];
}

describe('heartbeats of one turn, written together', () => {
  it('gives each phone its own values, whatever columns each reported, and keeps what a heartbeat left out', async () => {
    const [a, b, c] = await Promise.all([phone(), phone(), phone()]);
    await recordHeartbeat(app.ctx, c!, { appVersion: '1.0.0', uptimeSeconds: 10 });
    const replies = await Promise.all([
      recordHeartbeat(app.ctx, a!, { battery: { percent: 80, charging: true }, networkType: 'wifi' }),
      recordHeartbeat(app.ctx, b!, { battery: { percent: 12, charging: false }, networkType: 'lte' }),
      recordHeartbeat(app.ctx, c!, { networkType: 'none', defaultSmsApp: true }),
    ]);
    expect(replies.every((r) => typeof r.serverTime === 'string')).toBe(true);
    expect(await row(a!.deviceId)).toMatchObject({ battery_percent: 80, battery_charging: true, network_type: 'wifi', default_sms_app_reported_at: null });
    expect(await row(b!.deviceId)).toMatchObject({ battery_percent: 12, battery_charging: false, network_type: 'lte' });
    const third = await row(c!.deviceId);
    expect(third).toMatchObject({ network_type: 'none', app_version: '1.0.0', uptime_seconds: 10, default_sms_app: true, battery_percent: null });
    expect(third.default_sms_app_reported_at).toBeInstanceOf(Date);
    for (const p of [a, b, c]) expect((await row(p!.deviceId)).last_seen_at).toBeInstanceOf(Date);
  });

  it("applies one phone's heartbeats of a turn in order: the last one's values stand", async () => {
    const p = await phone();
    await Promise.all([recordHeartbeat(app.ctx, p, { battery: { percent: 50, charging: false } }), recordHeartbeat(app.ctx, p, { battery: { percent: 49, charging: false } })]);
    expect((await row(p.deviceId)).battery_percent).toBe(49);
  });

  it('refuses a revoked phone beside live ones, and writes nothing of it', async () => {
    const [live, revoked] = await Promise.all([phone(), phone({ revoked: true })]);
    const [ok, refused] = await Promise.allSettled([recordHeartbeat(app.ctx, live!, { networkType: 'wifi' }), recordHeartbeat(app.ctx, revoked!, { networkType: 'wifi' })]);
    expect(ok.status).toBe('fulfilled');
    expect(refused.status === 'rejected' && (refused.reason as { code?: string }).code).toBe('unauthorized');
    expect(await row(revoked!.deviceId)).toMatchObject({ network_type: null, last_seen_at: null });
  });
});
