import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createLink } from '../../src/members/sql/create-link.js';

/** The owner who made their account through the setup link is signed in: the Members page says when (issue 33). */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe('last sign-in', () => {
  it('is set when a link makes the account and signs it in, not only on a password sign-in', async () => {
    const { org } = await app.createOrg();
    const { token } = await createLink(app.ctx.db, { kind: 'invitation', orgId: org.id, email: 'first@example.org', role: 'owner' });
    const origin = new URL(app.url).origin;
    const made = await app.request('POST', '/dashboard/v1/links/accept', { headers: { origin }, body: { token, password: 'a long enough password' } });
    expect(made.status).toBe(200);
    const cookie = made.headers.get('set-cookie')!.split(';')[0]!;
    const members = await app.request('GET', '/dashboard/v1/members', { headers: { cookie, origin } });
    expect(members.status).toBe(200);
    const me = members.body.members.find((m: { email: string }) => m.email === 'first@example.org');
    expect(me.lastSignInAt).not.toBeNull();
    expect(Date.now() - Date.parse(me.lastSignInAt)).toBeLessThan(60_000);
  });
});
