import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.js';
import { markSocket, markSockets, socketStateWriter } from '../../src/devices/heartbeat.js';
import { heartbeat, pairPhone, startDevicesApp } from './support.js';
import { startPresenceLease, type PresenceLease } from '../../src/devices/presence.js';

let app: TestApp;
let orgId: string;
let key: string;
/** Opens are written under a live lease, as a socket server writes them: any worker's presence sweep leaves them be. */
let lease: PresenceLease;

beforeAll(async () => {
  app = await startDevicesApp({ onlineWindowSeconds: 1 });
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
  lease = startPresenceLease(app.ctx, () => []);
  await lease.ready;
});
afterAll(async () => {
  await lease.stop();
  await app.close();
});

const device = async (id: string) => (await app.request('GET', `/v1/devices/${id}`, { key })).body;
const setLastSeen = (id: string, secondsAgo: number) => app.ctx.db.query(`UPDATE devices SET last_seen_at = now() - $2 * interval '1 second' WHERE id = $1`, [id, secondsAgo]);

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
    const generation = await markSocket(app.ctx, phone.deviceId, true, undefined, lease.processId);
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
    const first = await markSocket(app.ctx, phone.deviceId, true, undefined, lease.processId);
    const second = await markSocket(app.ctx, phone.deviceId, true, undefined, lease.processId);
    expect(second).toBe(first! + 1);
    expect(await markSocket(app.ctx, phone.deviceId, false, first!)).toBeNull();
    expect((await device(phone.deviceId)).socket.connected).toBe(true);
    expect(await markSocket(app.ctx, phone.deviceId, false, second!)).toBe(second);
    expect((await device(phone.deviceId)).socket.connected).toBe(false);
  });

  it('is revoked once revoked, whatever the socket and heartbeat say', async () => {
    const phone = await pairPhone(app, orgId);
    await markSocket(app.ctx, phone.deviceId, true, undefined, lease.processId);
    await heartbeat(app, phone.token, {});
    await app.request('DELETE', `/v1/devices/${phone.deviceId}`, { key });
    expect(await device(phone.deviceId)).toMatchObject({ status: 'revoked', socket: { connected: false } });
    expect(await markSocket(app.ctx, phone.deviceId, true, undefined, lease.processId)).toBeNull();
    expect((await device(phone.deviceId)).status).toBe('revoked');
  });

  it('marks many phones in one batch, a phone marked twice in its order, a stale close ignored', async () => {
    const [a, b, c] = [await pairPhone(app, orgId), await pairPhone(app, orgId), await pairPhone(app, orgId)];
    const gb = await markSocket(app.ctx, b.deviceId, true, undefined, lease.processId);
    const results = await markSockets(app.ctx, [
      { deviceId: a.deviceId, connected: true, processId: lease.processId },
      { deviceId: b.deviceId, connected: false, generation: gb! - 1 },
      { deviceId: c.deviceId, connected: true, processId: lease.processId },
      { deviceId: a.deviceId, connected: false, generation: 1 },
    ]);
    expect(results).toEqual([1, null, 1, 1]);
    expect((await device(a.deviceId)).socket.connected).toBe(false);
    expect((await device(b.deviceId)).socket.connected).toBe(true);
    expect((await device(c.deviceId)).socket.connected).toBe(true);
  });

  it('writes the opens and closes of many sockets at once, each answered with its own generation', async () => {
    const phones = await Promise.all(Array.from({ length: 20 }, () => pairPhone(app, orgId)));
    const mark = socketStateWriter(app.ctx);
    const opened = await Promise.all(phones.map((p) => mark(p.deviceId, true, undefined, lease.processId)));
    expect(opened).toEqual(phones.map(() => 1));
    const closed = await Promise.all(phones.map((p, i) => mark(p.deviceId, false, opened[i]!)));
    expect(closed).toEqual(opened);
    for (const p of phones.slice(0, 3)) expect((await device(p.deviceId)).socket.connected).toBe(false);
  });
});
