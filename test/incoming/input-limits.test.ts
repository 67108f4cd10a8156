import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFrameError, startPhoneTestApp, pairTestPhone, type PhoneTestApp, type TestPhone } from '../support/phones.js';
import { expectError } from '../api/expect-error.js';
import { eventsOf, sms, subscribeWebhook } from './support.js';

// A received SMS holding U+0000 was a poison message: Postgres refused the row, the phone got
// internal_error and sent it again forever. The sender and text are the network's, so U+0000 is
// removed and the SMS stored. What the app itself writes (clientId, integers) is checked: 400.

let app: PhoneTestApp;
let key: string;
let orgId: string;
let phone: TestPhone;

beforeAll(async () => {
  app = await startPhoneTestApp();
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
  await subscribeWebhook(app, orgId, ['incoming.received']);
  phone = await pairTestPhone(app, orgId);
  await phone.client.connect(10_000);
  await phone.client.heartbeat({ defaultSmsApp: true }); // inbound unlocked
});
afterAll(async () => {
  await phone.client.close();
  await app.close();
});

const post = (body: unknown) => app.request('POST', '/device/v1/incoming', { headers: { authorization: `Bearer ${phone.token}` }, body });
const stored = async () => (await app.ctx.db.query('SELECT count(*)::int AS n FROM incoming_messages WHERE device_id = $1', [phone.deviceId])).rows[0].n as number;
const parts = async () => (await app.ctx.db.query('SELECT count(*)::int AS n FROM incoming_parts WHERE device_id = $1', [phone.deviceId])).rows[0].n as number;
const incoming = async (id: string) => (await app.request('GET', `/v1/incoming/${id}`, { key })).body;

describe('a received SMS holding U+0000', () => {
  it('sent on the socket: stored without it, acknowledged, nothing left to resend', async () => {
    const ack = await phone.client.sendIncoming(sms({ from: '+26134\u00001112233', body: 'Vola\u0000 voaray 5000 Ar' }));
    expect(ack.incomingId).toMatch(/^inc_/);
    expect(phone.client.unacknowledged).toBe(0);
    expect(await incoming(ack.incomingId!)).toMatchObject({ from: '+261341112233', body: 'Vola voaray 5000 Ar' });
    // the event is jsonb, which refuses U+0000 as well
    const event = (await eventsOf(app, orgId, 'incoming.received')).find((e) => e.payload.data.id === ack.incomingId);
    expect(event?.payload.data).toMatchObject({ from: '+261341112233', body: 'Vola voaray 5000 Ar' });
  });

  it('posted in a batch: stored without it', async () => {
    const res = await post({ messages: [sms({ body: '\u0000\u0000Salama\u0000' })] });
    expect(res.status).toBe(200);
    const [result] = res.body.results;
    expect(result.incomingId).toMatch(/^inc_/);
    expect((await incoming(result.incomingId)).body).toBe('Salama');
  });

  it('or a lone surrogate (cut from a pair by the network): stored with U+FFFD in its place, event included', async () => {
    const ack = await phone.client.sendIncoming(sms({ body: 'Salama \ud83d' }));
    expect((await incoming(ack.incomingId!)).body).toBe('Salama \ufffd');
    const event = (await eventsOf(app, orgId, 'incoming.received')).find((e) => e.payload.data.id === ack.incomingId);
    expect(event?.payload.data.body).toBe('Salama \ufffd');
  });

  it('in the parts of a concatenated SMS: joined without it', async () => {
    const part = (index: number, body: string) => sms({ body, part: { ref: 'nul-join', index, count: 2 } });
    expect((await phone.client.sendIncoming(part(1, 'Sa\u0000la'))).pending).toBe(true);
    const ack = await phone.client.sendIncoming(part(2, 'ma\u0000'));
    expect((await incoming(ack.incomingId!)).body).toBe('Salama');
  });
});

const INT = 'must be an integer from 0 to 2147483647';
const refused: [string, () => Record<string, unknown>, RegExp][] = [
  ['simSubscriptionId past 2^31-1', () => sms({ simSubscriptionId: 2 ** 31 }), new RegExp(`simSubscriptionId: ${INT}`)],
  ['a negative simSubscriptionId', () => sms({ simSubscriptionId: -1 }), new RegExp(`simSubscriptionId: ${INT}`)],
  ['U+0000 in the clientId (the app writes it)', () => sms({ clientId: `c\u0000${Date.now()}` }), /clientId: must not contain U\+0000/],
  ['a lone surrogate in the clientId', () => sms({ clientId: `c\ud800${Date.now()}` }), /clientId: must be well-formed UTF-16/],
  ['U+0000 in a part ref', () => sms({ part: { ref: 'r\u0000', index: 1, count: 2 } }), /part\.ref: must not contain U\+0000/],
  ['a part ref past 2^53-1', () => sms({ part: { ref: 2 ** 53, index: 1, count: 2 } }), /part\.ref: /],
  ['a sender that is only U+0000', () => sms({ from: '\u0000' }), /from: /],
];

describe('values the app controls are checked', () => {
  it.each(refused)('POST /device/v1/incoming, %s: 400 invalid_request naming the field, nothing stored', async (_name, make, message) => {
    const before = [await stored(), await parts()];
    expectError(await post({ messages: [make()] }), 400, 'invalid_request', new RegExp(`^messages\\[0\\]\\.${message.source}`));
    expect([await stored(), await parts()]).toEqual(before);
  });

  it.each(refused)('socket frame, %s: invalid_request naming the field (the phone does not retry), nothing stored', async (_name, make, message) => {
    const before = [await stored(), await parts()];
    await expectFrameError(phone.client.sendIncoming(make() as never), 'invalid_request', new RegExp(`^${message.source}`));
    expect(phone.client.unacknowledged).toBe(0);
    expect([await stored(), await parts()]).toEqual(before);
  });

  it('GET /v1/incoming refuses query values holding U+0000 or past any column', async () => {
    expectError(await app.request('GET', '/v1/incoming?deviceId=dev%00', { key }), 400, 'invalid_request', /^deviceId: /);
    expectError(await app.request('GET', '/v1/incoming?limit=4294967296', { key }), 400, 'invalid_request', /^limit: must be an integer from 1 to 100/);
    expectError(await app.request('GET', '/v1/incoming?before=%00', { key }), 400, 'invalid_request', /^before: must not contain U\+0000/);
  });
});
