import { describe, expect, it } from 'vitest';
import { eventually, pairTestPhone, sendMessages } from '../support/phones.js';
import { rawSocketSuite } from '../support/raw-socket.js';

/**
 * One rule for every timestamp a phone sends: RFC 3339, seconds optional, `Z` or an offset.
 * Heartbeat `sentAt` and status `at` used to refuse what incoming `receivedAt` accepted.
 */
const suite = rawSocketSuite();

async function unlockedPhone() {
  const { org, key } = await suite.app.createOrg();
  const phone = await pairTestPhone(suite.app, org.id);
  const socket = await suite.open(phone.token);
  expect(await socket.request({ type: 'heartbeat', ref: 'unlock', defaultSmsApp: true })).toMatchObject({ type: 'ack' });
  return { ...phone, key, socket };
}

/** `at` written the way a phone in Madagascar (UTC+3) might, to the minute, without seconds. */
function localMinute(d: Date): string {
  const local = new Date(d.getTime() + 3 * 3600_000).toISOString();
  return `${local.slice(0, 16)}+03:00`;
}

let refs = 0;
const frames = {
  heartbeat: (t: string) => ({ type: 'heartbeat', ref: `r${++refs}`, sentAt: t }),
  incoming: (t: string) => ({ type: 'incoming', ref: `r${++refs}`, clientId: `sms-${refs}`, from: '+261340000001', body: 'x', receivedAt: t }),
};

describe('timestamps in phone frames', () => {
  it.each(['2026-01-01T08:00Z', '2026-01-01T08:00:00Z', '2026-01-01T08:00:00.123456789Z', '2026-01-01T11:00+03:00', '2026-01-01T11:00:00+0300', '2026-01-01t08:00z', '2025-12-31T23:59:60Z'])(
    'accepts %s in a heartbeat and a received SMS alike',
    async (t) => {
      const { socket } = await unlockedPhone();
      expect(await socket.request(frames.heartbeat(t))).toMatchObject({ type: 'ack' });
      expect(await socket.request(frames.incoming(t))).toMatchObject({ type: 'ack', incomingId: expect.stringMatching(/^inc_/) });
    },
  );

  it.each(['2026-01-01T08:00', '2026-01-01 08:00Z', '2026-02-30T08:00Z', '2026-01-01T24:00Z', '2026-01-01T08:60Z', '2026-01-01T08:00+24:00', '2026-13-01T08:00Z', '20260101T0800Z', 'yesterday', ''])(
    'refuses %s in a heartbeat, a status report and a received SMS alike, naming the field',
    async (t) => {
      const { socket } = await unlockedPhone();
      expect(await socket.request(frames.heartbeat(t))).toMatchObject({ type: 'error', code: 'invalid_request', message: expect.stringContaining('sentAt') });
      expect(await socket.request({ type: 'status', ref: 'st', messageId: 'msg_x', status: 'sending', at: t })).toMatchObject({
        type: 'error',
        code: 'invalid_request',
        message: expect.stringContaining('at: must be an RFC 3339'),
      });
      expect(await socket.request(frames.incoming(t))).toMatchObject({ type: 'error', code: 'invalid_request', message: expect.stringContaining('receivedAt') });
    },
  );

  it('records a status report at the instant its `at` names, offset and missing seconds included', async () => {
    const { socket, key } = await unlockedPhone();
    const [id] = await sendMessages(suite.app, key, 1);
    await eventually(() => socket.pushedJobs().length === 1, 5000, 'the pushed job');
    const at = new Date(Date.now() - 120_000);
    const ack = await socket.request({ type: 'status', ref: 's1', messageId: id, status: 'sending', at: localMinute(at) });
    expect(ack).toEqual({ type: 'ack', ref: 's1', messageId: id, status: 'sending' }); // no clock_skew warning
    const m = (await suite.app.request('GET', `/v1/messages/${id}`, { key })).body;
    const sending = m.events.find((e: { toStatus: string }) => e.toStatus === 'sending');
    expect(sending.at).toBe(new Date(Math.floor(at.getTime() / 60_000) * 60_000).toISOString());
  });

  it('takes the same forms over HTTP: POST /device/v1/heartbeat with sentAt to the minute', async () => {
    const { org } = await suite.app.createOrg();
    const { token } = await pairTestPhone(suite.app, org.id);
    const res = await suite.app.request('POST', '/device/v1/heartbeat', { headers: { authorization: `Bearer ${token}` }, body: { sentAt: '2026-01-01T08:00Z' } });
    expect(res.status).toBe(200);
    const bad = await suite.app.request('POST', '/device/v1/heartbeat', { headers: { authorization: `Bearer ${token}` }, body: { sentAt: '2026-02-30T08:00Z' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('sentAt') });
  });
});
