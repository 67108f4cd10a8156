import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { startTestApp, type TestApp, type TestResponse } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { countRows, expectError } from '../api/expect-error.js';

let app: TestApp;
let key: string;
let orgId: string;
let before: number;

beforeAll(async () => {
  app = await startTestApp();
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg({ defaultCountry: 'MG' }));
  await insertTestDevice(app.ctx, orgId, { sims: [1] });
});
afterAll(() => app.close());

// Every refused request must leave no trace: no batch, no message.
beforeEach(async () => {
  before = (await countRows(app, 'messages', orgId)) + (await countRows(app, 'batches', orgId));
});
afterEach(async () => {
  expect((await countRows(app, 'messages', orgId)) + (await countRows(app, 'batches', orgId))).toBe(before);
});

const send = (body: unknown, headers?: Record<string, string>) => app.request('POST', '/v1/messages', { key, body, headers });
const valid = { to: '+261341234567', body: 'Salama' };
const numbers = (n: number) => Array.from({ length: n }, (_, i) => `+26134${String(1000000 + i).slice(-7)}`);

function expectInvalid(res: TestResponse, field: RegExp | string) {
  expectError(res, 400, 'invalid_request', field);
}

describe('POST /v1/messages refuses a body outside the SendMessages constraints with 400 naming the field', () => {
  it.each([
    ['to missing', { body: 'x' }, /^to\b/],
    ['body missing', { to: '+261341234567' }, /^body\b/],
    ['to a number', { to: 261341234567, body: 'x' }, /^to\b/],
    ['to null', { to: null, body: 'x' }, /^to\b/],
    ['to an empty array', { to: [], body: 'x' }, /^to\b/],
    ['to an array of 501', { to: numbers(501), body: 'x' }, /^to\b/],
    ['to a string of 33 characters', { to: '+2613412345670000000000000000000', body: 'x' }, /^to\b/],
    ['to an empty string', { to: '', body: 'x' }, /^to\b/],
    ['body empty', { ...valid, body: '' }, /^body\b/],
    ['body of 1601 characters', { ...valid, body: 'a'.repeat(1601) }, /^body\b/],
    ['body not a string', { ...valid, body: 42 }, /^body\b/],
    ['deviceId not matching the id pattern', { ...valid, deviceId: 'dev.1' }, /^deviceId\b/],
    ['deviceId of 65 characters', { ...valid, deviceId: 'd'.repeat(65) }, /^deviceId\b/],
    ['deviceId empty', { ...valid, deviceId: '' }, /^deviceId\b/],
    ['simSubscriptionId negative', { ...valid, deviceId: 'dev_x', simSubscriptionId: -1 }, /^simSubscriptionId\b/],
    ['simSubscriptionId not an integer', { ...valid, deviceId: 'dev_x', simSubscriptionId: 1.5 }, /^simSubscriptionId\b/],
    ['simSubscriptionId a string', { ...valid, deviceId: 'dev_x', simSubscriptionId: '1' }, /^simSubscriptionId\b/],
    ['simSubscriptionId without deviceId', { ...valid, simSubscriptionId: 1 }, /simSubscriptionId.*deviceId/],
    ['an unknown field', { ...valid, from: '+261340000000' }, /from/],
    ['an array instead of an object', [valid], /body/],
    ['null', null, /body/],
  ])('%s', async (_name, body, field) => {
    expectInvalid(await send(body), field);
  });

  it('names the index of a recipient that is too long in an array', async () => {
    const to = ['+261341234567', '+261341234568', 'x'.repeat(33)];
    expectInvalid(await send({ to, body: 'x' }), /to\[2\]/);
  });

  it.each([
    ['letters', 'not-a-number'],
    ['too few digits', '12345'],
    ['a country code with no number', '+261'],
    ['an unassigned Malagasy prefix', '+261 99 123 4567'],
  ])('refuses a recipient that is not a phone number (%s), naming it', async (_name, bad) => {
    expectInvalid(await send({ to: bad, body: 'x' }), /^to: .*not a phone number/);
  });

  it('names the index of the first recipient that is not a phone number, and sends none of the others', async () => {
    const res = await send({ to: ['+261341234567', '0341234568', 'abc', 'def'], body: 'x' });
    expectInvalid(res, /^to\[2\]: "abc" is not a phone number/);
  });

  it('accepts the boundaries: 500 recipients, a 32-character recipient, a 1600-character body', async () => {
    const res = await send({ to: numbers(500), body: 'a'.repeat(1600) });
    expect(res.status).toBe(202);
    expect(res.body.messages).toHaveLength(500);
    expect(res.body.messages[0].segments).toBe(11);
    const padded = await send({ to: `+261 34 12 345 67${' '.repeat(15)}`, body: 'x' });
    expect(padded.status).toBe(202);
    before += 501 + 2; // two batches, 501 messages
  });
});

describe('POST /v1/messages refuses what is not a JSON body', () => {
  it('answers 400 to invalid JSON', async () => {
    expectInvalid(await app.request('POST', '/v1/messages', { key, rawBody: '{"to": "+261341234567",', headers: { 'content-type': 'application/json' } }), /JSON/);
  });

  it('answers 400 to an empty body', async () => {
    expectInvalid(await app.request('POST', '/v1/messages', { key, rawBody: '', headers: { 'content-type': 'application/json' } }), /body/);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx'])('answers 415 to content type %s', async (type) => {
    const res = await app.request('POST', '/v1/messages', { key, rawBody: JSON.stringify(valid), headers: { 'content-type': type } });
    expectError(res, 415, 'unsupported_media_type');
  });

  it('answers 415 when the content type is missing', async () => {
    const res = await fetch(`${app.url}/v1/messages`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: new Uint8Array(Buffer.from(JSON.stringify(valid))) });
    expect(res.status).toBe(415);
    expect((await res.json()).error.code).toBe('unsupported_media_type');
  });

  it('accepts application/json with a charset parameter, in any case', async () => {
    const res = await app.request('POST', '/v1/messages', { key, rawBody: JSON.stringify(valid), headers: { 'content-type': 'Application/JSON; charset=utf-8' } });
    expect(res.status).toBe(202);
    before += 2;
  });

  it('answers 413 (code invalid_request) to a body over the size cap', async () => {
    const huge = JSON.stringify({ ...valid, body: 'a'.repeat(app.ctx.config.bodyLimitBytes + 10) });
    const res = await postRaw(huge);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toMatch(/exceeds/);
  });
});

describe('the idempotency-key header', () => {
  it.each([
    ['129 characters', 'k'.repeat(129)],
    ['a space', 'my key'],
    ['a tab', 'my\tkey'],
  ])('answers 400 to a key with %s', async (_name, value) => {
    expectInvalid(await send(valid, { 'idempotency-key': value }), /idempotency-key/);
  });

  it('accepts 128 printable ASCII characters', async () => {
    const res = await send(valid, { 'idempotency-key': '!~'.repeat(64) });
    expect(res.status).toBe(202);
    before += 2;
  });
});

/** A raw HTTP POST that reads the answer even if the server stops reading the body early. */
function postRaw(payload: string): Promise<{ status: number; body: any }> {
  const url = new URL('/v1/messages', app.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
