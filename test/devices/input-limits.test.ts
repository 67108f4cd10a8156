import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFrameError, startPhoneTestApp, pairTestPhone, type PhoneTestApp } from '../support/phones.js';
import { expectError } from '../api/expect-error.js';
import { createPairingCode } from '../../src/devices/pairing.js';

// U+0000 in text and integers past their column used to reach Postgres and answer 500 (a phone
// retried its heartbeat forever). Client text refuses U+0000; text Android reads from the SIM
// has it removed; every integer is bounded by its column.

let app: PhoneTestApp;
let key: string;
let orgId: string;

beforeAll(async () => {
  app = await startPhoneTestApp();
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
});
afterAll(() => app.close());

/**
 * What a refused request must leave as it was: the columns a heartbeat or PATCH writes, and the
 * SIM list (last_seen_at and the socket columns move with any authenticated request or socket).
 */
async function snapshot(deviceId: string) {
  const device = await app.ctx.db.query(
    `SELECT name, model, battery_percent, battery_charging, network_type, uptime_seconds, free_storage_bytes, app_version,
            default_sms_app, default_sms_app_reported_at, default_sim_subscription_id, draining, outbound_enabled
       FROM devices WHERE id = $1`,
    [deviceId],
  );
  const sims = await app.ctx.db.query('SELECT * FROM device_sims WHERE device_id = $1 ORDER BY subscription_id', [deviceId]);
  return { device: device.rows[0], sims: sims.rows };
}
const heartbeat = (token: string, body: unknown) => app.request('POST', '/device/v1/heartbeat', { headers: { authorization: `Bearer ${token}` }, body });

const INT = /must be an integer from 0 to 2147483647/;
const BIGINT = /must be an integer from 0 to 9007199254740991/;
const badHeartbeats: [string, Record<string, unknown>, RegExp][] = [
  ['U+0000 in networkType', { networkType: 'lte\u0000' }, /^networkType: must not contain U\+0000/],
  ['U+0000 in appVersion', { appVersion: '\u00002.0' }, /^appVersion: must not contain U\+0000/],
  ['a lone surrogate in appVersion', { appVersion: '2.0\ud800' }, /^appVersion: must be well-formed UTF-16/],
  ['uptimeSeconds past 2^53-1', { uptimeSeconds: 2 ** 53 }, new RegExp(`^uptimeSeconds: ${BIGINT.source}`)],
  ['freeStorageBytes of 1e20', { freeStorageBytes: 1e20 }, new RegExp(`^freeStorageBytes: ${BIGINT.source}`)],
  ['a SIM id past 2^31-1', { sims: [{ subscriptionId: 2 ** 31 }] }, new RegExp(`^sims\\[0\\]\\.subscriptionId: ${INT.source}`)],
  ['a slotIndex past 2^31-1', { sims: [{ subscriptionId: 1, slotIndex: 2 ** 31 }] }, new RegExp(`^sims\\[0\\]\\.slotIndex: ${INT.source}`)],
  ['a negative SIM id', { sims: [{ subscriptionId: -1 }] }, new RegExp(`^sims\\[0\\]\\.subscriptionId: ${INT.source}`)],
];

describe('POST /device/v1/heartbeat', () => {
  it.each(badHeartbeats)('%s: 400 invalid_request naming the field, nothing written', async (_name, body, message) => {
    const phone = await pairTestPhone(app, orgId);
    const before = await snapshot(phone.deviceId);
    expectError(await heartbeat(phone.token, body), 400, 'invalid_request', message);
    expect(await snapshot(phone.deviceId)).toEqual(before);
  });

  it('stores the largest values the columns hold', async () => {
    const phone = await pairTestPhone(app, orgId);
    const res = await heartbeat(phone.token, { uptimeSeconds: 2 ** 53 - 1, freeStorageBytes: 2 ** 40, sims: [{ subscriptionId: 2 ** 31 - 1, slotIndex: 2 ** 31 - 1 }] });
    expect(res.status).toBe(200);
    const device = (await app.request('GET', `/v1/devices/${phone.deviceId}`, { key })).body;
    expect(device).toMatchObject({ uptimeSeconds: 2 ** 53 - 1, freeStorageBytes: 2 ** 40, sims: [{ subscriptionId: 2 ** 31 - 1, slotIndex: 2 ** 31 - 1 }] });
  });

  it('removes U+0000 from what Android read off the SIM, replaces a lone surrogate, and stores the rest', async () => {
    const phone = await pairTestPhone(app, orgId);
    const sim = { subscriptionId: 3, carrierName: 'Or\u0000ange', displayName: '\u0000SIM\udc00 1', phoneNumber: '+261320000000\u0000', countryIso: 'm\u0000g' };
    expect((await heartbeat(phone.token, { sims: [sim] })).status).toBe(200);
    const device = (await app.request('GET', `/v1/devices/${phone.deviceId}`, { key })).body;
    expect(device.sims).toMatchObject([{ subscriptionId: 3, carrierName: 'Orange', displayName: 'SIM\ufffd 1', phoneNumber: '+261320000000', countryIso: 'MG' }]);
  });
});

