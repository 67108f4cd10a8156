import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createLink } from '../../src/members/sql/create-link.js';
import { runCliInProcess } from '../support/cli.js';
import { testDatabaseUrl } from '../support/database.js';
import { PASSWORD_ATTEMPT_LIMITS } from '../../src/members/password-attempts.js';

// Issue: an owner of one organization took over an account that was also in another, and an
// invitation link let anyone guess an existing member's password without limit. Each test is the
// attack, from a client address of its own (X-Forwarded-For, trusted here), so the limits of one
// never touch another.
let app: TestApp;
let origin: string;
beforeAll(async () => {
  app = await startTestApp({ trustProxy: true });
  origin = new URL(app.url).origin;
});
afterAll(() => app.close());

let n = 0;
const uniqueEmail = () => `acct${randomBytes(4).toString('hex')}${n++}@example.org`;
const newAddress = () => `198.51.100.${++n}`;
const cookieOf = (res: { headers: Headers }) => /hafatra_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
const browser = (address: string, cookie?: string) => ({ origin, 'x-forwarded-for': address, ...(cookie ? { cookie: `hafatra_session=${cookie}` } : {}) });
const tokenOf = (url: string) => url.split('#')[1]!;

/** A person with a password, owner of a new organization, signed in. */
async function owner(address = newAddress()) {
  const { org } = await app.createOrg();
  const email = uniqueEmail();
  const password = `pw ${randomBytes(6).toString('hex')}`;
  const { token } = await createLink(app.ctx.db, { kind: 'invitation', orgId: org.id, email, role: 'owner' });
  const res = await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(address), body: { token, password } });
  expect(res.status).toBe(200);
  return { org, email, password, address, memberId: res.body.member.id as string, cookie: cookieOf(res)! };
}

/** `who` (already an account) joins `by`'s organization as `role`, signed in: the only way an existing account joins. */
async function joinSignedIn(who: Awaited<ReturnType<typeof owner>>, by: Awaited<ReturnType<typeof owner>>, role: string) {
  const inv = await app.request('POST', '/dashboard/v1/invitations', { headers: browser(by.address, by.cookie), body: { email: who.email, role } });
  expect(inv.status).toBe(201);
  const joined = await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(who.address, who.cookie), body: { token: tokenOf(inv.body.url) } });
  expect(joined.status).toBe(200);
  return joined;
}

const auditActions = async (orgId: string) =>
  (await app.ctx.db.query(`SELECT action, member_id AS "memberId", target FROM audit_log WHERE org_id = $1 ORDER BY id`, [orgId])).rows as {
    action: string;
    memberId: string | null;
    target: string;
  }[];

const signIn = (email: string, password: string, address: string) => app.request('POST', '/dashboard/v1/session', { headers: browser(address), body: { email, password } });

