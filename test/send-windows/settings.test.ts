import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { signedInMember } from '../support/members.js';
import { insertTestDevice } from '../support/devices.js';
import { expectError } from '../api/expect-error.js';

// Thursday 27 November 2025, 21:00 in Antananarivo.
const clock = { t: Date.parse('2025-11-27T21:00:00+03:00'), now: () => clock.t };
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({}, undefined, clock);
});
afterAll(() => app.close());

const WINDOW = { timeZone: 'Indian/Antananarivo', ranges: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '20:00' }] };
const put = (key: string, sendWindows: unknown) => app.request('PUT', '/v1/send-windows', { key, body: { sendWindows } });
const withRange = (range: Record<string, unknown>, timeZone = 'Indian/Antananarivo') => ({ timeZone, ranges: [{ days: ['mon'], from: '08:00', to: '20:00', ...range }] });

describe('/v1/send-windows', () => {
  it('has none at first; set, it says whether the windows are open and when that changes; null removes them', async () => {
    const { key } = await app.createOrg();
    expect((await app.request('GET', '/v1/send-windows', { key })).body).toEqual({ sendWindows: null, openNow: true, nextChangeAt: null });
    // The time zone as Intl knows it, the days in week order.
    const set = await put(key, { timeZone: 'indian/antananarivo', ranges: [{ days: ['fri', 'mon', 'wed', 'tue', 'thu'], from: '08:00', to: '20:00' }] });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ sendWindows: WINDOW, openNow: false, nextChangeAt: '2025-11-28T05:00:00.000Z' });
    expect((await app.request('GET', '/v1/send-windows', { key })).body).toEqual(set.body);
    expect((await put(key, null)).body).toEqual({ sendWindows: null, openNow: true, nextChangeAt: null });
  });

  it('refuses a bad time zone, time, day list or range with 400 naming the field, and changes nothing', async () => {
    const { key } = await app.createOrg();
    await put(key, WINDOW);
    expectError(await put(key, withRange({}, 'Mars/Olympus_Mons')), 400, 'invalid_request', /^sendWindows\.timeZone: Mars\/Olympus_Mons is not a time zone/);
    expectError(await put(key, withRange({}, 'UTC; DROP')), 400, 'invalid_request', /^sendWindows\.timeZone: must be an IANA time zone/);
    expectError(await put(key, withRange({ from: '25:00' })), 400, 'invalid_request', /^sendWindows\.ranges\[0\]\.from: must be a time HH:MM/);
    expectError(await put(key, withRange({ to: '8h' })), 400, 'invalid_request', /^sendWindows\.ranges\[0\]\.to: must be a time HH:MM/);
    expectError(await put(key, withRange({ from: '24:00' })), 400, 'invalid_request', /^sendWindows\.ranges\[0\]\.from/);
    expectError(await put(key, withRange({ days: [] })), 400, 'invalid_request', /^sendWindows\.ranges\[0\]\.days: must list 1 to 7 different days/);
    expectError(await put(key, withRange({ days: ['mon', 'mon'] })), 400, 'invalid_request', /^sendWindows\.ranges\[0\]\.days/);
    expectError(await put(key, withRange({ days: ['monday'] })), 400, 'invalid_request', /^sendWindows\.ranges\[0\]\.days\[0\]: must be one of mon/);
    expectError(await put(key, withRange({ from: '10:00', to: '10:00' })), 400, 'invalid_request', /^sendWindows\.ranges\[0\]\.to: must differ from from/);
    expectError(await put(key, { timeZone: 'UTC', ranges: [] }), 400, 'invalid_request', /^sendWindows\.ranges: must hold 1 to 7 ranges/);
    expectError(await put(key, { ...WINDOW, weekends: true }), 400, 'invalid_request', /weekends/);
    expectError(await app.request('PUT', '/v1/send-windows', { key, body: {} }), 400, 'invalid_request', /sendWindows/);
    expect((await app.request('GET', '/v1/send-windows', { key })).body.sendWindows).toEqual(WINDOW);
  });

  it('reads with devices:read and changes with devices:write; each organization has its own', async () => {
    const { org, key } = await app.createOrg();
    const reader = await app.createKey(org.id, ['devices:read']);
    const sender = await app.createKey(org.id, ['messages:send']);
    expect((await app.request('GET', '/v1/send-windows', { key: reader.key })).status).toBe(200);
    expectError(await put(reader.key, WINDOW), 403, 'forbidden', /devices:write/);
    expectError(await app.request('GET', '/v1/send-windows', { key: sender.key }), 403, 'forbidden', /devices:read/);
    await put(key, WINDOW);
    const other = await app.createOrg();
    expect((await app.request('GET', '/v1/send-windows', { key: other.key })).body.sendWindows).toBeNull();
  });
});