describe('heartbeat frames on the phone socket', () => {
  it.each(badHeartbeats)('%s: an invalid_request error naming the field, nothing written', async (_name, body, message) => {
    const phone = await pairTestPhone(app, orgId);
    await phone.client.connect(10_000);
    try {
      const before = await snapshot(phone.deviceId);
      await expectFrameError(phone.client.heartbeat(body), 'invalid_request', message);
      expect(await snapshot(phone.deviceId)).toEqual(before);
    } finally {
      await phone.client.close();
    }
  });

  it('a SIM name holding U+0000 is stored without it', async () => {
    const phone = await pairTestPhone(app, orgId);
    await phone.client.connect(10_000);
    try {
      await phone.client.heartbeat({ sims: [{ subscriptionId: 1, carrierName: 'Telma\u0000' }] });
      const device = (await app.request('GET', `/v1/devices/${phone.deviceId}`, { key })).body;
      expect(device.sims).toMatchObject([{ subscriptionId: 1, carrierName: 'Telma' }]);
    } finally {
      await phone.client.close();
    }
  });
});

describe('PATCH /v1/devices/:deviceId', () => {
  it.each([
    ['U+0000 in the name', { name: 'Caisse\u00001' }, /^name: must not contain U\+0000/],
    ['a lone surrogate in the name', { name: 'Caisse\ud83d' }, /^name: must be well-formed UTF-16/],
    ['defaultSimSubscriptionId past 2^31-1', { defaultSimSubscriptionId: 2 ** 31 }, /^defaultSimSubscriptionId: must be an integer from 0 to 2147483647, or null/],
    ['defaultSimSubscriptionId of 1e300', { defaultSimSubscriptionId: 1e300 }, /^defaultSimSubscriptionId: must be an integer from 0 to 2147483647, or null/],
  ])('%s: 400 invalid_request naming the field, the device unchanged', async (_name, body, message) => {
    const phone = await pairTestPhone(app, orgId);
    const before = await snapshot(phone.deviceId);
    expectError(await app.request('PATCH', `/v1/devices/${phone.deviceId}`, { key, body }), 400, 'invalid_request', message);
    expect(await snapshot(phone.deviceId)).toEqual(before);
  });
});

describe('POST /device/v1/pair', () => {
  it.each([
    ['U+0000 in the name', { name: 'Caisse\u0000' }, /^name: must not contain U\+0000/],
    ['U+0000 in the model', { model: 'Pixel\u0000' }, /^model: must not contain U\+0000/],
    ['U+0000 in appVersion', { appVersion: '1\u0000' }, /^appVersion: must not contain U\+0000/],
  ])('%s: 400 invalid_request naming the field; no device, and the code still pairs', async (_name, extra, message) => {
    const count = async () => (await app.ctx.db.query('SELECT count(*)::int AS n FROM devices WHERE org_id = $1', [orgId])).rows[0].n as number;
    const { code } = await createPairingCode(app.ctx, orgId);
    const before = await count();
    expectError(await app.request('POST', '/device/v1/pair', { body: { code, ...extra } }), 400, 'invalid_request', message);
    expect(await count()).toBe(before);
    expect((await app.request('POST', '/device/v1/pair', { body: { code } })).status).toBe(200);
  });

  it('a code holding U+0000 is refused as invalid_request, not looked up', async () => {
    expectError(await app.request('POST', '/device/v1/pair', { body: { code: 'AB\u0000CD' } }), 400, 'invalid_request', /^code: must not contain U\+0000/);
  });
});
