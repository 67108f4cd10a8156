import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness.js';
import { expectError } from '../api/expect-error.js';
import { heartbeat, pairPhone, startDevicesApp } from './support.js';

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
  phone = await pairPhone(app, orgId, { name: 'Before' });
  await heartbeat(app, phone.token, { sims: [{ subscriptionId: 3 }, { subscriptionId: 7 }] });
});
afterAll(() => app.close());

const patch = (body: unknown, id = phone.deviceId) => app.request('PATCH', `/v1/devices/${id}`, { key, body });
const send = (deviceId = phone.deviceId) => app.request('POST', '/v1/messages', { key, body: { to: '+261341234567', body: 'hi', deviceId } });

describe('PATCH /v1/devices/{id} changes only the fields given', () => {
  it('renames', async () => {
    const res = await patch({ name: 'Guichet 2' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: phone.deviceId, name: 'Guichet 2', draining: false, outboundEnabled: true });
    expect((await app.request('GET', `/v1/devices/${phone.deviceId}`, { key })).body.name).toBe('Guichet 2');
  });

  it('drains: the phone takes no new sends until undrained', async () => {
    expect((await patch({ draining: true })).body.draining).toBe(true);
    expectError(await send(), 409, 'no_device', /draining/);
    expect((await patch({ draining: false })).body.draining).toBe(false);
    expect((await send()).status).toBe(202);
  });

  it('switches outbound sending off and on', async () => {
    expect((await patch({ outboundEnabled: false })).body.outboundEnabled).toBe(false);
    expectError(await send(), 409, 'no_device', /outbound/);
    expect((await patch({ outboundEnabled: true })).body.outboundEnabled).toBe(true);
    expect((await send()).status).toBe(202);
  });

  it('mirrors draining and outbound into the dispatch state the claim script reads', async () => {
    await patch({ draining: true, outboundEnabled: false });
    const state = await app.ctx.redis.hgetall(app.ctx.keys.org(orgId).deviceState(phone.deviceId));
    expect(state).toMatchObject({ draining: '1', outbound: '0', revoked: '0' });
    await patch({ draining: false, outboundEnabled: true });
    expect(await app.ctx.redis.hgetall(app.ctx.keys.org(orgId).deviceState(phone.deviceId))).toMatchObject({ draining: '0', outbound: '1' });
  });

  it('sets the default SIM to a reported card, and null clears it', async () => {
    expect((await patch({ defaultSimSubscriptionId: 7 })).body.defaultSimSubscriptionId).toBe(7);
    expect(await app.ctx.redis.hget(app.ctx.keys.org(orgId).deviceState(phone.deviceId), 'defaultSim')).toBe('7');
    expect((await patch({ defaultSimSubscriptionId: null })).body.defaultSimSubscriptionId).toBeNull();
    expect(await app.ctx.redis.hget(app.ctx.keys.org(orgId).deviceState(phone.deviceId), 'defaultSim')).toBe('-1');
  });

  it('refuses a default SIM the phone does not report', async () => {
    expectError(await patch({ defaultSimSubscriptionId: 4 }), 400, 'invalid_request', /defaultSimSubscriptionId.*3, 7/);
  });

  it('accepts an empty body and changes nothing', async () => {
    const before = (await app.request('GET', `/v1/devices/${phone.deviceId}`, { key })).body;
    const res = await patch({});
    expect(res.status).toBe(200);
    expect(res.body).toEqual(before);
  });
});

describe('PATCH validation', () => {
  it.each([
    ['an empty name', { name: '' }, 'name'],
    ['a name of 129 characters', { name: 'x'.repeat(129) }, 'name'],
    ['a non-string name', { name: 5 }, 'name'],
    ['draining as a string', { draining: 'yes' }, 'draining'],
    ['outboundEnabled as a number', { outboundEnabled: 1 }, 'outboundEnabled'],
    ['a negative default SIM', { defaultSimSubscriptionId: -1 }, 'defaultSimSubscriptionId'],
    ['a fractional default SIM', { defaultSimSubscriptionId: 1.5 }, 'defaultSimSubscriptionId'],
    ['a default SIM as a string', { defaultSimSubscriptionId: '3' }, 'defaultSimSubscriptionId'],
    ['a field UpdateDevice does not have', { status: 'online' }, 'status'],
    ['a body that is not an object', [1, 2], 'body'],
  ])('refuses %s with 400 naming the field, and changes nothing', async (_what, body, field) => {
    const before = (await app.request('GET', `/v1/devices/${phone.deviceId}`, { key })).body;
    const res = await patch(body);
    expectError(res, 400, 'invalid_request', new RegExp(`^${field}\\b`));
    expect((await app.request('GET', `/v1/devices/${phone.deviceId}`, { key })).body).toEqual(before);
  });

  it('accepts a name of exactly 128 characters', async () => {
    expect((await patch({ name: 'y'.repeat(128) })).body.name).toBe('y'.repeat(128));
  });

  it('answers 415 for a body that is not JSON, and 400 for broken JSON', async () => {
    const path = `/v1/devices/${phone.deviceId}`;
    expectError(await app.request('PATCH', path, { key, rawBody: 'name=x', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type');
    expectError(await app.request('PATCH', path, { key, rawBody: '{"name":', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
  });

  it('answers 404 for an unknown device', async () => {
    expectError(await patch({ name: 'x' }, 'dev_unknown'), 404, 'not_found');
  });
});
