import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { caFile, launchChromium, screenshot, startFreshServer, type FreshServer } from './harness.js';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver.js';
import { DeviceClient } from '../../src/phone/device-client.js';
import { SimulatedPhone } from '../../src/phone/simulated-phone.js';
import { MOBILE_MONEY_SAMPLES } from '../../src/phone/sample-sms.js';

/**
 * A new user's first hour, in a real browser against `hafatra start`: set up the first owner
 * from the printed link, pair a phone with the code read from the page, send, cancel, resend,
 * review mobile money, a webhook and its log, API keys, a viewer, another origin, sign out.
 */
let server: FreshServer;
let receiver: HttpsReceiver;
let ca: Awaited<ReturnType<typeof caFile>>;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let phone: SimulatedPhone | undefined;
const OWNER = { email: 'owner@example.org', password: 'a long owner password' };

beforeAll(async () => {
  receiver = await startHttpsReceiver();
  ca = await caFile(receiver.ca);
  [server, browser] = await Promise.all([startFreshServer({ NODE_EXTRA_CA_CERTS: ca.path, HAFATRA_WEBHOOK_ALLOW_HOSTS: 'localhost,127.0.0.1' }), launchChromium()]);
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
}, 120_000);

afterAll(async () => {
  await phone?.stop();
  await browser?.close();
  await server?.stop();
  await receiver?.close();
  await ca?.remove();
});

const heading = (p: Page) => p.getByRole('heading', { level: 1 });
const go = async (p: Page, label: string) => {
  await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
  await expect.poll(() => heading(p).textContent()).toBeTruthy();
};
const shot = async (p: Page, name: string) => {
  await screenshot(p, name);
  await p.setViewportSize({ width: 360, height: 780 });
  await screenshot(p, `${name}-360`);
  await p.setViewportSize({ width: 1280, height: 900 });
};

