import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';

let app: TestApp;
const keys: Record<string, string> = {};

beforeAll(async () => {
  app = await startTestApp();
  for (const country of ['MG', 'FR']) {
    const { org, key } = await app.createOrg({ defaultCountry: country });
    await insertTestDevice(app.ctx, org.id);
    keys[country] = key;
  }
});
afterAll(() => app.close());

const send = (country: string, body: Record<string, unknown>) => app.request('POST', '/v1/messages', { key: keys[country], body });

describe('recipients are stored in E.164, national numbers read in the organization default country', () => {
  it.each([
    ['MG', '0341234567', '+261341234567'],
    ['MG', '034 12 345 67', '+261341234567'],
    ['MG', '034-12-345-67', '+261341234567'],
    ['MG', '(034) 12.345.67', '+261341234567'],
    ['MG', '+261 34 12 345 67', '+261341234567'],
    ['MG', '00261341234567', '+261341234567'],
    ['MG', '+33 6 12 34 56 78', '+33612345678'],
    ['FR', '06 12 34 56 78', '+33612345678'],
    ['FR', '06-12-34-56-78', '+33612345678'],
    ['FR', '+261341234567', '+261341234567'],
  ])('%s org: %j → %s', async (country, raw, e164) => {
    const res = await send(country, { to: raw, body: 'x' });
    expect(res.status).toBe(202);
    expect(res.body.messages[0].to).toBe(e164);
  });

  it('keeps the order of the recipients, one message each, all in one batch', async () => {
    const res = await send('MG', { to: ['0341234567', '+33612345678', '0321234567'], body: 'x' });
    expect(res.status).toBe(202);
    expect(res.body.messages.map((m: any) => m.to)).toEqual(['+261341234567', '+33612345678', '+261321234567']);
    expect(new Set(res.body.messages.map((m: any) => m.id)).size).toBe(3);
    expect(res.body.messages.every((m: any) => m.batchId === res.body.batchId)).toBe(true);
  });

  it("reads the same national digits in each organization's own country", async () => {
    expect((await send('MG', { to: '0341234567', body: 'x' })).body.messages[0].to).toBe('+261341234567');
    expect((await send('FR', { to: '0341234567', body: 'x' })).body.messages[0].to).toBe('+33341234567');
  });
});

describe('encoding and segments on the message', () => {
  it.each([
    ['160 GSM characters', 'a'.repeat(160), 'gsm7', 1],
    ['161 GSM characters', 'a'.repeat(161), 'gsm7', 2],
    ['306 GSM characters', 'a'.repeat(306), 'gsm7', 2],
    ['307 GSM characters', 'a'.repeat(307), 'gsm7', 3],
    ['159 characters and a euro sign', `${'a'.repeat(159)}€`, 'gsm7', 2],
    ['70 Unicode characters', 'ж'.repeat(70), 'ucs2', 1],
    ['71 Unicode characters', 'ж'.repeat(71), 'ucs2', 2],
    ['an emoji', 'Salama 👋', 'ucs2', 1],
  ])('%s → %s, %i segment(s)', async (_name, body, encoding, segments) => {
    const res = await send('MG', { to: '0341234567', body });
    expect(res.status).toBe(202);
    expect(res.body.messages[0]).toMatchObject({ body, encoding, segments });
    const { rows } = await app.ctx.db.query('SELECT encoding, segments, body FROM messages WHERE id = $1', [res.body.messages[0].id]);
    expect(rows[0]).toEqual({ encoding, segments, body });
  });
});
