import { describe, expect, it } from 'vitest';
import { messageOf, registeredPhone, send, startedPhone, statusOf, useMobileApp } from './support.js';
import type { AndroidApp } from '../support/android-app.js';

const env = useMobileApp();

/** A message pinned to the phone, pulled by it: its own job, still Pending on the phone. */
async function pulledBy(phone: AndroidApp): Promise<string> {
  const id = await send(env.app, env.key, { deviceId: phone.id });
  await expect.poll(() => phone.local.has(id)).toBe(true);
  return id;
}

const timeline = async (id: string) => (await messageOf(env.app, env.key, id)).events.map((e: { toStatus: string }) => e.toStatus);

describe('state reports (PATCH /message)', () => {
  it('take repeats and any order: a status never goes backwards and each step is recorded once', async () => {
    const phone = await startedPhone(env.app, env.orgId, { utcOffsetMinutes: -300, oldAndroid: true });
    const id = await pulledBy(phone);
    const m = phone.local.get(id)!;
    const t0 = Date.now() - 4000;
    m.states = {
      Pending: phone.formatDate(new Date(t0)),
      Processed: phone.formatDate(new Date(t0 + 1000)),
      Sent: phone.formatDate(new Date(t0 + 2000)),
      Delivered: phone.formatDate(new Date(t0 + 3000)),
    };
    // Android < 7 in a negative zone writes `+-5:00`.
    expect(m.states.Processed).toMatch(/\+-5:00$/);
    const snapshot = (state: 'Processed' | 'Sent' | 'Delivered') => phone.reportBody({ ...m, state });
    // The last report arrives first, then the earlier ones, then a repeat.
    for (const state of ['Delivered', 'Processed', 'Sent', 'Delivered'] as const) expect((await phone.call('PATCH', '/message', snapshot(state))).status).toBe(204);
    const message = await messageOf(env.app, env.key, id);
    expect(message.status).toBe('delivered');
    expect(message.events.map((e: { toStatus: string }) => e.toStatus)).toEqual(['queued', 'claimed', 'sending', 'sent', 'delivered']);
    const at = (s: string) => Date.parse(message.events.find((e: { toStatus: string }) => e.toStatus === s).at);
    expect([at('sending'), at('sent'), at('delivered')]).toEqual([t0 + 1000, t0 + 2000, t0 + 3000]);
    // Failed after delivered is refused by the lifecycle: still 2xx for the phone.
    expect((await phone.call('PATCH', '/message', phone.reportBody({ ...m, state: 'Failed', error: 'Send result: RESULT_ERROR_NO_SERVICE (x)' }))).status).toBe(204);
    expect(await statusOf(env.app, env.key, id)).toBe('delivered');
    phone.disconnect();
  });

  it("answer 204 for unknown ids and change nothing for another phone's message", async () => {
    const holder = await startedPhone(env.app, env.orgId);
    const other = await registeredPhone(env.app, env.orgId);
    const id = await pulledBy(holder);
    const body = [
      { id, state: 'Delivered', recipients: [{ phoneNumber: '+261341234567', state: 'Delivered' }], states: { Pending: other.formatDate(new Date()), Delivered: other.formatDate(new Date()) } },
    ];
    expect((await other.call('PATCH', '/message', body)).status).toBe(204);
    expect((await other.call('PATCH', '/message', [{ ...body[0], id: 'msg_00000000000000000000000000' }])).status).toBe(204);
    expect((await other.call('PATCH', '/message', [{ ...body[0], id: 'not|an id' }])).status).toBe(204);
    expect((await other.call('PATCH', '/message', [])).status).toBe(204);
    expect(await statusOf(env.app, env.key, id)).toBe('claimed');
    holder.disconnect();
  });

  it('refuse bad input with a 4xx that changes nothing', async () => {
    const phone = await startedPhone(env.app, env.orgId);
    const id = await pulledBy(phone);
    const item = { id, state: 'Sent', recipients: [{ phoneNumber: '+261341234567', state: 'Sent' }], states: { Pending: phone.formatDate(new Date()) } };
    const bad: [unknown, number][] = [
      ['{"id":', 400],
      ['', 400],
      [item, 400], // not an array
      [[{ ...item, state: 'Queued' }], 400],
      [[{ ...item, state: 5 }], 400],
      [[{ ...item, id: 7 }], 400],
      [[{ ...item, recipients: 'all' }], 400],
      [[{ ...item, states: { Sending: '2026-01-01T00:00:00Z' } }], 400],
      [[{ ...item, states: { Sent: 1700000000 } }], 400],
      [[{ ...item, recipients: [{ phoneNumber: '+261341234567', state: 'Sent', error: 'x'.repeat(5000) }] }], 400],
      [Array.from({ length: 101 }, () => item), 400],
      [[{ ...item, padding: 'x'.repeat(300 * 1024) }], 413],
    ];
    for (const [body, status] of bad) {
      const res = await phone.call('PATCH', '/message', typeof body === 'string' ? body : JSON.stringify(body));
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.body.error.code).toBe('invalid_request');
    }
    expect(await statusOf(env.app, env.key, id)).toBe('claimed');
    expect((await phone.call('PATCH', '/device', { id: phone.id, simCards: 'none' })).status).toBe(400);
    expect((await phone.call('POST', '/device', '{', null)).status).toBe(400);
    phone.disconnect();
  });
});

