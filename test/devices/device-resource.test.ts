import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.js';
import { expectError } from '../api/expect-error.js';
import { DeviceSchema } from '../../src/devices/schemas.js';
import { heartbeat, pairPhone, schemaErrors, startDevicesApp } from './support.js';

const SPEC_FIELDS = [
  'id',
  'name',
  'model',
  'status',
  'createdAt',
  'revokedAt',
  'revokedReason',
  'lastSeenAt',
  'battery',
  'networkType',
  'uptimeSeconds',
  'freeStorageBytes',
  'appVersion',
  'outboundEnabled',
  'draining',
  'defaultSimSubscriptionId',
  'queueDepth',
  'socket',
  'inbound',
  'sims',
];

let app: TestApp;
let orgId: string;
let key: string;
let phone: { deviceId: string; token: string };

beforeAll(async () => {
  app = await startDevicesApp();
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
  phone = await pairPhone(app, orgId, { name: 'Caisse 1', model: 'Pixel 7', appVersion: '1.0.0' });
});
afterAll(() => app.close());

describe('GET /v1/devices and /v1/devices/{id}', () => {
  it('shows a freshly paired phone with every field of the spec, nullable ones as null', async () => {
    const res = await app.request('GET', `/v1/devices/${phone.deviceId}`, { key });
    expect(res.status).toBe(200);
    const d = res.body;
    for (const f of SPEC_FIELDS) expect(Object.keys(d)).toContain(f);
    expect(schemaErrors(DeviceSchema, d)).toEqual([]);
    expect(d).toMatchObject({
      id: phone.deviceId,
      name: 'Caisse 1',
      model: 'Pixel 7',
      status: 'never_seen',
      revokedAt: null,
      revokedReason: null,
      lastSeenAt: null,
      battery: { percent: null, charging: null },
      networkType: null,
      uptimeSeconds: null,
      freeStorageBytes: null,
      appVersion: '1.0.0',
      outboundEnabled: true,
      draining: false,
      defaultSimSubscriptionId: null,
      queueDepth: 0,
      socket: { connected: false, lastChangedAt: null },
      inbound: { state: 'locked', reason: 'not_reported' },
      sims: [],
    });
    expect(Date.parse(d.createdAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('shows what a heartbeat reported, with the spec types', async () => {
    const hb = await heartbeat(app, phone.token, {
      battery: { percent: 81, charging: true },
      networkType: 'wifi',
      uptimeSeconds: 3600,
      freeStorageBytes: 5_000_000_000,
      appVersion: '1.2.0',
      defaultSmsApp: true,
      sims: [{ subscriptionId: 1, slotIndex: 0, carrierName: 'Telma', displayName: 'Perso', phoneNumber: '+261340000001', countryIso: 'mg' }],
    });
    expect(hb.status).toBe(200);
    const d = (await app.request('GET', '/v1/devices', { key })).body.devices.find((x: { id: string }) => x.id === phone.deviceId);
    expect(schemaErrors(DeviceSchema, d)).toEqual([]);
    expect(d).toMatchObject({
      status: 'online',
      battery: { percent: 81, charging: true },
      networkType: 'wifi',
      uptimeSeconds: 3600,
      freeStorageBytes: 5_000_000_000,
      appVersion: '1.2.0',
      inbound: { state: 'unlocked' },
      sims: [{ subscriptionId: 1, slotIndex: 0, carrierName: 'Telma', displayName: 'Perso', phoneNumber: '+261340000001', countryIso: 'MG', removedAt: null }],
    });
    expect(Date.now() - Date.parse(d.lastSeenAt)).toBeLessThan(10_000);
  });

  it("lists revoked phones too, newest first, and only the organization's own", async () => {
    const second = await pairPhone(app, orgId, { name: 'Second' });
    await app.request('DELETE', `/v1/devices/${second.deviceId}`, { key });
    const other = await app.createOrg();
    await pairPhone(app, other.org.id, { name: 'Not yours' });
    const res = await app.request('GET', '/v1/devices', { key });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['devices']);
    expect(res.body.devices.map((d: { id: string; status: string }) => [d.id, d.status])).toEqual([
      [second.deviceId, 'revoked'],
      [phone.deviceId, 'online'],
    ]);
  });
});

describe('another organization, unknown ids, keys and scopes', () => {
  it("answers 404 for another organization's phone on GET, PATCH and DELETE, and changes nothing", async () => {
    const other = await app.createOrg();
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'stolen' }],
      ['DELETE', undefined],
    ] as const) {
      expectError(await app.request(method, `/v1/devices/${phone.deviceId}`, { key: other.key, body }), 404, 'not_found');
    }
    const mine = await app.request('GET', `/v1/devices/${phone.deviceId}`, { key });
    expect(mine.body).toMatchObject({ name: 'Caisse 1', revokedAt: null });
  });

  it('answers 404 for an unknown id and for one that breaks the id pattern', async () => {
    expectError(await app.request('GET', '/v1/devices/dev_nothere', { key }), 404, 'not_found');
    expectError(await app.request('DELETE', '/v1/devices/dev_nothere', { key }), 404, 'not_found');
    expectError(await app.request('GET', `/v1/devices/${'x'.repeat(65)}`, { key }), 404, 'not_found');
  });

  it('needs devices:read to read and devices:write to change', async () => {
    const reader = await app.createKey(orgId, ['devices:read']);
    const writer = await app.createKey(orgId, ['devices:write']);
    expect((await app.request('GET', '/v1/devices', { key: reader.key })).status).toBe(200);
    expect((await app.request('GET', `/v1/devices/${phone.deviceId}`, { key: reader.key })).status).toBe(200);
    expectError(await app.request('PATCH', `/v1/devices/${phone.deviceId}`, { key: reader.key, body: { draining: true } }), 403, 'forbidden', /devices:write/);
    expectError(await app.request('DELETE', `/v1/devices/${phone.deviceId}`, { key: reader.key }), 403, 'forbidden');
    expectError(await app.request('GET', '/v1/devices', { key: writer.key }), 403, 'forbidden', /devices:read/);
    expect((await app.request('PATCH', `/v1/devices/${phone.deviceId}`, { key: writer.key, body: { draining: false } })).status).toBe(200);
    const stillLive = await app.request('GET', `/v1/devices/${phone.deviceId}`, { key });
    expect(stillLive.body.revokedAt).toBeNull();
  });

  it('answers 401 without a key, and for a device token used as an API key', async () => {
    expectError(await app.request('GET', '/v1/devices'), 401, 'unauthorized');
    expectError(await app.request('GET', '/v1/devices', { key: phone.token }), 401, 'unauthorized');
    expectError(await app.request('DELETE', `/v1/devices/${phone.deviceId}`), 401, 'unauthorized');
  });
});

describe('OpenAPI document', () => {
  it('describes the device endpoints with the Device schema', async () => {
    const doc = (await app.request('GET', '/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/devices', '/v1/devices/{deviceId}']));
    const get = doc.paths['/v1/devices/{deviceId}'].get;
    expect(get['x-scope']).toBe('devices:read');
    expect(Object.keys(get.responses['200'].content['application/json'].schema.properties)).toEqual(SPEC_FIELDS);
    expect(doc.paths['/v1/devices/{deviceId}'].patch.requestBody.content['application/json'].schema.additionalProperties).toBe(false);
  });
});
