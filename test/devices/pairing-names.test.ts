import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.js';
import { signedInMember } from '../support/members.js';
import { phoneReachableBase } from '../../src/tls/lan-names.js';
import { pairPhone, startDevicesApp } from './support.js';

/** Two phones are told apart, and the pairing dialog names an address a phone can reach (issue 33). */
let app: TestApp;
let orgId: string;
let key: string;

beforeAll(async () => {
  app = await startDevicesApp();
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
});
afterAll(async () => {
  await app?.close();
});

const names = async () =>
  ((await app.request('GET', '/v1/devices', { key })).body.devices as { name: string; status: string }[])
    .filter((d) => d.status !== 'revoked')
    .map((d) => d.name)
    .sort();

describe("a paired phone's name", () => {
  it('is made unique when two phones send the same one; an operator-given name is kept as given', async () => {
    await pairPhone(app, orgId, { name: 'Simulated phone 1' });
    const second = await pairPhone(app, orgId, { name: 'Simulated phone 1' });
    await pairPhone(app, orgId, { name: 'Simulated phone 1' });
    expect(await names()).toEqual(['Simulated phone 1', 'Simulated phone 1 (2)', 'Simulated phone 1 (3)']);
    // A revoked phone's name is free again.
    expect((await app.request('DELETE', `/v1/devices/${second.deviceId}`, { key })).status).toBe(200);
    await pairPhone(app, orgId, { name: 'Simulated phone 1' });
    expect(await names()).toEqual(['Simulated phone 1', 'Simulated phone 1 (2)', 'Simulated phone 1 (3)']);
    // Named in the dashboard: that name, whatever the phone sends.
    const admin = await signedInMember(app, orgId, 'admin');
    const made = await app.request('POST', '/dashboard/v1/pairings', { headers: admin.headers, body: { name: 'Front desk' } });
    expect(made.status).toBe(201);
    // This test server listens on 127.0.0.1 alone: the dialog is told no phone can reach it.
    expect(made.body).toMatchObject({ server: new URL(app.url).origin, serverReachable: false });
    const res = await app.request('POST', '/device/v1/pair', { body: { code: made.body.code, name: 'Simulated phone 1' } });
    expect(res.status).toBe(200);
    expect(await names()).toContain('Front desk');
  });
});

describe('the address a pairing shows', () => {
  const lan = ['192.168.1.20', 'box', 'localhost', '127.0.0.1'];
  it('is the LAN address when the browser uses localhost and the server listens on every interface, over HTTP too', () => {
    expect(phoneReachableBase('http://localhost:3000', false, lan, true)).toBe('http://192.168.1.20:3000');
    expect(phoneReachableBase('https://127.0.0.1:3000', true, lan, false)).toBe('https://192.168.1.20:3000');
  });
  it('stays as it is when the server listens on loopback alone, or the browser already uses a reachable name', () => {
    expect(phoneReachableBase('http://localhost:3000', false, lan, false)).toBe('http://localhost:3000');
    expect(phoneReachableBase('http://sms.example.org', false, lan, true)).toBe('http://sms.example.org');
    expect(phoneReachableBase('http://localhost:3000', false, ['localhost', '127.0.0.1'], true)).toBe('http://localhost:3000');
  });
});