describe("an owner's power stops at their organization", () => {
  it("refuses B's owner a reset link for alice, owner of A and viewer of B; alice keeps her password and her sessions", async () => {
    const alice = await owner();
    const bOwner = await owner();
    await joinSignedIn(alice, bOwner, 'viewer');
    const reset = await app.request('POST', `/dashboard/v1/members/${alice.memberId}/password-reset`, { headers: browser(bOwner.address, bOwner.cookie) });
    expect(reset.status).toBe(403);
    expect(reset.body.error.message).toContain('also a member of another organization');
    expect((await app.request('GET', '/dashboard/v1/me', { headers: browser(alice.address, alice.cookie) })).status).toBe(200);
    expect((await signIn(alice.email, alice.password, alice.address)).status).toBe(200);
  });

  it('refuses a reset link made while the account was in one organization once it joined another', async () => {
    const alice = await owner();
    const bOwner = await owner();
    // alice is first only in B (an account of B's alone), and B's owner makes a reset link then.
    const inv = await app.request('POST', '/dashboard/v1/invitations', { headers: browser(bOwner.address, bOwner.cookie), body: { email: uniqueEmail(), role: 'viewer' } });
    const bob = await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(newAddress()), body: { token: tokenOf(inv.body.url), password: 'bob password 1' } });
    const link = await app.request('POST', `/dashboard/v1/members/${bob.body.member.id}/password-reset`, { headers: browser(bOwner.address, bOwner.cookie) });
    expect(link.status).toBe(201);
    // bob then joins alice's organization, signed in.
    const invA = await app.request('POST', '/dashboard/v1/invitations', { headers: browser(alice.address, alice.cookie), body: { email: bob.body.member.email, role: 'admin' } });
    expect((await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(newAddress(), cookieOf(bob)), body: { token: tokenOf(invA.body.url) } })).status).toBe(200);
    const takeover = await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(bOwner.address), body: { token: tokenOf(link.body.url), password: 'taken over password' } });
    expect(takeover.status).toBe(403);
    expect((await signIn(bob.body.member.email, 'taken over password', newAddress())).status).toBe(401);
    expect((await signIn(bob.body.member.email, 'bob password 1', newAddress())).status).toBe(200);
  });

  it("lets the server's operator reset any account, and writes every reset and password change in every organization's log", async () => {
    const alice = await owner();
    const bOwner = await owner();
    await joinSignedIn(alice, bOwner, 'viewer');
    const env = { DATABASE_URL: testDatabaseUrl(), REDIS_URL: inject('redisUrl'), HAFATRA_REDIS_PREFIX: `acct${randomBytes(3).toString('hex')}`, LOG_LEVEL: 'silent' };
    const cli = await runCliInProcess(['member', 'reset-password', '--email', alice.email, '--json'], env);
    expect(cli.code, cli.stderr).toBe(0);
    const done = await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(alice.address), body: { token: tokenOf(JSON.parse(cli.stdout).url), password: 'reset by the operator' } });
    expect(done.status).toBe(200);
    const changed = await app.request('POST', '/dashboard/v1/password', {
      headers: browser(alice.address, cookieOf(done)),
      body: { currentPassword: 'reset by the operator', newPassword: 'changed by alice herself' },
    });
    expect(changed.status).toBe(204);
    for (const org of [alice.org.id, bOwner.org.id]) {
      const actions = (await auditActions(org)).filter((e) => e.target === alice.memberId).map((e) => e.action);
      expect(actions, org).toEqual(expect.arrayContaining(['member.reset_link_created', 'link.reset_accepted', 'member.password_changed']));
    }
  });

  it('ends a removed member’s sessions in that organization only', async () => {
    const alice = await owner();
    const bOwner = await owner();
    await joinSignedIn(alice, bOwner, 'viewer');
    const inA = cookieOf(await signIn(alice.email, alice.password, alice.address))!;
    expect((await app.request('POST', '/dashboard/v1/session/organization', { headers: browser(alice.address, inA), body: { organizationId: alice.org.id } })).status).toBe(200);
    // alice.cookie now acts in B (joining moved that session there).
    expect((await app.request('GET', '/dashboard/v1/me', { headers: browser(alice.address, alice.cookie) })).body.organization.id).toBe(bOwner.org.id);
    expect((await app.request('DELETE', `/dashboard/v1/members/${alice.memberId}`, { headers: browser(bOwner.address, bOwner.cookie) })).status).toBe(204);
    expect((await app.request('GET', '/dashboard/v1/me', { headers: browser(alice.address, alice.cookie) })).status).toBe(401);
    const stillA = await app.request('GET', '/dashboard/v1/me', { headers: browser(alice.address, inA) });
    expect(stillA.status).toBe(200);
    expect(stillA.body).toMatchObject({ organization: { id: alice.org.id }, role: 'owner' });
  });
});

describe('joining with an existing account', () => {
  it('is refused through the link page without a session, spends nothing, and checks no password', async () => {
    const alice = await owner();
    const mallory = await owner();
    const inv = await app.request('POST', '/dashboard/v1/invitations', { headers: browser(mallory.address, mallory.cookie), body: { email: alice.email, role: 'viewer' } });
    const guesses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        app.request('POST', '/dashboard/v1/links/accept', { headers: browser(mallory.address), body: { token: tokenOf(inv.body.url), password: i === 9 ? alice.password : `guess number ${i}` } }),
      ),
    );
    // The right password among them changes nothing: every answer is the same refusal.
    expect(new Set(guesses.map((g) => `${g.status} ${g.body.error?.message}`))).toEqual(new Set(['409 this address already has an account: sign in with it, then open this link again to join']));
    expect(guesses.some((g) => g.headers.get('set-cookie'))).toBe(false);
    // The link is still open for alice, who joins signed in.
    const joined = await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(alice.address, alice.cookie), body: { token: tokenOf(inv.body.url) } });
    expect(joined.status).toBe(200);
    expect(joined.body.organizations.map((o: { id: string }) => o.id).sort()).toEqual([alice.org.id, mallory.org.id].sort());
  });

  it('is refused to a member signed in as another address', async () => {
    const alice = await owner();
    const mallory = await owner();
    const inv = await app.request('POST', '/dashboard/v1/invitations', { headers: browser(alice.address, alice.cookie), body: { email: uniqueEmail(), role: 'admin' } });
    const res = await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(mallory.address, mallory.cookie), body: { token: tokenOf(inv.body.url) } });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('another email address');
  });

  it('inspecting an invitation answers the same for a known and an unknown address', async () => {
    const o = await owner();
    const known = await owner();
    const inspect = async (email: string) => {
      const inv = await app.request('POST', '/dashboard/v1/invitations', { headers: browser(o.address, o.cookie), body: { email, role: 'viewer' } });
      const res = await app.request('POST', '/dashboard/v1/links/inspect', { headers: browser(newAddress()), body: { token: tokenOf(inv.body.url) } });
      expect(res.status).toBe(200);
      const { email: _e, expiresAt: _x, ...rest } = res.body;
      return rest;
    };
    expect(await inspect(known.email)).toEqual(await inspect(uniqueEmail()));
  });
});

