import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { signedInMember, type SignedInMember } from '../support/members.js';
import { insertTestDevice } from '../support/devices.js';
import { storeReceivedSms } from '../support/received-sms.js';

/** A contact's thread: what was sent to a number and received from it, in time order, this organization's only. */
let app: TestApp;
let viewer: SignedInMember;
let orgId: string;
let key: string;
let deviceId: string;

const receive = (org: string, device: string, from: string, body: string, minutesAgo: number) => storeReceivedSms(app.ctx.db, { orgId: org, deviceId: device, from, body, minutesAgo });

beforeAll(async () => {
  app = await startTestApp();
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg({ defaultCountry: 'MG' }));
  viewer = await signedInMember(app, orgId, 'viewer');
  deviceId = await insertTestDevice(app.ctx, orgId);
});
afterAll(async () => {
  await app?.close();
});

describe('a conversation', () => {
  it('joins sent and received in time order, for the number however it is written', async () => {
    await receive(orgId, deviceId, '+261341234567', 'Salama, mbola misy ve?', 10);
    const sent = await app.request('POST', '/v1/messages', { key, body: { to: '034 12 345 67', body: 'Eny, mbola misy', deviceId } });
    expect(sent.status).toBe(202);
    await app.request('POST', '/v1/messages', { key, body: { to: '+261349999999', body: 'Someone else', deviceId } });
    const other = await app.createOrg({ defaultCountry: 'MG' });
    await receive(other.org.id, await insertTestDevice(app.ctx, other.org.id), '+261341234567', 'Not in this organization', 5);

    for (const written of ['034 12 345 67', '+261341234567', '0341234567']) {
      const res = await app.request('GET', `/dashboard/v1/conversation?number=${encodeURIComponent(written)}`, { headers: viewer.headers });
      expect(res.status).toBe(200);
      expect(res.body.number).toBe('+261341234567');
      expect(res.body.entries.map((e: { kind: string; message?: { body: string }; sms?: { body: string } }) => `${e.kind}: ${e.message?.body ?? e.sms?.body}`)).toEqual([
        'received: Salama, mbola misy ve?',
        'sent: Eny, mbola misy',
      ]);
      expect(res.body.more).toBe(false);
    }
  });

  it('refuses what is not a phone number, naming the field', async () => {
    const res = await app.request('GET', '/dashboard/v1/conversation?number=hello', { headers: viewer.headers });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^number: not a phone number/);
  });
});
