import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { signedInMember, type SignedInMember } from '../support/members.js';
import { endSession } from '../../src/auth/sql/end-session.js';

let app: TestApp;
let orgId: string;
let key: string;
let viewer: SignedInMember;
let admin: SignedInMember;

beforeAll(async () => {
  app = await startTestApp();
  ({
    org: { id: orgId },
    key,
  } = await app.createOrg());
  viewer = await signedInMember(app, orgId, 'viewer');
  admin = await signedInMember(app, orgId, 'admin');
});
afterAll(() => app.close());

const send = { to: '+261341234567', body: 'hello' };

describe('a member session on the /v1 routes', () => {
  it('lets a viewer read and refuses them a write, naming the role needed', async () => {
    expect((await app.request('GET', '/v1/messages', { headers: viewer.headers })).status).toBe(200);
    const res = await app.request('POST', '/v1/messages', { headers: viewer.headers, body: send });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('admin') });
  });

  it('lets an admin write (here: no phone can send yet)', async () => {
    const res = await app.request('POST', '/v1/messages', { headers: admin.headers, body: send });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('no_device');
  });

  it('refuses a state-changing request from another origin, without Origin, or marked cross-site', async () => {
    for (const headers of <Record<string, string>[]>[
      { cookie: admin.cookie, origin: 'https://evil.example' },
      { cookie: admin.cookie },
      { ...admin.headers, 'sec-fetch-site': 'cross-site' },
      { cookie: admin.cookie, origin: 'null' },
    ]) {
      const res = await app.request('POST', '/v1/messages', { headers, body: send });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'forbidden', message: 'cross-site request refused' });
    }
  });

  it('lets the Authorization header decide alone when both are sent', async () => {
    const res = await app.request('GET', '/v1/messages', { headers: { ...viewer.headers, authorization: 'Bearer hfk_wrong' } });
    expect(res.status).toBe(401);
    expect((await app.request('GET', '/v1/messages', { key, headers: viewer.headers })).status).toBe(200);
  });

  it('ends at once when the session ends or the member leaves the organization', async () => {
    const gone = await signedInMember(app, orgId, 'admin');
    expect((await app.request('GET', '/v1/devices', { headers: gone.headers })).status).toBe(200);
    await endSession(app.ctx.db, gone.sessionId, 'signed_out');
    const res = await app.request('GET', '/v1/devices', { headers: gone.headers });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');

    const removed = await signedInMember(app, orgId, 'viewer');
    await app.ctx.db.query('DELETE FROM memberships WHERE member_id = $1', [removed.memberId]);
    expect((await app.request('GET', '/v1/devices', { headers: removed.headers })).status).toBe(401);
  });

  it('never shows another organization its records', async () => {
    const other = await app.createOrg();
    const stranger = await signedInMember(app, other.org.id, 'owner');
    const mine = await app.request('GET', '/v1/devices', { headers: stranger.headers });
    expect(mine.status).toBe(200);
    expect(mine.body.devices).toEqual([]);
  });

  it('answers 401 without a cookie, and for a malformed one', async () => {
    expect((await app.request('GET', '/v1/messages')).status).toBe(401);
    expect((await app.request('GET', '/v1/messages', { headers: { cookie: 'hafatra_session=abc' } })).status).toBe(401);
  });
});
