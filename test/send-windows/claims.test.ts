import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { expireQueued } from '../../src/dispatch/sweeps.js';
import type { SendWindows } from '../../src/send-windows/windows.js';
import { keysOfPrefix } from '../support/redis.js';

// The claims' clock, moved by hand across nights, weekends and a DST change. Dates are in 2025,
// before the real time: the expiry sweep compares expiresAt with Postgres's own now().
const clock = { t: 0, now: () => clock.t };
let app: TestApp;

beforeAll(async () => {
  // Three days of validity: a message sent on Friday evening is still worth sending on Monday.
  app = await startTestApp({ messageTtlSeconds: 3 * 86_400 }, undefined, clock);
});
afterAll(() => app.close());

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri'] as SendWindows['ranges'][number]['days'];
const EVERY_DAY = [...WEEKDAYS, 'sat', 'sun'] as SendWindows['ranges'][number]['days'];
const tana = (days: SendWindows['ranges'][number]['days'], from: string, to: string): SendWindows => ({ timeZone: 'Indian/Antananarivo', ranges: [{ days, from, to }] });
/** Antananarivo is UTC+3 all year. */
const inTana = (date: string, time: string) => Date.parse(`${date}T${time}+03:00`);

/** An organization with these windows (PUT /v1/send-windows) and one phone; its send key. */
async function orgWith(windows: SendWindows | null) {
  const { org, key } = await app.createOrg({ dailyLimit: 10_000 });
  if (windows) {
    const res = await app.request('PUT', '/v1/send-windows', { key, body: { sendWindows: windows } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const deviceId = await insertTestDevice(app.ctx, org.id);
  return { orgId: org.id, key, deviceId };
}

async function send(key: string, to: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<string> {
  const res = await app.request('POST', '/v1/messages', { key, body: { to, body: 'Salama', ...extra }, headers });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.messages[0].id as string;
}

const claim = (orgId: string, deviceId: string, max = 20) => app.ctx.dispatch.claim({ orgId, deviceId }, max);
const claimedIds = async (orgId: string, deviceId: string, max = 20) => (await claim(orgId, deviceId, max)).jobs.map((j) => j.messageId);
const statusOf = async (key: string, id: string) => (await app.request('GET', `/v1/messages/${id}`, { key })).body.status as string;

describe('send windows: when queued messages go', () => {
  it('holds a message sent at 21:00 in Antananarivo until 08:00 the next day, then sends the waiting ones oldest first', async () => {
    clock.t = inTana('2025-11-27', '21:00:00'); // a Thursday
    const { orgId, key, deviceId } = await orgWith(tana(WEEKDAYS, '08:00', '20:00'));
    const sent: string[] = [];
    for (const to of ['+261340000001', '+261340000002', '+261340000003']) {
      sent.push(await send(key, to));
      clock.t += 60_000;
    }
    // Outside the window the claim is answered empty, with when to come back (a minute at most).
    expect(await claim(orgId, deviceId)).toEqual({ jobs: [], retryAfterMs: 60_000 });
    clock.t = inTana('2025-11-28', '07:59:59.600');
    expect(await claim(orgId, deviceId)).toEqual({ jobs: [], retryAfterMs: 400 });
    for (const id of sent) expect(await statusOf(key, id)).toBe('queued');

    clock.t = inTana('2025-11-28', '08:00:00');
    expect(await claimedIds(orgId, deviceId, 2)).toEqual(sent.slice(0, 2));
    expect(await claimedIds(orgId, deviceId, 2)).toEqual(sent.slice(2));
  });

  it('skips the weekend when the window is on weekdays only', async () => {
    clock.t = inTana('2025-11-28', '21:00:00'); // a Friday
    const { orgId, key, deviceId } = await orgWith(tana(WEEKDAYS, '08:00', '20:00'));
    const id = await send(key, '+261340000004');
    for (const [date, time] of [
      ['2025-11-29', '09:00:00'],
      ['2025-11-30', '12:00:00'],
      ['2025-12-01', '07:59:59'],
    ] as const) {
      clock.t = inTana(date, time);
      expect(await claimedIds(orgId, deviceId), `${date} ${time}`).toEqual([]);
    }
    clock.t = inTana('2025-12-01', '08:00:00'); // Monday
    expect(await claimedIds(orgId, deviceId)).toEqual([id]);
  });

  it('opens a window across midnight on the day it starts, and closes it the next morning', async () => {
    clock.t = inTana('2025-11-28', '21:59:00'); // Friday
    const { orgId, key, deviceId } = await orgWith(tana(['fri'], '22:00', '06:00'));
    const first = await send(key, '+261340000005');
    expect(await claimedIds(orgId, deviceId)).toEqual([]);
    clock.t = inTana('2025-11-28', '22:00:00');
    expect(await claimedIds(orgId, deviceId)).toEqual([first]);
    // Saturday 05:59 is still Friday's night; 06:00 closes it, and Saturday night is not in the window.
    clock.t = inTana('2025-11-29', '05:59:00');
    const second = await send(key, '+261340000006');
    expect(await claimedIds(orgId, deviceId)).toEqual([second]);
    clock.t = inTana('2025-11-29', '06:00:00');
    await send(key, '+261340000007');
    expect(await claimedIds(orgId, deviceId)).toEqual([]);
    clock.t = inTana('2025-11-29', '23:00:00');
    expect(await claim(orgId, deviceId)).toEqual({ jobs: [], retryAfterMs: 60_000 });
  });

  it("keeps a phone to its own narrower window, in its own time zone, while the organization's other phones send", async () => {
    clock.t = inTana('2025-11-27', '09:00:00');
    const { orgId, key, deviceId: narrow } = await orgWith(tana(EVERY_DAY, '08:00', '20:00'));
    const other = await insertTestDevice(app.ctx, orgId);
    // 12:00 to 14:00 in Paris (UTC+1 in November): 14:00 to 16:00 in Antananarivo.
    const own: SendWindows = { timeZone: 'Europe/Paris', ranges: [{ days: EVERY_DAY, from: '12:00', to: '14:00' }] };
    const put = await app.request('PUT', `/v1/devices/${narrow}/send-windows`, { key, body: { sendWindows: own } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toEqual({ sendWindows: own, openNow: false });

    const pinned = await send(key, '+261340000008', { deviceId: narrow });
    const shared = await send(key, '+261340000009');
    expect(await claimedIds(orgId, narrow)).toEqual([]);
    expect(await claimedIds(orgId, other)).toEqual([shared]);
    clock.t = inTana('2025-11-27', '13:59:00');
    expect(await claim(orgId, narrow)).toEqual({ jobs: [], retryAfterMs: 60_000 });
    clock.t = inTana('2025-11-27', '14:00:00');
    expect(await claimedIds(orgId, narrow)).toEqual([pinned]);

    // Its window ends with the organization's when that is narrower: at 20:00 Antananarivo (18:00 Paris) it is open no more.
    await app.request('PUT', `/v1/devices/${narrow}/send-windows`, { key, body: { sendWindows: { timeZone: 'Europe/Paris', ranges: [{ days: EVERY_DAY, from: '12:00', to: '23:00' }] } } });
    clock.t = inTana('2025-11-27', '20:00:00');
    await send(key, '+261340000010', { deviceId: narrow });
    expect(await claimedIds(orgId, narrow)).toEqual([]);
    // Back to its organization's windows alone.
    expect((await app.request('PUT', `/v1/devices/${narrow}/send-windows`, { key, body: { sendWindows: null } })).body).toEqual({ sendWindows: null, openNow: false });
    clock.t = inTana('2025-11-28', '08:00:00');
    expect(await claimedIds(orgId, narrow)).toHaveLength(1);
  });

  it('sends a message that ignores the windows at once, ahead of a night of waiting messages, also from a queue rebuilt after Redis lost its data', async () => {
    clock.t = inTana('2025-11-27', '23:00:00');
    const { orgId, key, deviceId } = await orgWith(tana(EVERY_DAY, '08:00', '20:00'));
    // More waiting messages than a claim reads (four times its size) in front of the code.
    const res = await app.request('POST', '/v1/messages', { key, body: { to: Array.from({ length: 120 }, (_, i) => `+2613400${String(i).padStart(5, '0')}`), body: 'Newsletter' } });
    expect(res.status).toBe(202);
    clock.t += 1000;
    const code = await send(key, '+261341111111', { ignoreSendWindows: true }, { 'idempotency-key': 'otp-1' });
    expect(await claimedIds(orgId, deviceId, 10)).toEqual([code]);

    // The same key without the override is another request.
    const conflict = await app.request('POST', '/v1/messages', { key, body: { to: '+261341111111', body: 'Salama' }, headers: { 'idempotency-key': 'otp-1' } });
    expect(conflict.status).toBe(409);

    const second = await send(key, '+261342222222', { ignoreSendWindows: true });
    // Redis loses everything; the queues come back from Postgres, the override with them.
    const keys = await keysOfPrefix(app.ctx.redis, app.ctx.config.redisPrefix);
    await app.ctx.redis.del(...keys);
    // (with what earlier tests left queued)
    expect(await app.ctx.dispatch.rebuildIfLost()).toBeGreaterThanOrEqual(121);
    expect(await claimedIds(orgId, deviceId, 10)).toEqual([second]);
    expect(await claimedIds(orgId, deviceId, 10)).toEqual([]);
  });

  it('follows America/New_York across the change to summer time', async () => {
    // Sunday 9 March 2025, 02:00 EST became 03:00 EDT: 09:00 that day is 13:00 UTC, not 14:00.
    clock.t = Date.parse('2025-03-08T23:00:00Z'); // Saturday 18:00 EST
    const { orgId, key, deviceId } = await orgWith({ timeZone: 'America/New_York', ranges: [{ days: EVERY_DAY, from: '09:00', to: '17:00' }] });
    const id = await send(key, '+12025550100');
    clock.t = Date.parse('2025-03-09T12:59:59Z');
    expect(await claim(orgId, deviceId)).toEqual({ jobs: [], retryAfterMs: 1000 });
    clock.t = Date.parse('2025-03-09T13:00:00Z');
    expect(await claimedIds(orgId, deviceId)).toEqual([id]);
  });

  // Last: the expiry sweep expires every queued message of this file's database that is past its time.
  it('still expires a message that waited for its window longer than it was worth', async () => {
    clock.t = inTana('2025-11-28', '21:00:00'); // Friday; the window opens on Wednesday, after the 3 days of validity
    const { orgId, key, deviceId } = await orgWith(tana(['wed'], '08:00', '20:00'));
    const id = await send(key, '+261340000011');
    const override = await send(key, '+261340000012', { ignoreSendWindows: true });
    clock.t = inTana('2025-12-01', '21:00:01');
    // Past its expiry, not even a send that ignores the windows is handed out.
    expect(await claimedIds(orgId, deviceId)).toEqual([]);
    expect(await expireQueued(app.ctx)).toBeGreaterThanOrEqual(2);
    expect(await statusOf(key, id)).toBe('expired');
    expect(await statusOf(key, override)).toBe('expired');
    clock.t = inTana('2025-12-03', '08:00:00');
    expect(await claimedIds(orgId, deviceId)).toEqual([]);
  });
});
