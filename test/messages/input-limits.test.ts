import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { countRows, expectError } from '../api/expect-error.js';
import { subscribeWebhook } from '../incoming/support.js';

// Values Postgres refuses (U+0000 in text, integers past an integer column) used to be accepted by
// the schema and fail inside the transaction: 500 internal_error. They must be 400 naming the field.

let app: TestApp;
let key: string;
let orgId: string;
let before: number;
let deviceId: string;

beforeAll(async () => {
  app = await startTestApp();
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg({ defaultCountry: 'MG' }));
  deviceId = await insertTestDevice(app.ctx, orgId, { sims: [1] });
  // Subscribed, so accepted messages write their events (jsonb) too, as in production.
  await subscribeWebhook(app, orgId, ['message.queued']);
});
afterAll(() => app.close());

const written = async () => (await countRows(app, 'messages', orgId)) + (await countRows(app, 'batches', orgId));
beforeEach(async () => {
  before = await written();
});

const send = (body: unknown) => app.request('POST', '/v1/messages', { key, body });
const valid = { to: '+261341234567', body: 'Salama' };
// simSubscriptionId is only read with a deviceId; without one it is refused for that reason first.
const onSim = (simSubscriptionId: number) => ({ ...valid, deviceId, simSubscriptionId });

describe('POST /v1/messages with values Postgres cannot store', () => {
  afterEach(async () => {
    expect(await written()).toBe(before); // a refused request leaves no batch and no message
  });

  it.each([
    ['U+0000 in the body', { ...valid, body: 'Salama\u0000 tompoko' }, /^body: must not contain U\+0000/],
    ['U+0000 alone as the body', { ...valid, body: '\u0000' }, /^body: must not contain U\+0000/],
    ['U+0000 in a recipient', { ...valid, to: '+2613412\u000034567' }, /^to: must not contain U\+0000/],
    ['U+0000 in a listed recipient', { ...valid, to: ['+261341234567', '+26134\u0000'] }, /^to\[1\]: must not contain U\+0000/],
    ['simSubscriptionId past 2^31-1', () => onSim(2 ** 31), /^simSubscriptionId: must be an integer from 0 to 2147483647/],
    ['simSubscriptionId of 1e20', () => onSim(1e20), /^simSubscriptionId: must be an integer from 0 to 2147483647/],
    ['simSubscriptionId below 0', () => onSim(-1), /^simSubscriptionId: must be an integer from 0 to 2147483647/],
  ])('%s: 400 invalid_request naming the field', async (_name, body, message) => {
    expectError(await (typeof body === 'function' ? send(body()) : send(body)), 400, 'invalid_request', message);
  });

  it('reads the largest simSubscriptionId an integer column holds: not a SIM of the device, not a 500', async () => {
    const res = await send(onSim(2 ** 31 - 1));
    expectError(res, res.status, res.body?.error?.code);
    expect(res.status).toBeLessThan(500);
  });
});

describe('GET /v1/messages with bad query values', () => {
  it.each([
    ['limit of 21 digits', 'limit=999999999999999999999', /^limit: must be an integer from 1 to 100/],
    ['limit past 2^31', 'limit=2147483648', /^limit: must be an integer from 1 to 100/],
    ['limit with U+0000', 'limit=1%00', /^limit: must be an integer from 1 to 100/],
    ['before with U+0000', 'before=%00', /^before: must not contain U\+0000/],
    ['before with U+0000 inside a cursor', 'before=eyJiIjoibXNnXzEifQ%00', /^before: must not contain U\+0000/],
    ['status with U+0000', 'status=sent%00', /^status: must not contain U\+0000/],
  ])('%s: 400 invalid_request naming the parameter', async (_name, query, message) => {
    expectError(await app.request('GET', `/v1/messages?${query}`, { key }), 400, 'invalid_request', message);
  });
});

describe('lone UTF-16 surrogates', () => {
  // JSON.parse accepts "\ud800". Node turns it into U+FFFD on its way to a text column, but the
  // message.queued event is built with JSON.stringify, which writes "\ud800" back, and the
  // jsonb column refused it: a 500 for every organization with a webhook. Refused instead.
  it.each([
    ['in the body', '{"to":"+261341234567","body":"a\\ud800b"}', /^body: must be well-formed UTF-16/],
    ['in the body, a low half alone', '{"to":"+261341234567","body":"\\udc00"}', /^body: must be well-formed UTF-16/],
    ['in a recipient', '{"to":["+261341234567\\udbff"],"body":"Salama"}', /^to\[0\]: must be well-formed UTF-16/],
  ])('%s: 400 invalid_request naming the field, nothing written', async (_name, rawBody, message) => {
    const res = await app.request('POST', '/v1/messages', { key, rawBody, headers: { 'content-type': 'application/json' } });
    expectError(res, 400, 'invalid_request', message);
    expect(await written()).toBe(before);
  });

  it('a well-formed pair (an emoji) is accepted and stored as sent', async () => {
    const res = await send({ ...valid, body: 'Salama \ud83d\ude00' });
    expect(res.status).toBe(202);
    expect((await app.request('GET', `/v1/messages/${res.body.messages[0].id}`, { key })).body.body).toBe('Salama 😀');
  });
});
