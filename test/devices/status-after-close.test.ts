import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.js';
import { signedInMember, type SignedInMember } from '../support/members.js';
import { markSocket } from '../../src/devices/heartbeat.js';
import { startPresenceLease, type PresenceLease } from '../../src/devices/presence.js';
import { heartbeat, pairPhone, startDevicesApp } from './support.js';

/**
 * A phone whose socket closed is not online, though it was seen a second ago: the five-minute
 * window is for phones that poll over HTTP, not for one that just left (issue 33).
 */
let app: TestApp;
let orgId: string;
let key: string;
let owner: SignedInMember;
let lease: PresenceLease;

beforeAll(async () => {
  app = await startDevicesApp({ onlineWindowSeconds: 300 });
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
  owner = await signedInMember(app, orgId, 'owner');
  lease = startPresenceLease(app.ctx, () => []);
  await lease.ready;
});
afterAll(async () => {
  await lease.stop();
  await app.close();
});

const device = async (id: string) => (await app.request('GET', `/v1/devices/${id}`, { key })).body;
const devicesCount = async () => (await app.request('GET', '/dashboard/v1/overview', { headers: owner.headers })).body.devices;

describe('a phone whose socket closed', () => {
  it('is stale at once, in its record and in the overview, and online again when it calls', async () => {
    const phone = await pairPhone(app, orgId);
    const generation = await markSocket(app.ctx, phone.deviceId, true, undefined, lease.processId);
    expect(await device(phone.deviceId)).toMatchObject({ status: 'online', socket: { connected: true } });
    expect(await devicesCount()).toMatchObject({ online: 1, stale: 0 });

    await markSocket(app.ctx, phone.deviceId, false, generation!);
    const closed = await device(phone.deviceId);
    expect(closed).toMatchObject({ status: 'stale', socket: { connected: false } });
    expect(Date.now() - Date.parse(closed.lastSeenAt)).toBeLessThan(300_000);
    expect(await devicesCount()).toMatchObject({ online: 0, stale: 1 });

    // A phone that polls over HTTP after its socket closed is heard again: online.
    await app.ctx.db.query(`UPDATE devices SET socket_changed_at = now() - interval '20 seconds', last_seen_at = now() - interval '20 seconds' WHERE id = $1`, [phone.deviceId]);
    expect((await heartbeat(app, phone.token, {})).status).toBeLessThan(300);
    expect((await device(phone.deviceId)).status).toBe('online');
    expect(await devicesCount()).toMatchObject({ online: 1, stale: 0 });
  });

  it('a phone that never had a socket is online while it calls within the window', async () => {
    const phone = await pairPhone(app, orgId);
    await heartbeat(app, phone.token, {});
    expect(await device(phone.deviceId)).toMatchObject({ status: 'online', socket: { connected: false, lastChangedAt: null } });
  });
});
