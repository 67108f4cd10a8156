import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.js';
import { markSocket } from '../../src/devices/heartbeat.js';
import { heartbeat, pairPhone, startDevicesApp } from './support.js';

let app: TestApp;
let orgId: string;
let key: string;

beforeAll(async () => {
  app = await startDevicesApp({ onlineWindowSeconds: 1 });
  ({ org: { id: orgId }, key } = await app.createOrg());
});
afterAll(() => app.close());

const device = async (id: string) => (await app.request('GET', `/v1/devices/${id}`, { key })).body;
const setLastSeen = (id: string, secondsAgo: number) =>
  app.ctx.db.query(`UPDATE devices SET last_seen_at = now() - $2 * interval '1 second' WHERE id = $1`, [id, secondsAgo]);

describe('device status', () => {
  it('is never_seen until the phone calls, online after, stale once the window passes', async () => {
    const phone = await pairPhone(app, orgId);
    expect((await device(phone.deviceId)).status).toBe('never_seen');
    await heartbeat(app, phone.token, {});
    expect((await device(phone.deviceId)).status).toBe('online');
    await setLastSeen(phone.deviceId, 2);
    const stale = await device(phone.deviceId);
    expect(stale.status).toBe('stale');
    expect(Date.now() - Date.parse(stale.lastSeenAt)).toBeGreaterThanOrEqual(2000);
  });

  it('becomes stale by time alone, with nothing rewriting the row', async () => {
    const phone = await pairPhone(app, orgId);
    await heartbeat(app, phone.token, {});
    expect((await device(phone.deviceId)).status).toBe('online');
    await new Promise((r) => setTimeout(r, 1300));
    expect((await device(phone.deviceId)).status).toBe('stale');
  });

  it('is online while a socket is open, however long ago the last heartbeat', async () => {
    const phone = await pairPhone(app, orgId);
    const generation = await markSocket(app.ctx, phone.deviceId, true);
    await setLastSeen(phone.deviceId, 3600);
    const open = await device(phone.deviceId);
    expect(open).toMatchObject({ status: 'online', socket: { connected: true } });
    expect(Date.now() - Date.parse(open.socket.lastChangedAt)).toBeLessThan(10_000);
    await markSocket(app.ctx, phone.deviceId, false, generation!);
    await setLastSeen(phone.deviceId, 3600);
    expect(await device(phone.deviceId)).toMatchObject({ status: 'stale', socket: { connected: false } });
  });

  it('a late close of an older socket does not hide a newer one', async () => {
    const phone = await pairPhone(app, orgId);
    const first = await markSocket(app.ctx, phone.deviceId, true);
    const second = await markSocket(app.ctx, phone.deviceId, true);
    expect(second).toBe(first! + 1);
    expect(await markSocket(app.ctx, phone.deviceId, false, first!)).toBeNull();
    expect((await device(phone.deviceId)).socket.connected).toBe(true);
    expect(await markSocket(app.ctx, phone.deviceId, false, second!)).toBe(second);
    expect((await device(phone.deviceId)).socket.connected).toBe(false);
  });

  it('is revoked once revoked, whatever the socket and heartbeat say', async () => {
    const phone = await pairPhone(app, orgId);
    await markSocket(app.ctx, phone.deviceId, true);
    await heartbeat(app, phone.token, {});
    await app.request('DELETE', `/v1/devices/${phone.deviceId}`, { key });
    expect(await device(phone.deviceId)).toMatchObject({ status: 'revoked', socket: { connected: false } });
    expect(await markSocket(app.ctx, phone.deviceId, true)).toBeNull();
    expect((await device(phone.deviceId)).status).toBe('revoked');
  });
});
