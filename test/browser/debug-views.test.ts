import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, screenshot, signedInPage } from './harness.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { signedInMember } from '../support/members.js';
import { insertTestDevice } from '../support/devices.js';
import { createLink } from '../../src/members/sql/create-link.js';
import { storeReceivedSms } from '../support/received-sms.js';
import { readIncoming } from '../../src/mobile-money/read-incoming.js';
import { startWebhookWorkers, type WebhookWorkers } from '../../src/webhooks/workers.js';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver.js';

/**
 * The pages people debug with say what they know (issue 33): why a money record is ambiguous,
 * whose phone sent a message, what a used link means, what a scope allows, when the owner signed
 * in. At a desktop's width and a phone's.
 */
let app: TestApp;
let browser: Browser;
let receiver: HttpsReceiver;
let workers: WebhookWorkers;

beforeAll(async () => {
  // A failed delivery is retried a second later, so the inspector shows two attempts quickly.
  [app, browser, receiver] = await Promise.all([startTestApp({ webhookAllowHosts: ['localhost'], webhookScheduleSeconds: [0, 1, 1] }), launchChromium(), startHttpsReceiver()]);
  workers = await startWebhookWorkers(app.ctx, { ca: receiver.ca });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await workers?.close();
  await app?.close();
});

describe.each([1280, 390])('at %i px', (width) => {
  let orgId: string;
  let key: string;
  let deviceId: string;
  let context: BrowserContext;
  let page: Page;
  let heading: () => ReturnType<Page['getByRole']>;
  let go: (path: string, title: string | RegExp) => Promise<void>;

  /** A received SMS, read for mobile money as the worker would. */
  const receive = async (from: string, body: string) => {
    const id = await storeReceivedSms(app.ctx.db, { orgId, deviceId, from, body });
    await readIncoming(app.ctx, [id], null);
    const { rows } = await app.ctx.db.query('SELECT id FROM mobile_money_events WHERE incoming_message_id = $1', [id]);
    return rows[0].id as string;
  };

  beforeAll(async () => {
    ({
      org: { id: orgId },
      key,
    } = await app.createOrg({ defaultCountry: 'MG' }));
    deviceId = await insertTestDevice(app.ctx, orgId, { name: 'Till 2' });
    ({ context, page, heading, go } = await signedInPage(browser, app.url, (await signedInMember(app, orgId, 'owner')).cookie, { width }));
  });
  afterAll(async () => {
    await context?.close();
  });

  it('says why a mobile-money record is ambiguous, names the provider both ways, and shows its time as a time', async () => {
    const forwarded = await receive('+261340000001', '850 000 Ar recu de Going Beyond (0345755747) le 02/01/25 a 09:42. Raison: loyer. Solde : 1 414 155 Ar. Ref: 123456789');
    await go(`/mobile-money?open=${forwarded}`, 'Mobile money');
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByTestId('ambiguity-reasons').textContent()).toContain("It was not sent by MVola's own sender (MVola) but by +261340000001");
    expect(await dialog.textContent()).toContain('provider_a in the API');
    const at = new Date(2025, 0, 2, 9, 42);
    expect(await dialog.getByTestId('provider-time').locator('time').getAttribute('datetime')).toBe(at.toISOString());
    await screenshot(page, `debug-money-forwarded-${width}`);

    // A genuine sender in a wording never seen: ambiguous with its amount, and says so.
    const unseen = await receive('MVola', 'Votre compte a ete credite de 25 000 Ar par RAKOTO (034 12 345 67).');
    await go(`/mobile-money?open=${unseen}`, 'Mobile money');
    await expect.poll(() => dialog.getByTestId('ambiguity-reasons').textContent()).toContain('Its wording is not one Hafatra knows fully');
    expect(await dialog.textContent()).toMatch(/25,000\.00 MGA|25 000[,.]00 MGA/);
    await screenshot(page, `debug-money-unseen-${width}`);
  });

  it("shows a message's phone by name, and asks before resending a delivered message", async () => {
    const sent = await app.request('POST', '/v1/messages', { key, body: { to: '+261341111201', body: 'Salama', deviceId } });
    expect(sent.status).toBe(202);
    const id = sent.body.messages[0].id as string;
    await app.ctx.db.query(`UPDATE messages SET status = 'delivered', device_id = $2 WHERE id = $1`, [id, deviceId]);
    await go(`/messages/${id}`, 'Message to +261341111201');
    await expect.poll(() => page.getByTestId('message-phone').textContent()).toBe('Till 2');
    const resend = page.getByRole('button', { name: 'Resend' });
    expect(await resend.getAttribute('class')).toBe('plain');
    await resend.click();
    await expect.poll(() => page.getByRole('dialog').textContent()).toContain('This message was delivered');
    await page.getByRole('button', { name: 'Keep things as they are' }).click();
    const { rows } = await app.ctx.db.query('SELECT count(*)::int AS n FROM messages WHERE org_id = $1', [orgId]);
    expect(rows[0].n).toBe(1);
  });

  it('offers no resend of a message still sent, and links an expired message to its resend', async () => {
    const made = async (to: string, status: string) => {
      const sent = await app.request('POST', '/v1/messages', { key, body: { to, body: 'Veloma', deviceId } });
      expect(sent.status).toBe(202);
      const id = sent.body.messages[0].id as string;
      await app.ctx.db.query('UPDATE messages SET status = $2, device_id = $3 WHERE id = $1', [id, status, deviceId]);
      return id;
    };
    // `sent` is not final: its delivery report may still come, and the server refuses to resend it.
    await go(`/messages/${await made('+261341111204', 'sent')}`, 'Message to +261341111204');
    await expect.poll(() => page.getByTestId('message-phone').textContent()).toBe('Till 2');
    expect(await page.getByRole('button', { name: 'Resend' }).count()).toBe(0);

    const expired = await made('+261341111205', 'expired');
    await go(`/messages/${expired}`, 'Message to +261341111205');
    await page.getByRole('button', { name: 'Resend' }).click();
    await expect.poll(() => page.getByText('Resend of').count()).toBe(1);
    const again = new URL(page.url()).pathname.split('/').pop()!;
    expect(again).not.toBe(expired);
    // Back on the expired message, the resend is named: any final message can be resent, not only a failed one.
    await go(`/messages/${expired}`, 'Message to +261341111205');
    const facts = page.locator('.facts');
    await expect.poll(() => facts.textContent()).toContain('Sent again as');
    expect(await facts.getByRole('link', { name: again }).count()).toBe(1);
  });

  it('searches messages by text and received SMS by sender, and says a too-short search under the box', async () => {
    await app.request('POST', '/v1/messages', { key, body: { to: '+261341111202', body: 'Your parcel 77-ABC is ready', deviceId } });
    await go('/messages', 'Messages');
    const box = page.getByLabel('Search', { exact: true });
    await box.fill('ab');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.locator('.field-error').textContent()).toContain('at least 3 characters');
    await box.fill('parcel 77');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.locator('main').textContent()).toContain('1 message match');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody tr').textContent()).toContain('Your parcel 77-ABC is ready');
    expect(page.url()).toContain('q=parcel+77');
    await screenshot(page, `debug-search-messages-${width}`);
    for (const from of ['+261345550101', '+261345550102']) await storeReceivedSms(app.ctx.db, { orgId, deviceId, from, body: 'Aiza ny colis-9Q?' });
    await go('/received', 'Received SMS');
    await page.getByLabel('Search', { exact: true }).fill('555 01 01');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByText('1 SMS match “555 01 01”.').count()).toBe(1);
    await page.getByLabel('Search', { exact: true }).fill('colis-9q');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.getByText('2 SMS match “colis-9q”.').count()).toBe(1);
    expect(await page.locator('tbody tr').count()).toBe(2);
  });

  it("shows a contact's thread in time order and replies from it", async () => {
    await storeReceivedSms(app.ctx.db, { orgId, deviceId, from: '+261345551234', body: 'Misy entana ho ahy ve?' });
    await go('/received', 'Received SMS');
    await page.getByRole('link', { name: '+261345551234' }).first().click();
    await expect.poll(() => heading().textContent()).toBe('Conversation with +261345551234');
    expect(await page.getByTestId('received').textContent()).toContain('Misy entana ho ahy ve?');
    await page.getByLabel('Reply').fill('Eny, efa vonona');
    await page.getByRole('button', { name: 'Send the reply' }).click();
    await expect.poll(() => page.getByTestId('sent').count()).toBe(1);
    expect(await page.locator('.thread li').last().textContent()).toContain('Eny, efa vonona');
    await screenshot(page, `debug-conversation-${width}`);
  });

  it('inspects a webhook delivery: the request it sends and its outcome', async () => {
    const endpoint = await app.request('POST', '/v1/webhooks', { key, body: { url: `https://localhost:9/hook-${width}`, eventTypes: ['message.sent'] } });
    expect(endpoint.status).toBe(201);
    const id = endpoint.body.endpoint.id as string;
    await app.request('POST', `/v1/webhooks/${id}/test`, { key });
    await go(`/webhooks/${id}`, `https://localhost:9/hook-${width}`);
    await page.locator('tbody tr button.link').first().click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByTestId('delivery-headers').textContent()).toContain('Hafatra-Event-Type: ');
    expect(await dialog.getByTestId('delivery-headers').textContent()).toContain('Hafatra-Signature: t=<time of the attempt>');
    expect(await dialog.getByTestId('delivery-body').textContent()).toContain('"id": "evt_');
    expect(await dialog.textContent()).toContain(`POST https://localhost:9/hook-${width}`);
    await screenshot(page, `debug-webhook-inspector-${width}`);
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  it("goes from a message to its webhook event's delivery, and shows each attempt's answer", async () => {
    const path = `/events-${width}`;
    const endpoint = await app.request('POST', '/v1/webhooks', { key, body: { url: `${receiver.url.replace(/\/$/, '')}${path}`, eventTypes: ['message.queued'] } });
    expect(endpoint.status).toBe(201);
    const endpointId = endpoint.body.endpoint.id as string;
    let calls = 0;
    receiver.respondWith((r) => (r.path !== path ? { status: 200 } : calls++ === 0 ? { status: 503, body: 'Upstream busy, try again later' } : { status: 200, body: '{"received":true}' }));
    const sent = await app.request('POST', '/v1/messages', { key, body: { to: '+261341111203', body: 'Webhook me', deviceId } });
    expect(sent.status).toBe(202);
    const id = sent.body.messages[0].id as string;
    await expect.poll(async () => (await app.request('GET', `/v1/webhooks/${endpointId}/deliveries`, { key })).body.deliveries[0]?.status, { timeout: 20_000 }).toBe('delivered');
    await go(`/messages/${id}`, 'Message to +261341111203');
    const events = page.getByTestId('message-webhook-events');
    await expect.poll(() => events.textContent()).toContain('message.queued');
    expect(await events.textContent()).toContain('2 attempts, last HTTP 200');
    await screenshot(page, `debug-message-webhook-events-${width}`);
    await events.getByRole('link', { name: new RegExp(`${path}$`) }).click();
    const dialog = page.getByRole('dialog');
    const attempts = dialog.getByTestId('delivery-attempts');
    await expect.poll(() => attempts.textContent()).toContain('Attempt 2');
    expect(page.url()).toContain(`/webhooks/${endpointId}?delivery=`);
    const text = (await attempts.textContent()) ?? '';
    expect(text.indexOf('Attempt 2')).toBeLessThan(text.indexOf('Attempt 1'));
    expect(await dialog.getByTestId('attempt-2-answer').textContent()).toBe('{"received":true}');
    expect(await dialog.getByTestId('attempt-1-answer').textContent()).toBe('Upstream busy, try again later');
    expect(text).toContain('HTTP 200');
    expect(text).toContain('HTTP 503');
    expect(text).toMatch(/\d+ ms/);
    expect(await dialog.getByTestId('delivery-body').textContent()).toContain(id);
    await screenshot(page, `debug-webhook-attempts-${width}`);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(page.url()).toMatch(new RegExp(`/webhooks/${endpointId}$`));
  });

  it("lists in the navigation what the member's role uses, and says an address that is no page is not found", async () => {
    // By its id: at a phone's width the navigation is folded behind the menu button.
    const labels = (p: Page) => p.locator('nav#nav a').allTextContents();
    await go('/no-such-page', 'Page not found');
    expect(await labels(page)).toEqual(['Overview', 'Messages', 'Send', 'Phones', 'Received SMS', 'Mobile money', 'Opt-outs', 'Webhooks', 'API keys', 'Members', 'Settings', 'Audit log']);
    await page.locator('header a[href="/account"]').click();
    await expect.poll(() => heading().textContent()).toBe('Your account');
    await go('/conversations/%2B261341111201', 'Conversation with +261341111201');

    const viewer = await signedInPage(browser, app.url, (await signedInMember(app, orgId, 'viewer')).cookie, { width });
    await viewer.page.goto(`${app.url}/phones`);
    await expect.poll(() => viewer.heading().textContent()).toBe('Phones');
    expect(await labels(viewer.page)).toEqual(['Overview', 'Messages', 'Phones', 'Received SMS', 'Mobile money', 'Opt-outs', 'Webhooks', 'API keys', 'Settings']);
    expect(await viewer.page.locator('a[aria-current="page"]').textContent()).toBe('Phones');
    await viewer.context.close();
  });

  it('describes each API key scope', async () => {
    await go('/keys', 'API keys');
    await page.getByRole('button', { name: 'Create a key' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('Send SMS, cancel a queued message, resend one');
    expect(await dialog.textContent()).toContain('Add numbers to the opt-out list and remove them');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('says a used link was used, in words, and shows the owner who made the account as signed in', async () => {
    const email = `owner-${width}@example.org`;
    const { token } = await createLink(app.ctx.db, { kind: 'invitation', orgId, email, role: 'owner' });
    const fresh = await browser.newContext({ viewport: { width, height: 900 } });
    const p = await fresh.newPage();
    await p.goto(`${app.url}/link#${token}`);
    await p.getByLabel('New password').fill('a long password 1');
    await p.getByLabel('Repeat the password').fill('a long password 1');
    await p.getByRole('button', { name: 'Create my account' }).click();
    await expect.poll(() => p.getByRole('heading', { level: 1 }).textContent()).toBe('Overview');
    await p.goto(`${app.url}/members`);
    const row = p.locator('tr', { hasText: email });
    await expect.poll(() => row.locator('td[data-label="Last sign-in"]').textContent()).toBe('just now');
    // The same link again.
    await p.goto(`${app.url}/link#${token}`);
    await expect.poll(() => p.getByRole('heading', { level: 1 }).textContent()).toBe('This link cannot be used');
    expect(await p.locator('main').textContent()).toContain('This link was already used, has expired, or was not copied whole.');
    expect(await p.locator('main').textContent()).not.toContain('Not found:');
    await screenshot(p, `debug-used-link-${width}`);
    await fresh.close();
  });
});
