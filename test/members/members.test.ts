import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { signedInMember } from '../support/members.js';
import { startApiProcess, type ApiProcess } from '../support/api-process.js';
import { createLink } from '../../src/members/sql/create-link.js';
import { hashPassword } from '../../src/members/password.js';

let app: TestApp;
let origin: string;

beforeAll(async () => {
  app = await startTestApp();
  origin = new URL(app.url).origin;
});
afterAll(() => app.close());

const cookieOf = (res: { headers: Headers }) => /hafatra_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
const browser = (cookie?: string) => ({ origin, ...(cookie ? { cookie: `hafatra_session=${cookie}` } : {}) });
const tokenOf = (url: string) => url.split('#')[1]!;
let n = 0;
const uniqueEmail = () => `person${Date.now()}${n++}@example.org`;

/** A new organization whose owner has a password, signed in through the real route. */
async function ownerWithPassword(password = 'correct horse battery') {
  const { org } = await app.createOrg();
  const email = uniqueEmail();
  const { token } = await createLink(app.ctx.db, { kind: 'invitation', orgId: org.id, email, role: 'owner' });
  const res = await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(), body: { token, password } });
  expect(res.status).toBe(200);
  return { org, email, password, cookie: cookieOf(res)!, me: res.body };
}

describe('sign-in', () => {
  it('signs in with the right password, sets an HttpOnly SameSite cookie, and answers /me', async () => {
    const o = await ownerWithPassword();
    const res = await app.request('POST', '/dashboard/v1/session', { headers: browser(), body: { email: o.email.toUpperCase(), password: o.password } });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/^hafatra_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    expect(res.body).toMatchObject({ member: { email: o.email }, organization: { id: o.org.id }, role: 'owner' });
    expect(JSON.stringify(res.body)).not.toContain(o.password);
    const me = await app.request('GET', '/dashboard/v1/me', { headers: browser(cookieOf(res)) });
    expect(me.body.role).toBe('owner');
    expect(me.body.scopes).toContain('messages:send');
  });

  it('gives the same answer for a wrong password and an unknown email', async () => {
    const o = await ownerWithPassword();
    const wrong = await app.request('POST', '/dashboard/v1/session', { headers: browser(), body: { email: o.email, password: 'wrong password!' } });
    const unknown = await app.request('POST', '/dashboard/v1/session', { headers: browser(), body: { email: uniqueEmail(), password: 'wrong password!' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error.message).toBe('wrong email or password');
    expect(unknown.body.error.message).toBe(wrong.body.error.message);
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a sign-in posted from another site', async () => {
    const o = await ownerWithPassword();
    const res = await app.request('POST', '/dashboard/v1/session', { headers: { origin: 'https://evil.example' }, body: { email: o.email, password: o.password } });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toBe('cross-site request refused');
  });

  it('limits failed attempts per email, then refuses even the right password with the wait in words', async () => {
    const o = await ownerWithPassword();
    for (let i = 0; i < 5; i++) {
      expect((await app.request('POST', '/dashboard/v1/session', { headers: browser(), body: { email: o.email, password: `wrong ${i} password` } })).status).toBe(401);
    }
    const res = await app.request('POST', '/dashboard/v1/session', { headers: browser(), body: { email: o.email, password: o.password } });
    expect(res.status).toBe(429);
    expect(res.body.error.message).toMatch(/^too many password attempts; try again in 1[45] minutes$/);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(800);
  });

  it('limits failed attempts per address across emails', async () => {
    // The suite's requests all come from 127.0.0.1: this test has its own Redis prefix via a fresh app.
    const own = await startTestApp();
    try {
      let last = 0;
      for (let i = 0; i < 21; i++) {
        last = (await own.request('POST', '/dashboard/v1/session', { headers: { origin: new URL(own.url).origin }, body: { email: uniqueEmail(), password: 'not the password' } })).status;
      }
      expect(last).toBe(429);
    } finally {
      await own.close();
    }
    // 21 sign-ins in a row, each a full scrypt hash: over a second each on a loaded 2-core machine.
  }, 120_000);
});

describe('sessions end', () => {
  it('on sign-out: the cookie is cleared and the session refused', async () => {
    const o = await ownerWithPassword();
    const out = await app.request('DELETE', '/dashboard/v1/session', { headers: browser(o.cookie) });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    expect((await app.request('GET', '/dashboard/v1/me', { headers: browser(o.cookie) })).status).toBe(401);
  });

  it('after the idle time and after the absolute lifetime', async () => {
    const idle = await signedInMember(app, (await app.createOrg()).org.id, 'viewer');
    await app.ctx.db.query(`UPDATE member_sessions SET last_seen_at = now() - interval '9 hours' WHERE id = $1`, [idle.sessionId]);
    expect((await app.request('GET', '/dashboard/v1/me', { headers: idle.headers })).status).toBe(401);
    const old = await signedInMember(app, (await app.createOrg()).org.id, 'viewer');
    await app.ctx.db.query(`UPDATE member_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [old.sessionId]);
    expect((await app.request('GET', '/dashboard/v1/me', { headers: old.headers })).status).toBe(401);
  });

  it('on a password change, for every other session; the new password signs in, the old does not', async () => {
    const o = await ownerWithPassword();
    const other = cookieOf(await app.request('POST', '/dashboard/v1/session', { headers: browser(), body: { email: o.email, password: o.password } }))!;
    const short = await app.request('POST', '/dashboard/v1/password', { headers: browser(o.cookie), body: { currentPassword: o.password, newPassword: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body.error.message).toContain('newPassword');
    const res = await app.request('POST', '/dashboard/v1/password', { headers: browser(o.cookie), body: { currentPassword: o.password, newPassword: 'a much better passphrase' } });
    expect(res.status).toBe(204);
    expect((await app.request('GET', '/dashboard/v1/me', { headers: browser(o.cookie) })).status).toBe(200);
    expect((await app.request('GET', '/dashboard/v1/me', { headers: browser(other) })).status).toBe(401);
    expect((await app.request('POST', '/dashboard/v1/session', { headers: browser(), body: { email: o.email, password: o.password } })).status).toBe(401);
    expect((await app.request('POST', '/dashboard/v1/session', { headers: browser(), body: { email: o.email, password: 'a much better passphrase' } })).status).toBe(200);
  });
});

describe('one-time links', () => {
  it('set up the first owner once; a second use or a racing accept is refused', async () => {
    const { org } = await app.createOrg();
    const { token } = await createLink(app.ctx.db, { kind: 'setup', orgId: org.id, role: 'owner' });
    const inspect = await app.request('POST', '/dashboard/v1/links/inspect', { headers: browser(), body: { token } });
    expect(inspect.body).toMatchObject({ kind: 'setup', email: null, role: 'owner', organization: { id: org.id } });
    const noEmail = await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(), body: { token, password: 'first owner password' } });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.error.message).toContain('email');
    const email = uniqueEmail();
    const both = await Promise.all([0, 1].map(() => app.request('POST', '/dashboard/v1/links/accept', { headers: browser(), body: { token, email, password: 'first owner password' } })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 404]);
    expect((await app.request('POST', '/dashboard/v1/links/inspect', { headers: browser(), body: { token } })).status).toBe(404);
  });

  it('an expired link is refused', async () => {
    const { org } = await app.createOrg();
    const { id, token } = await createLink(app.ctx.db, { kind: 'invitation', orgId: org.id, email: uniqueEmail(), role: 'viewer' });
    await app.ctx.db.query(`UPDATE one_time_links SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    expect((await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(), body: { token, password: 'some good password' } })).status).toBe(404);
  });

  it('an invitation adds a viewer who reads but cannot send; an existing member joins while signed in', async () => {
    const o = await ownerWithPassword();
    const email = uniqueEmail();
    const inv = await app.request('POST', '/dashboard/v1/invitations', { headers: browser(o.cookie), body: { email, role: 'viewer' } });
    expect(inv.status).toBe(201);
    expect(inv.body.url).toMatch(new RegExp(`^${origin}/link#[A-Za-z0-9_-]{43}$`));
    const listed = await app.request('GET', '/dashboard/v1/members', { headers: browser(o.cookie) });
    expect(listed.body.invitations.map((i: { email: string }) => i.email)).toContain(email);
    const accepted = await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(), body: { token: tokenOf(inv.body.url), password: 'viewer password 1' } });
    expect(accepted.body.role).toBe('viewer');
    const viewer = cookieOf(accepted)!;
    expect((await app.request('GET', '/v1/messages', { headers: browser(viewer) })).status).toBe(200);
    expect((await app.request('POST', '/v1/messages', { headers: browser(viewer), body: { to: '+261341234567', body: 'x' } })).status).toBe(403);

    // The same person invited to a second organization keeps one password, and joins signed in.
    const o2 = await ownerWithPassword();
    const inv2 = await app.request('POST', '/dashboard/v1/invitations', { headers: browser(o2.cookie), body: { email, role: 'admin' } });
    const signedOut = await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(), body: { token: tokenOf(inv2.body.url), password: 'viewer password 1' } });
    expect(signedOut.status).toBe(409);
    expect(signedOut.body.error.message).toContain('sign in');
    const joined = await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(viewer), body: { token: tokenOf(inv2.body.url) } });
    expect(joined.status).toBe(200);
    expect(joined.headers.get('set-cookie')).toBeNull();
    expect(joined.body).toMatchObject({ organization: { id: o2.org.id }, role: 'admin' });
    expect(joined.body.organizations.map((x: { id: string }) => x.id).sort()).toEqual([o.org.id, o2.org.id].sort());
    const switched = await app.request('POST', '/dashboard/v1/session/organization', { headers: browser(viewer), body: { organizationId: o.org.id } });
    expect(switched.body).toMatchObject({ organization: { id: o.org.id }, role: 'viewer' });
    const stranger = await app.createOrg();
    expect((await app.request('POST', '/dashboard/v1/session/organization', { headers: browser(viewer), body: { organizationId: stranger.org.id } })).status).toBe(404);
  });

  it("an owner's reset link sets a new password and ends the member's sessions", async () => {
    const o = await ownerWithPassword();
    const email = uniqueEmail();
    const inv = await app.request('POST', '/dashboard/v1/invitations', { headers: browser(o.cookie), body: { email, role: 'admin' } });
    const admin = await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(), body: { token: tokenOf(inv.body.url), password: 'admin password 1' } });
    const reset = await app.request('POST', `/dashboard/v1/members/${admin.body.member.id}/password-reset`, { headers: browser(o.cookie) });
    expect(reset.status).toBe(201);
    const done = await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(), body: { token: tokenOf(reset.body.url), password: 'admin password 2' } });
    expect(done.status).toBe(200);
    expect((await app.request('GET', '/dashboard/v1/me', { headers: browser(cookieOf(admin)) })).status).toBe(401);
    expect((await app.request('POST', '/dashboard/v1/session', { headers: browser(), body: { email, password: 'admin password 2' } })).status).toBe(200);
  });
});