/** Passwords this process has hashed and compared (right or wrong), from its metrics. */
async function hashed(): Promise<number> {
  const { values } = await app.ctx.metrics.passwordChecks.get();
  return values.filter((v) => v.labels.outcome === 'right' || v.labels.outcome === 'wrong').reduce((sum, v) => sum + v.value, 0);
}

describe('one limiter for every password check', () => {
  it('gives 40 concurrent sign-ins for one account exactly the limit’s number of checks', async () => {
    const alice = await owner();
    const address = newAddress();
    const before = await hashed();
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => signIn(alice.email, i === 39 ? alice.password : `wrong guess ${i}`, address)));
    // Before, all 40 were hashed and checked, and the limit only decided which answers said 429.
    expect((await hashed()) - before).toBe(PASSWORD_ATTEMPT_LIMITS.perAccountAndAddress);
    expect(answers.filter((a) => a.status !== 429).length).toBe(PASSWORD_ATTEMPT_LIMITS.perAccountAndAddress);
    expect(answers.filter((a) => a.status === 429).every((a) => Number(a.headers.get('retry-after')) > 0)).toBe(true);
    // A stranger's guesses from elsewhere never locked alice out at her own address.
    expect((await signIn(alice.email, alice.password, alice.address)).status).toBe(200);
  }, 60_000);

  it('limits guesses of the current password on a password change', async () => {
    const alice = await owner();
    const statuses: number[] = [];
    for (let i = 0; i < PASSWORD_ATTEMPT_LIMITS.perAccountAndAddress + 1; i++) {
      const res = await app.request('POST', '/dashboard/v1/password', {
        headers: browser(alice.address, alice.cookie),
        body: { currentPassword: `guess ${i} wrong`, newPassword: 'a new long password' },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(PASSWORD_ATTEMPT_LIMITS.perAccountAndAddress).fill(400), 429]);
    const right = await app.request('POST', '/dashboard/v1/password', { headers: browser(alice.address, alice.cookie), body: { currentPassword: alice.password, newPassword: 'a new long password' } });
    expect(right.status).toBe(429);
  }, 60_000);

  it('keeps 150 concurrent sign-ins from one address from slowing another organization’s API', async () => {
    const { key } = await app.createOrg();
    const address = newAddress();
    const before = await hashed();
    const flood = Promise.all(Array.from({ length: 150 }, () => signIn(uniqueEmail(), 'some guessed password', address)));
    const others: { status: number; ms: number }[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      const res = await app.request('GET', '/v1/messages', { key });
      others.push({ status: res.status, ms: performance.now() - t });
    }
    const answers = await flood;
    expect(others.map((o) => o.status)).toEqual(Array(20).fill(200));
    // The pool time-out that failed them before is 5 s; a normal answer here is milliseconds.
    expect(Math.max(...others.map((o) => o.ms))).toBeLessThan(2000);
    expect(answers.every((a) => a.status === 401 || a.status === 429)).toBe(true);
    expect(answers.filter((a) => a.status === 401).length).toBeLessThanOrEqual(PASSWORD_ATTEMPT_LIMITS.perAddress);
    expect((await hashed()) - before).toBeLessThanOrEqual(PASSWORD_ATTEMPT_LIMITS.perAddress);
  }, 60_000);
});

describe('sessions follow membership', () => {
  it("closes a removed member's live feed within 5 s", async () => {
    const alice = await owner();
    const bOwner = await owner();
    await joinSignedIn(alice, bOwner, 'viewer');
    const ws = new WebSocket(`${app.url.replace('http', 'ws')}/dashboard/v1/live`, { headers: browser(alice.address, alice.cookie) });
    await new Promise<void>((resolve, reject) => {
      ws.once('message', () => resolve());
      ws.once('error', reject);
    });
    const closed = new Promise<{ code: number; at: number }>((resolve) => ws.once('close', (code) => resolve({ code, at: performance.now() })));
    const removedAt = performance.now();
    expect((await app.request('DELETE', `/dashboard/v1/members/${alice.memberId}`, { headers: browser(bOwner.address, bOwner.cookie) })).status).toBe(204);
    const { code, at } = await closed;
    expect(code).toBe(4401);
    expect(at - removedAt).toBeLessThan(5000);
  });
});