describe('send windows in the dashboard settings and on a phone', () => {
  it('owners set them with PATCH /dashboard/v1/organization, which the audit log records; others may not', async () => {
    const { org, key } = await app.createOrg();
    const owner = await signedInMember(app, org.id, 'owner');
    const admin = await signedInMember(app, org.id, 'admin');
    const patch = (headers: Record<string, string>, body: unknown) => app.request('PATCH', '/dashboard/v1/organization', { headers, body });
    expect((await patch(admin.headers, { sendWindows: WINDOW })).status).toBe(403);
    expectError(await patch(owner.headers, { sendWindows: withRange({ from: '8:00' }) }), 400, 'invalid_request', /^sendWindows\.ranges\[0\]\.from/);
    expectError(await patch(owner.headers, { dailyLimit: 10, sendWindows: withRange({}, 'Nowhere/Atall') }), 400, 'invalid_request', /^sendWindows\.timeZone/);
    const shown = await patch(owner.headers, { sendWindows: WINDOW });
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ sendWindows: WINDOW, dailyLimit: 1000 });
    expect((await app.request('GET', '/v1/send-windows', { key })).body.sendWindows).toEqual(WINDOW);
    const audit = await app.request('GET', '/dashboard/v1/audit', { headers: owner.headers });
    expect(audit.body.entries[0]).toMatchObject({ action: 'organization.updated', detail: { sendWindows: WINDOW } });
    expect((await patch(owner.headers, { sendWindows: null })).body.sendWindows).toBeNull();
  });

  it("a phone's own windows: beyond the spec at /v1/devices/{id}/send-windows, checked, and 404 for another organization's phone", async () => {
    const { org, key } = await app.createOrg();
    const deviceId = await insertTestDevice(app.ctx, org.id);
    const path = `/v1/devices/${deviceId}/send-windows`;
    expect((await app.request('GET', path, { key })).body).toEqual({ sendWindows: null, openNow: true });
    const evening = { timeZone: 'Indian/Antananarivo', ranges: [{ days: ['thu'], from: '18:00', to: '23:00' }] };
    expect((await app.request('PUT', path, { key, body: { sendWindows: evening } })).body).toEqual({ sendWindows: evening, openNow: true });
    // Its organization's windows are closed at 21:00: the phone may not send, whatever its own say.
    await app.request('PUT', '/v1/send-windows', { key, body: { sendWindows: WINDOW } });
    expect((await app.request('GET', path, { key })).body).toEqual({ sendWindows: evening, openNow: false });
    expectError(await app.request('PUT', path, { key, body: { sendWindows: withRange({ to: '08:00' }) } }), 400, 'invalid_request', /^sendWindows\.ranges\[0\]\.to: must differ/);
    expect((await app.request('GET', path, { key })).body.sendWindows).toEqual(evening);
    // The spec's Device and UpdateDevice stay as they are.
    expect((await app.request('GET', `/v1/devices/${deviceId}`, { key })).body).not.toHaveProperty('sendWindows');
    expectError(await app.request('PATCH', `/v1/devices/${deviceId}`, { key, body: { sendWindows: null } }), 400, 'invalid_request');
    const other = await app.createOrg();
    expectError(await app.request('PUT', path, { key: other.key, body: { sendWindows: null } }), 404, 'not_found', /device/);
    expectError(await app.request('GET', path, { key: other.key }), 404, 'not_found', /device/);
    const reader = await app.createKey(org.id, ['devices:read']);
    expectError(await app.request('PUT', path, { key: reader.key, body: { sendWindows: null } }), 403, 'forbidden');
  });

  it('refuses an ignoreSendWindows that is not a boolean, sending nothing', async () => {
    const { org, key } = await app.createOrg();
    await insertTestDevice(app.ctx, org.id);
    expectError(
      await app.request('POST', '/v1/messages', { key, body: { to: '+261341234567', body: 'x', ignoreSendWindows: 'yes' } }),
      400,
      'invalid_request',
      /^ignoreSendWindows: must be true or false/,
    );
    expect((await app.request('GET', '/v1/messages', { key })).body.messages).toEqual([]);
  });
});