describe('members', () => {
  it('keep at least one owner; a removed member is signed out at once; every action is in the audit log', async () => {
    const o = await ownerWithPassword();
    const me = o.me.member.id;
    const demote = await app.request('PATCH', `/dashboard/v1/members/${me}`, { headers: browser(o.cookie), body: { role: 'admin' } });
    expect(demote.status).toBe(409);
    expect((await app.request('DELETE', `/dashboard/v1/members/${me}`, { headers: browser(o.cookie) })).status).toBe(409);
    const bad = await app.request('PATCH', `/dashboard/v1/members/${me}`, { headers: browser(o.cookie), body: { role: 'king' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('role');

    const inv = await app.request('POST', '/dashboard/v1/invitations', { headers: browser(o.cookie), body: { email: uniqueEmail(), role: 'viewer' } });
    const viewer = await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(), body: { token: tokenOf(inv.body.url), password: 'viewer password 1' } });
    const vid = viewer.body.member.id;
    expect((await app.request('PATCH', `/dashboard/v1/members/${vid}`, { headers: browser(o.cookie), body: { role: 'admin' } })).body.role).toBe('admin');
    expect((await app.request('DELETE', `/dashboard/v1/members/${vid}`, { headers: browser(o.cookie) })).status).toBe(204);
    expect((await app.request('GET', '/v1/messages', { headers: browser(cookieOf(viewer)) })).status).toBe(401);

    const audit = await app.request('GET', '/dashboard/v1/audit?limit=100', { headers: browser(o.cookie) });
    expect(audit.status).toBe(200);
    const actions = audit.body.entries.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['member.removed', 'member.role_changed', 'invitation.created', 'link.invitation_accepted']));
    const removed = audit.body.entries.find((e: { action: string }) => e.action === 'member.removed');
    expect(removed).toMatchObject({ member: { id: me, email: o.email }, target: vid, address: '127.0.0.1' });
    expect(Date.now() - new Date(removed.at).getTime()).toBeLessThan(60_000);
    expect(JSON.stringify(audit.body)).not.toMatch(/password 1|#[A-Za-z0-9_-]{43}/);
    // Paged newest first.
    const page = await app.request('GET', '/dashboard/v1/audit?limit=2', { headers: browser(o.cookie) });
    const next = await app.request('GET', `/dashboard/v1/audit?limit=2&before=${page.body.nextCursor}`, { headers: browser(o.cookie) });
    expect(next.body.entries[0].id < page.body.entries[1].id).toBe(true);
  });
});

