import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFrameError, startPhoneTestApp, pairTestPhone, sendMessages, type PhoneTestApp, type TestPhone } from '../support/phones.js';
import { expectError } from '../api/expect-error.js';

// Status and claim frames carry only ids, codes, times and small counts: each is checked by a
// pattern or bounds in its schema, so U+0000 or a huge number is refused naming the field and
// never reaches Postgres. These guard those schemas against a looser rewrite.

let app: PhoneTestApp;
let key: string;
let phone: TestPhone;
let messageId: string;

beforeAll(async () => {
  app = await startPhoneTestApp();
  const { org, key: k } = await app.createOrg();
  key = k;
  phone = await pairTestPhone(app, org.id);
  messageId = (await sendMessages(app, key, 1))[0]!;
  // Outbound off before the phone connects: the message stays queued, so no push moves it while
  // a test compares its row.
  expect((await app.request('PATCH', `/v1/devices/${phone.deviceId}`, { key, body: { outboundEnabled: false } })).status).toBe(200);
  await phone.client.connect(10_000);
});
afterAll(async () => {
  await phone.client.close();
  await app.close();
});

const row = async () => (await app.ctx.db.query('SELECT status, failure_code, updated_at FROM messages WHERE id = $1', [messageId])).rows[0];

const badReports: [string, () => Record<string, unknown>, RegExp][] = [
  ['U+0000 in failureCode', () => ({ messageId, status: 'failed', failureCode: 'radio\u0000off' }), /^failureCode: must not contain U\+0000/],
  ['U+0000 in messageId', () => ({ messageId: `${messageId}\u0000`, status: 'sent' }), /^messageId: must not contain U\+0000/],
  ['U+0000 in at', () => ({ messageId, status: 'sent', at: '2026-01-01T08:00:00Z\u0000' }), /^at: must not contain U\+0000/],
];

describe('status reports with values Postgres cannot store', () => {
  it.each(badReports)('socket frame, %s: invalid_request naming the field, the message unchanged', async (_name, make, message) => {
    const before = await row();
    await expectFrameError(phone.client.reportStatus(make() as never), 'invalid_request', message);
    expect(await row()).toEqual(before);
  });

  it.each(badReports)('POST /device/v1/status, %s: 400 naming the field, the message unchanged', async (_name, make, message) => {
    const before = await row();
    const res = await app.request('POST', '/device/v1/status', { headers: { authorization: `Bearer ${phone.token}` }, body: { reports: [make()] } });
    expectError(res, 400, 'invalid_request', new RegExp(`^reports\\[0\\]\\.${message.source.slice(1)}`));
    expect(await row()).toEqual(before);
  });
});

describe('claims', () => {
  it('a claim frame with max past 2^31-1 is refused naming max, and hands out nothing', async () => {
    const before = await row();
    await expectFrameError(phone.client.claim(2 ** 31), 'invalid_request', /^max: must be an integer from 1 to 100/);
    expect(await row()).toEqual(before);
  });
});
