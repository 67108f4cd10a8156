import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { signedInMember, type SignedInMember } from '../support/members.js';
import { insertTestDevice } from '../support/devices.js';
import { storeReceivedSms } from '../support/received-sms.js';

/** The dashboard's search: messages by id, recipient and text; received SMS by sender and text; one organization's only. */
let app: TestApp;
let viewer: SignedInMember;
let orgId: string;
let deviceId: string;
const ids: Record<string, string> = {};

async function send(key: string, device: string, to: string, body: string) {
  const res = await app.request('POST', '/v1/messages', { key, body: { to, body, deviceId: device } });
  expect(res.status).toBe(202);
  return res.body.messages[0].id as string;
}

const receive = (org: string, device: string, from: string, body: string) => storeReceivedSms(app.ctx.db, { orgId: org, deviceId: device, from, body });

beforeAll(async () => {
  app = await startTestApp();
  const a = await app.createOrg({ defaultCountry: 'MG' });
  const b = await app.createOrg({ defaultCountry: 'MG' });
  orgId = a.org.id;
  viewer = await signedInMember(app, orgId, 'viewer');
  deviceId = await insertTestDevice(app.ctx, orgId);
  const theirs = await insertTestDevice(app.ctx, b.org.id);
  ids.rent = await send(a.key, deviceId, '+261341234567', 'Your rent receipt for March: 100% paid');
  ids.code = await send(a.key, deviceId, '+261329876543', 'Your code is 4242');
  ids.theirs = await send(b.key, theirs, '+261341234567', 'Their rent receipt');
  ids.mvola = await receive(orgId, deviceId, 'MVola', '850 000 Ar recu de Going Beyond. Raison: loyer.');
  ids.person = await receive(orgId, deviceId, '+261345550000', 'Salama, tonga ve ilay loyer?');
  await receive(b.org.id, theirs, 'MVola', 'Their loyer too');
});
afterAll(async () => {
  await app?.close();
});

const search = async (what: 'messages' | 'incoming', q: string) => {
  const res = await app.request('GET', `/dashboard/v1/search/${what}?q=${encodeURIComponent(q)}`, { headers: viewer.headers });
  return res;
};
const found = async (what: 'messages' | 'incoming', q: string) => {
  const res = await search(what, q);
  expect(res.status).toBe(200);
  return (res.body[what] as { id: string }[]).map((m) => m.id);
};

describe('searching messages', () => {
  it('finds by text, by a whole or partial recipient, and by id, in this organization only', async () => {
    expect(await found('messages', 'RENT receipt')).toEqual([ids.rent]);
    expect(await found('messages', '034 12 345 67')).toEqual([ids.rent]);
    expect(await found('messages', '98765')).toEqual([ids.code]);
    expect(await found('messages', ids.code!)).toEqual([ids.code]);
    expect(await found('messages', ids.theirs!)).toEqual([]);
    // What is typed is matched as text: % is a character, not "anything".
    expect(await found('messages', '100%')).toEqual([ids.rent]);
    expect(await found('messages', '10%0')).toEqual([]);
  });

  it('refuses fewer than 3 characters, naming the field', async () => {
    const res = await search('messages', 'ab');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^q: must be 3 to 200 characters/);
  });
});

describe('searching received SMS', () => {
  it('finds by text and by sender, name or number in part, in this organization only', async () => {
    expect(new Set(await found('incoming', 'loyer'))).toEqual(new Set([ids.mvola, ids.person]));
    expect(await found('incoming', 'mvola')).toEqual([ids.mvola]);
    expect(await found('incoming', '555 00')).toEqual([ids.person]);
  });

  it('has a trigram index on received SMS, and none on messages, whose inserts it would slow', async () => {
    const { rows } = await app.ctx.db.query(`SELECT tablename FROM pg_indexes WHERE indexdef ILIKE '%gin_trgm_ops%'`);
    const tables = new Set((rows as { tablename: string }[]).map((r) => r.tablename));
    expect(tables).toContain('incoming_messages');
    expect([...tables].filter((t) => t.startsWith('messages'))).toEqual([]);
  });
});