describe('roles on every dashboard route', () => {
  it('401 signed out, 403 below the role, 403 cross-site for writes', async () => {
    const { apiRoutes } = await import('../../src/app/routes.js');
    const { org } = await app.createOrg();
    const as = { viewer: await signedInMember(app, org.id, 'viewer'), admin: await signedInMember(app, org.id, 'admin'), owner: await signedInMember(app, org.id, 'owner') };
    const below = { viewer: [], admin: ['viewer'], owner: ['viewer', 'admin'] } as const;
    const routes = apiRoutes(app.ctx).filter((r) => 'role' in r.auth);
    expect(routes.length).toBeGreaterThan(8);
    for (const r of routes) {
      const path = r.path.replaceAll(/:(\w+)/g, 'x_1');
      const method = r.method.toUpperCase();
      const body = r.method === 'get' || r.method === 'delete' ? undefined : {};
      const label = `${method} ${r.path}`;
      expect((await app.request(method, path, { body, headers: { origin } })).status, label).toBe(401);
      for (const role of below[(r.auth as { role: keyof typeof below }).role]) {
        const res = await app.request(method, path, { body, headers: as[role].headers });
        expect(res.status, `${label} as ${role}`).toBe(403);
      }
      if (r.method !== 'get') {
        const res = await app.request(method, path, { body, headers: { cookie: as.owner.cookie, origin: 'https://evil.example' } });
        expect(res.status, `${label} cross-site`).toBe(403);
      }
    }
  });
});