describe('a new user, from the printed setup link to sign-out', () => {
  it('sets up the first owner from the link printed by hafatra start', async () => {
    const key = (await server.line(/^ {2}(hfk_\S+)$/))[1];
    expect(key).toBeTruthy();
    const link = (await server.line(/^ {2}(http:\/\/\S+\/link#\S+)$/))[1]!;
    const res = await page.goto(link);
    const csp = res!.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(await page.locator('script:not([src])').count()).toBe(0);
    await expect.poll(() => heading(page).textContent()).toBe('Create the first owner');
    await screenshot(page, 'setup');
    await page.getByLabel('Your email').fill(OWNER.email);
    await page.getByLabel('New password').fill(OWNER.password);
    await page.getByLabel('Repeat the password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await expect.poll(() => heading(page).textContent()).toBe('Overview');
    // No secret in the browser's storage: the session is an HttpOnly cookie.
    expect(await page.evaluate(() => JSON.stringify(localStorage) + JSON.stringify(sessionStorage) + document.cookie)).toBe('{}{}');
  });

  it('signs out and in again, with a clear message for a wrong password', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => heading(page).textContent()).toBe('Sign in to Hafatra');
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Said inside the form, beside what to fix, not in a passing notice.
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/wrong email or password/i);
    await screenshot(page, 'sign-in');
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => heading(page).textContent()).toBe('Overview');
    await shot(page, 'overview');
  });

  it('pairs a simulated phone with the code read from the page; the phone appears without a reload', async () => {
    await go(page, 'Phones');
    await expect.poll(() => page.getByText('No phone is paired yet').count()).toBe(1);
    await page.getByRole('button', { name: 'Pair a phone' }).click();
    // The phone is named before its code is made.
    await page.getByLabel('Name of the phone').fill('Front desk');
    await page.getByRole('button', { name: 'Make a pairing code' }).click();
    const code = (await page.getByTestId('pairing-code').textContent())!.trim();
    await screenshot(page, 'pairing');
    // The same code for SMS Gateway for Android, with the API URL to type into it.
    await page.getByRole('radio', { name: 'SMS Gateway for Android' }).check();
    expect((await page.getByTestId('mobile-api-url').textContent())!.trim()).toBe(`${new URL(server.url).origin}/mobile/v1`);
    expect((await page.getByTestId('pairing-code').textContent())!.trim()).toBe(code);
    await screenshot(page, 'pairing-sms-gateway');
    await page.getByRole('radio', { name: 'Hafatra' }).check();
    const { token } = await DeviceClient.pair(server.url, { code, name: 'Front desk', model: 'Simulator' });
    phone = new SimulatedPhone({ baseUrl: server.url, token, latencyMs: 30, deliveryDelayMs: 50, failureRate: 0, deliveryRate: 1, heartbeatIntervalMs: 0, reconnect: { minMs: 50, maxMs: 500 } });
    await phone.start(10_000);
    await expect.poll(() => page.getByText('is paired').count(), { timeout: 15_000 }).toBe(1);
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByTestId('phone').count()).toBe(1);
    await shot(page, 'phones');
  });

  it('sends to three numbers from the form and watches them turn delivered without reloading', async () => {
    await go(page, 'Send');
    await page.getByLabel('Recipients').fill('034 11 111 11\n034 22 222 22\n+261 34 33 333 33\nnot a number');
    await expect.poll(() => page.getByText('→ not a phone number', { exact: false }).count()).toBe(1);
    await page.getByLabel('Recipients').fill('034 11 111 11\n034 22 222 22\n+261 34 33 333 33');
    await expect.poll(() => page.getByTestId('recipients-ok').textContent()).toBe('3');
    await page.getByLabel('Message').fill('Salama! Tonga soa ✓');
    await expect.poll(() => page.getByTestId('segment-counter').textContent()).toContain('UCS-2');
    await page.getByRole('button', { name: 'Send to 3 recipients' }).click();
    await expect.poll(() => page.locator('.progress-list [data-status="delivered"]').count(), { timeout: 20_000 }).toBe(3);
    await shot(page, 'send');
  });

  it('cancels a queued message, then resends it', async () => {
    await phone!.stop();
    phone = undefined;
    await go(page, 'Send');
    await page.getByLabel('Recipients').fill('034 44 444 44');
    await expect.poll(() => page.getByTestId('recipients-ok').textContent()).toBe('1');
    await page.getByLabel('Message').fill('To be cancelled');
    await page.getByRole('button', { name: 'Send to 1 recipient' }).click();
    await expect.poll(() => page.locator('.progress-list a').count()).toBe(1);
    await page.locator('.progress-list a').click();
    await page.getByRole('button', { name: 'Cancel message' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel message' }).click();
    await expect.poll(() => page.locator('.facts [data-status]').first().getAttribute('data-status')).toBe('cancelled');
    await expect.poll(() => page.locator('.timeline li').last().textContent()).toContain('by member');
    await page.getByRole('button', { name: 'Resend' }).click();
    await expect.poll(() => page.getByText('Resend of').count()).toBe(1);
    await shot(page, 'message');
    await go(page, 'Messages');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(5);
    await shot(page, 'messages');
  });

  it('shows a received mobile-money SMS beside what was read, unverified, and records a review', async () => {
    const devices = await page.evaluate(() => fetch('/v1/devices').then((r) => r.json()));
    expect(devices.devices).toHaveLength(1);
    // The phone comes back and receives an MVola notification.
    const { token } = await DeviceClient.pair(server.url, { code: await newPairingCode(), name: 'Cashier', model: 'Simulator' });
    phone = new SimulatedPhone({ baseUrl: server.url, token, latencyMs: 30, deliveryDelayMs: 50, failureRate: 0, deliveryRate: 1, heartbeatIntervalMs: 0 });
    await phone.start(10_000);
    const sms = MOBILE_MONEY_SAMPLES[0]!;
    await phone.client.sendIncoming({ clientId: 'journey-1', from: sms.from, body: sms.body, receivedAt: new Date().toISOString() });
    await go(page, 'Mobile money');
    await expect.poll(() => page.getByRole('button', { name: 'MVola' }).count(), { timeout: 20_000 }).toBe(1);
    await shot(page, 'mobile-money');
    await page.getByRole('button', { name: 'MVola' }).click();
    await expect.poll(() => page.getByRole('dialog').textContent()).toContain(sms.body);
    expect(await page.getByRole('dialog').textContent()).toContain('Unverified');
    await page.getByLabel('Review note').fill('Matches the MVola statement');
    await page.getByRole('button', { name: 'Mark as reviewed' }).click();
    await expect.poll(() => page.getByRole('dialog').locator('[data-status="reviewed"]').count()).toBe(1);
    await screenshot(page, 'mobile-money-record');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await go(page, 'Received SMS');
    await expect.poll(() => page.getByText(sms.body.slice(0, 20)).count()).toBe(1);
    await shot(page, 'received');
  });

  it('creates a webhook (secret shown once) and reads its delivery log', async () => {
    await go(page, 'Webhooks');
    await page.getByRole('button', { name: 'Add an endpoint' }).click();
    await page.getByLabel('URL').fill(`https://127.0.0.1:${receiver.port}/hafatra`);
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByTestId('secret').textContent()).toMatch(/^whsec_|.{20,}/);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.getByRole('link', { name: /127\.0\.0\.1/ }).click();
    const sent = await page.evaluate(() =>
      fetch('/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to: '0345555555', body: 'hook' }) }).then((r) => r.status),
    );
    expect(sent).toBe(202);
    await expect.poll(() => page.locator('tbody [data-status="delivered"]').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(receiver.requests.length).toBeGreaterThan(0);
    await expect.poll(() => page.getByText('HTTP 200').count()).toBeGreaterThan(0);
    const before = await page.locator('tbody tr').count();
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await expect.poll(() => page.getByText('webhook.test').count(), { timeout: 20_000 }).toBe(1);
    // Added to the log, nothing taken away (the message's later events may still be arriving beside it).
    expect(await page.locator('tbody tr').count()).toBeGreaterThanOrEqual(before + 1);
    await shot(page, 'webhook');
  });

  it('adds a number to the opt-outs: a send to it is created failed (opted_out)', async () => {
    await go(page, 'Opt-outs');
    await page.getByLabel('Number', { exact: true }).fill('034 77 777 77');
    await page.getByRole('button', { name: 'Add to the opt-outs' }).click();
    await expect.poll(() => page.getByText('+261347777777', { exact: true }).count()).toBe(1);
    const sent = await page.evaluate(() =>
      fetch('/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to: '+261347777777', body: 'promo' }) }).then((r) => r.json()),
    );
    expect(sent.messages[0]).toMatchObject({ status: 'failed', failureCode: 'opted_out' });
    await shot(page, 'opt-outs');
  });

  let keySecret = '';
  it('creates an API key shown once, uses it with a plain HTTP request, rotates and revokes it', async () => {
    await go(page, 'API keys');
    await page.getByRole('button', { name: 'Create a key' }).click();
    await page.getByLabel('Name').fill('billing server');
    await page.getByRole('dialog').getByRole('button', { name: 'Create the key' }).click();
    keySecret = (await page.getByTestId('secret').textContent())!.trim();
    await shot(page, 'keys');
    const list = await fetch(`${server.url}/v1/messages`, { headers: { authorization: `Bearer ${keySecret}` } });
    expect(list.status).toBe(200);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    const row = page.locator('tr', { hasText: 'billing server' });
    await row.getByRole('button', { name: 'Rotate' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
    const rotated = (await page.getByTestId('secret').textContent())!.trim();
    expect(rotated).not.toBe(keySecret);
    expect((await fetch(`${server.url}/v1/messages`, { headers: { authorization: `Bearer ${keySecret}` } })).status).toBe(401);
    expect((await fetch(`${server.url}/v1/messages`, { headers: { authorization: `Bearer ${rotated}` } })).status).toBe(200);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await page.locator('tr', { hasText: 'billing server' }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => page.getByText('is revoked').count()).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/v1/messages`, { headers: { authorization: `Bearer ${rotated}` } })).status).toBe(401);
  });

  it('invites a viewer who sees no send button and gets 403 from the API', async () => {
    await go(page, 'Members');
    await page.getByRole('button', { name: 'Invite a person' }).click();
    await page.getByLabel('Email').fill('viewer@example.org');
    await page.getByRole('dialog').getByRole('button', { name: 'Create the invitation link' }).click();
    const link = (await page.getByTestId('secret').textContent())!.trim();
    await shot(page, 'members');
    const viewerContext = await browser.newContext({ viewport: { width: 360, height: 780 } });
    const viewer = await viewerContext.newPage();
    await viewer.goto(link);
    await viewer.getByLabel('New password').fill('a long viewer password');
    await viewer.getByLabel('Repeat the password').fill('a long viewer password');
    await viewer.getByRole('button', { name: 'Create my account' }).click();
    await expect
      .poll(() => heading(viewer).textContent())
      .toBe('Overview')
      .catch(async (err) => {
        await screenshot(viewer, 'debug-viewer');
        throw err;
      });
    await viewer.getByRole('button', { name: 'Menu' }).click();
    await viewer.getByRole('link', { name: 'Messages', exact: true }).click();
    await expect.poll(() => heading(viewer).textContent()).toBe('Messages');
    expect(await viewer.getByRole('link', { name: 'Send messages' }).count()).toBe(0);
    expect(await viewer.getByRole('link', { name: 'Send', exact: true }).count()).toBe(0);
    const refused = await viewer.evaluate(() =>
      fetch('/v1/messages', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ to: '0341111111', body: 'x' }) }).then((r) => r.status),
    );
    expect(refused).toBe(403);
    await screenshot(viewer, 'viewer-messages-360');
    await viewer.getByRole('button', { name: 'Menu' }).click();
    await viewer.getByRole('link', { name: 'Opt-outs', exact: true }).click();
    await expect.poll(() => viewer.getByText('+261347777777', { exact: true }).count()).toBe(1);
    expect(await viewer.getByRole('button', { name: 'Add to the opt-outs' }).count()).toBe(0);
    expect(await viewer.getByRole('button', { name: /^Remove / }).count()).toBe(0);
    await viewerContext.close();
  });

  it('refuses a request from another origin, and the audit log tells who did what', async () => {
    const cookie = (await context.cookies()).find((c) => c.name === 'hafatra_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    const forged = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { cookie: `hafatra_session=${cookie.value}`, origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ to: '0341111111', body: 'forged' }),
    });
    expect(forged.status).toBe(403);
    await go(page, 'Audit log');
    await expect.poll(() => page.getByText('key.revoked').count()).toBe(1);
    expect(await page.getByText('message.cancelled').count()).toBe(1);
    await shot(page, 'audit');
    await go(page, 'Settings');
    await shot(page, 'settings');
    // The organization's own networks, then Madagascar's again.
    const networks = page.getByLabel('Networks');
    await networks.fill('orange: +26132 (SIM: Orange)\nfree: +22176 (SIM: free, free sn)');
    await page.getByRole('button', { name: 'Save networks' }).click();
    // Saved: the page offers the defaults back, and shows the table as the server keeps it.
    await page.getByRole('button', { name: 'Restore the defaults' }).waitFor();
    expect(await networks.inputValue()).toBe('orange: +26132 (SIM: Orange)\nfree: +22176 (SIM: free, free sn)');
    await networks.fill('orange: 032 (SIM: orange)');
    await page.getByRole('button', { name: 'Save networks' }).click();
    // Under the field, in words: which network and which prefix.
    await expect.poll(() => page.locator('.field-error').textContent()).toMatch(/^Carrier 1, prefix 1: /);
    await page.getByRole('button', { name: 'Restore the defaults' }).click();
    await expect.poll(() => networks.inputValue()).toBe('orange: +26132 +26137 (SIM: orange)\nairtel: +26133 (SIM: airtel)\ntelma: +26134 +26138 (SIM: telma, yas)');
    // Quiet hours, chosen rather than typed: days, times, a time zone from the list; then any hour again.
    await page.getByLabel('Send only within these hours').check();
    await page.getByLabel('Time zone').selectOption('Indian/Antananarivo');
    await page.getByRole('button', { name: 'Save send windows' }).click();
    await expect.poll(() => page.getByText('Now: mon-fri 08:00-20:00 Indian/Antananarivo.', { exact: false }).count()).toBe(1);
    await page.getByLabel('Send only within these hours').uncheck();
    await page.getByRole('button', { name: 'Save send windows' }).click();
    await expect.poll(() => page.getByText('Now: phones send at any hour.', { exact: false }).count()).toBe(1);
    // The overview again, with the day's messages on it.
    await go(page, 'Overview');
    await expect.poll(() => page.getByTestId('today-total').textContent()).not.toBe('0');
    await page.locator('.chart canvas').waitFor();
    await shot(page, 'overview-day');
  });

  it('signs out: the session is over, and the dashboard asks to sign in', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => heading(page).textContent()).toBe('Sign in to Hafatra');
    await page.reload();
    await expect.poll(() => heading(page).textContent()).toBe('Sign in to Hafatra');
    expect(await page.evaluate(() => fetch('/dashboard/v1/me').then((r) => r.status))).toBe(401);
  });
});

/** A second pairing code, through the dashboard's own API as the signed-in owner. */
async function newPairingCode(): Promise<string> {
  return page.evaluate(() =>
    fetch('/dashboard/v1/pairings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      .then((r) => r.json())
      .then((b) => b.code as string),
  );
}
