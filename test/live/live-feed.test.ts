import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../support/harness.js';
import { signedInMember, type SignedInMember } from '../support/members.js';
import { insertTestDevice } from '../support/devices.js';
import { recordIncoming } from '../../src/incoming/record-incoming.js';
import { sms, unlockedPhone } from '../incoming/support.js';

let app: TestApp;
let orgId: string;
let key: string;
let viewer: SignedInMember;

beforeAll(async () => {
  app = await startTestApp();
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
  viewer = await signedInMember(app, orgId, 'viewer');
});
afterAll(() => app.close());

const wsUrl = () => `${app.url.replace('http', 'ws')}/dashboard/v1/live`;

/** Opens the feed and collects its frames; resolves once the server said hello. */
async function openFeed(headers: Record<string, string>) {
  const ws = new WebSocket(wsUrl(), { headers });
  const frames: { type: string }[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data) => {
    frames.push(JSON.parse(String(data)));
    waiters.splice(0).forEach((w) => w());
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    ws.once('error', reject);
  });
  const next = (type: string, timeoutMs = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`)), timeoutMs);
      const check = () => {
        const i = frames.findIndex((f) => f.type === type);
        if (i >= 0) {
          frames.splice(0, i + 1);
          clearTimeout(timer);
          resolve();
        } else waiters.push(check);
      };
      check();
    });
  return { ws, frames, next };
}

describe('the live feed', () => {
  it('says hello, then pushes a messages frame when a message changes and a device frame when a phone appears', async () => {
    const feed = await openFeed(viewer.headers);
    // Hello comes once the server recorded where things stand: every change after it is pushed.
    await feed.next('hello');
    await insertTestDevice(app.ctx, orgId, { name: 'Live phone' });
    await feed.next('device');
    const sent = await app.request('POST', '/v1/messages', { key, body: { to: '+261341234567', body: 'live' } });
    expect(sent.status).toBe(202);
    await feed.next('messages');
    await app.request('POST', `/v1/messages/${sent.body.messages[0].id}/cancel`, { key });
    await feed.next('messages');
    feed.ws.close();
  });

  it('pushes a received frame when a phone forwards an SMS, so the received and mobile-money pages refresh', async () => {
    const feed = await openFeed(viewer.headers);
    await feed.next('hello');
    const phone = await unlockedPhone(app, orgId);
    await recordIncoming(app.ctx, phone, sms({ body: 'live inbound' }));
    await feed.next('received');
    feed.ws.close();
  });

  it('refuses a browser without a session, and a page of another site', async () => {
    await expect(openFeed({ origin: new URL(app.url).origin })).rejects.toThrow('refused 401');
    await expect(openFeed({ cookie: viewer.cookie, origin: 'https://evil.example' })).rejects.toThrow('refused 403');
    const ended = await signedInMember(app, orgId, 'viewer');
    await app.ctx.db.query(`UPDATE member_sessions SET ended_at = now() WHERE id = $1`, [ended.sessionId]);
    await expect(openFeed(ended.headers)).rejects.toThrow('refused 401');
  });
});