describe('two API processes', () => {
  let second: ApiProcess;
  beforeAll(async () => {
    second = await startApiProcess(app);
  }, 90_000);
  afterAll(() => second?.stop());

  it('a session ended on one process is refused on the other at the next request', async () => {
    const o = await ownerWithPassword();
    const at = (url: string, method: string, path: string, cookie: string, body?: unknown) =>
      fetch(url + path, {
        method,
        headers: { cookie: `hafatra_session=${cookie}`, origin: new URL(url).origin, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    expect((await at(second.url, 'GET', '/dashboard/v1/me', o.cookie)).status).toBe(200);
    expect((await at(app.url, 'DELETE', '/dashboard/v1/session', o.cookie)).status).toBe(204);
    expect((await at(second.url, 'GET', '/dashboard/v1/me', o.cookie)).status).toBe(401);

    // Removal on the second process signs the member out on the first.
    const member = await app.request('POST', '/dashboard/v1/session', { headers: browser(), body: { email: o.email, password: o.password } });
    const owner = cookieOf(member)!;
    const inv = await at(second.url, 'POST', '/dashboard/v1/invitations', owner, { email: uniqueEmail(), role: 'admin' });
    const { url } = (await inv.json()) as { url: string };
    const admin = await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(), body: { token: tokenOf(url), password: 'admin password 1' } });
    expect((await app.request('GET', '/dashboard/v1/me', { headers: browser(cookieOf(admin)) })).status).toBe(200);
    expect((await at(second.url, 'DELETE', `/dashboard/v1/members/${admin.body.member.id}`, owner)).status).toBe(204);
    expect((await app.request('GET', '/dashboard/v1/me', { headers: browser(cookieOf(admin)) })).status).toBe(401);
  });
});

describe('passwords', () => {
  it('are stored as scrypt hashes with their parameters', async () => {
    const h = await hashPassword('some password here');
    expect(h).toMatch(/^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(h).not.toContain('some password');
  });
});
