import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from './harness.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createLink } from '../../src/members/sql/create-link.js';

/**
 * A person who already has an account is invited to a second organization: the link page never
 * takes that account's password; it offers the normal sign-in, then a Join button (docs/security.md).
 */
let app: TestApp;
let browser: Browser;
let page: Page;
const ALICE = { email: 'alice@example.org', password: 'alice long password' };

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchChromium()]);
  page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const heading = () => page.getByRole('heading', { level: 1 });

describe('joining a second organization with an existing account', () => {
  it('asks to sign in rather than for the password, then joins with one click', async () => {
    const first = await app.createOrg();
    const { token } = await createLink(app.ctx.db, { kind: 'invitation', orgId: first.org.id, email: ALICE.email, role: 'owner' });
    const made = await app.request('POST', '/dashboard/v1/links/accept', { headers: { origin: new URL(app.url).origin }, body: { token, password: ALICE.password } });
    expect(made.status).toBe(200);
    const second = await app.createOrg();
    const invitation = await createLink(app.ctx.db, { kind: 'invitation', orgId: second.org.id, email: ALICE.email, role: 'admin' });

    await page.goto(`${app.url}/link#${invitation.token}`);
    await expect.poll(() => heading().textContent()).toBe('Join the organization');
    // Typing a password as if new: the server says to sign in, and the page shows the sign-in.
    await page.getByLabel('New password').fill(ALICE.password);
    await page.getByLabel('Repeat the password').fill(ALICE.password);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toMatch(/already has an account: sign in/);
    await expect.poll(() => heading().textContent()).toBe(`Sign in as ${ALICE.email} to join`);
    await page.getByLabel('Email').fill(ALICE.email);
    await page.getByLabel('Password').fill(ALICE.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByText(`Signed in as ${ALICE.email}`).count()).toBe(1);
    await screenshot(page, 'join-signed-in');
    await page.getByRole('button', { name: `Join ${second.org.name}` }).click();
    await expect.poll(() => heading().textContent()).toBe('Overview');
    const me = await page.evaluate(() => fetch('/dashboard/v1/me').then((r) => r.json()));
    expect(me).toMatchObject({ organization: { id: second.org.id }, role: 'admin' });
    expect(me.organizations).toHaveLength(2);
  }, 60_000);
});