/** The app's error texts (smsgate-mobile-protocol.md §5.4) and the failureCode each becomes. */
const FAILURES: [text: string, code: string, after?: 'Sent'][] = [
  ['Send result: RESULT_ERROR_NO_SERVICE (Failed because service is currently unavailable)', 'no_service'],
  ['Send result: RESULT_ERROR_GENERIC_FAILURE (Generic failure cause)', 'generic_failure'],
  ['Send result: RESULT_ERROR_RADIO_OFF (Failed because radio was explicitly turned off)', 'radio_off'],
  ['Send result: RESULT_NETWORK_REJECT (Failed because of network rejection)', 'network_reject'],
  ['Send result: RESULT_RIL_SIM_ABSENT (SIM is absent)', 'ril_sim_absent'],
  ['Send result: Unknown error code: 999.', 'generic_failure'],
  ['TTL expired', 'expired'],
  ["Can't send message: SIM 2 not found", 'no_sim'],
  ["Can't send message: No SIMs found", 'no_sim'],
  ["Can't send message: SIM selection requires READ_PHONE_STATE permission", 'permission_denied'],
  ["Can't send message: Passphrase is not set", 'generic_failure'],
  ['sendSMS: java.lang.IllegalArgumentException: Invalid destinationAddress', 'generic_failure'],
  ['Delivery result from SC +261340000001: 65', 'delivery_failed', 'Sent'],
  ['Delivery result: 1', 'delivery_failed', 'Sent'],
  ['Send result: RESULT_ERROR_LIMIT_EXCEEDED (Failed because we reached the sending queue limit)', 'limit_exceeded'],
];

describe('failure texts', () => {
  it.each(FAILURES)('%s → %s', async (text, code, after) => {
    const phone = await startedPhone(env.app, env.orgId);
    const id = await pulledBy(phone);
    const m = phone.local.get(id)!;
    if (after) {
      await phone.move(m, 'Processed');
      await phone.move(m, 'Sent');
    }
    await phone.move(m, 'Failed', text);
    const message = await messageOf(env.app, env.key, id);
    expect(message).toMatchObject({ status: 'failed', failureCode: code });
    expect(await timeline(id)).toEqual(after ? ['queued', 'claimed', 'sending', 'sent', 'failed'] : ['queued', 'claimed', 'failed']);
    phone.disconnect();
  });
});

describe('a failed delivery report whose Sent report was lost', () => {
  it('still records sending and sent before the failure', async () => {
    const phone = await startedPhone(env.app, env.orgId);
    const id = await pulledBy(phone);
    const m = phone.local.get(id)!;
    m.states.Processed = phone.formatDate(new Date());
    m.states.Sent = phone.formatDate(new Date());
    await phone.move(m, 'Failed', 'Delivery result from SC +261340000001: 65');
    expect(await messageOf(env.app, env.key, id)).toMatchObject({ status: 'failed', failureCode: 'delivery_failed' });
    expect(await timeline(id)).toEqual(['queued', 'claimed', 'sending', 'sent', 'failed']);
    phone.disconnect();
  });
});
