import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, screenshot, signedInPage } from './harness.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { signedInMember, type SignedInMember } from '../support/members.js';
import { insertTestDevice } from '../support/devices.js';
import { createLink } from '../../src/members/sql/create-link.js';
import { createPairingCode } from '../../src/devices/pairing.js';
import { DeviceClient } from '../../src/phone/device-client.js';
import { SimulatedPhone } from '../../src/phone/simulated-phone.js';

/**
 * The dashboard says what is true (issue 33): errors under their field and gone once fixed, a
 * phone that left is not online, duplicates shown before a send, the Overview's delivered share,
 * the audit log's names and filters. At a desktop's width and a phone's.
 */
let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp({ onlineWindowSeconds: 300 }), launchChromium()]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe.each([1280, 390])('at %i px', (width) => {
  let orgId: string;
  let key: string;
  let owner: SignedInMember;
  let context: BrowserContext;
  let page: Page;
  let go: (path: string, title: string | RegExp) => Promise<void>;
  const phones: SimulatedPhone[] = [];
  const shot = (name: string) => screenshot(page, `honest-${name}-${width}`);
  const errorNotices = () => page.locator('.notice.error').count();

  beforeAll(async () => {
    ({
      org: { id: orgId },
      key,
    } = await app.createOrg({ defaultCountry: 'MG' }));
    owner = await signedInMember(app, orgId, 'owner');
    ({ context, page, go } = await signedInPage(browser, app.url, owner.cookie, { width }));
  });
  afterAll(async () => {
    await Promise.all(phones.map((p) => p.stop()));
    await context?.close();
  });

  it('shows a form error under its field in words, clears it when edited, and never beside the later success', async () => {
    await go('/opt-outs', 'Opt-outs');
    await page.getByLabel('Number', { exact: true }).fill('12');
    await page.getByRole('button', { name: 'Add to the opt-outs' }).click();
    const error = page.locator('.field-error');
    await expect.poll(() => error.count()).toBe(1);
    const text = (await error.textContent())!;
    expect(text).toBe('"12" is not a phone number.');
    expect(await page.getByLabel('Number', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await errorNotices()).toBe(0);
    await shot('field-error');
    // Edited: the error goes. Fixed and sent: the success is alone.
    await page.getByLabel('Number', { exact: true }).fill('+261 34 00 000 00');
    await expect.poll(() => error.count()).toBe(0);
    await page.getByRole('button', { name: 'Add to the opt-outs' }).click();
    await expect.poll(() => page.locator('.notice.success').textContent()).toContain('+261340000000 will receive no message');
    expect(await errorNotices()).toBe(0);
    expect(await page.locator('.field-error, .form-error').count()).toBe(0);
  });

  it("says a webhook form's error inside the dialog, under the URL, in the form's words", async () => {
    await go('/webhooks', 'Webhooks');
    await page.getByRole('button', { name: 'Add an endpoint' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('URL').fill('https://10.1.2.3/hook');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => dialog.locator('.field-error').count()).toBe(1);
    expect(await dialog.locator('.field-error').textContent()).not.toMatch(/Url:|url:/);
    expect(await dialog.locator('.field-error').isVisible()).toBe(true);
    await shot('webhook-error');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('chooses send windows from days and times, puts a mistake under them and drops it once saved', async () => {
    await go('/settings', 'Settings');
    await page.getByLabel('Send only within these hours').check();
    const range = page.getByTestId('window-range');
    for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri']) await range.getByLabel(day, { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Save send windows' }).click();
    await expect.poll(() => page.locator('.field-error').textContent()).toBe('Range 1 has no day: tick at least one, or remove it.');
    await range.getByLabel('Sat', { exact: true }).check();
    await range.getByLabel('From').fill('09:00');
    await range.getByLabel('to', { exact: true }).fill('12:30');
    await page.getByRole('button', { name: 'Save send windows' }).click();
    await expect.poll(() => page.locator('.notice.success').textContent()).toContain('Send windows saved');
    expect(await page.locator('.field-error').count()).toBe(0);
    expect(await errorNotices()).toBe(0);
    const saved = await app.request('GET', '/v1/send-windows', { key });
    expect(saved.body.sendWindows.ranges).toEqual([{ days: ['sat'], from: '09:00', to: '12:30' }]);
    await shot('send-windows');
  });

  it("shows Overview's delivered share out of everything sent, and a legend with totals", async () => {
    const deviceId = await insertTestDevice(app.ctx, orgId, { name: 'Counter' });
    const sent = await app.request('POST', '/v1/messages', { key, body: { to: ['+261341111101', '+261341111102', '+261341111103'], body: 'Salama', deviceId } });
    expect(sent.status).toBe(202);
    const ids = (sent.body.messages as { id: string }[]).map((m) => m.id);
    // Arranged as phones would report them: two delivered, one only sent.
    await app.ctx.db.query(`UPDATE messages SET status = 'delivered', device_id = $2 WHERE id = ANY($1)`, [ids.slice(0, 2), deviceId]);
    await app.ctx.db.query(`UPDATE messages SET status = 'sent', device_id = $2 WHERE id = $1`, [ids[2], deviceId]);
    await go('/', 'Overview');
    await expect.poll(() => page.getByTestId('delivered-rate').textContent()).toBe('66 %');
    expect(await page.getByTestId('delivered-detail').textContent()).toBe('2 of 3, 1 not yet delivered (sent or on its way)');
    await expect.poll(() => page.locator('.u-legend').count()).toBe(1);
    const legend = (await page.locator('.u-legend').textContent())!;
    expect(legend).not.toContain('--');
    expect(legend).toContain('delivered (2)');
    await shot('overview');
    await app.request('DELETE', `/v1/devices/${deviceId}`, { key });
  });

  it("asks a phone's name, tells two phones apart, and shows a phone that left as not online within seconds", async () => {
    await go('/phones', 'Phones');
    await page.getByRole('button', { name: 'Pair a phone' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name of the phone').fill('');
    await dialog.getByRole('button', { name: 'Make a pairing code' }).click();
    // The browser's own check stops an empty name; a name makes the code.
    expect(await dialog.getByTestId('pairing-code').count()).toBe(0);
    await dialog.getByLabel('Name of the phone').fill('Front desk');
    await dialog.getByRole('button', { name: 'Make a pairing code' }).click();
    const code = (await dialog.getByTestId('pairing-code').textContent())!.trim();
    // This test server listens on 127.0.0.1 alone: the dialog says no phone can reach it.
    expect(await dialog.getByRole('alert').textContent()).toContain('a phone cannot reach it');
    await shot('pairing');
    const first = await DeviceClient.pair(app.url, { code, name: 'Simulated phone 1' });
    const second = await DeviceClient.pair(app.url, { code: (await createPairingCode(app.ctx, orgId)).code, name: 'Simulated phone 1' });
    for (const p of [first, second]) {
      const phone = new SimulatedPhone({ baseUrl: app.url, token: p.token, heartbeatIntervalMs: 0, reconnect: { minMs: 50, maxMs: 500 } });
      phones.push(phone);
      await phone.start(10_000);
    }
    await expect.poll(() => page.getByText('is paired').count(), { timeout: 15_000 }).toBe(1);
    await dialog.getByRole('button', { name: 'Done' }).click();
    const cards = page.getByTestId('phone');
    await expect.poll(() => cards.count()).toBe(2);
    const card = (name: string) => cards.filter({ has: page.getByRole('heading', { name, exact: false }) });
    await expect.poll(() => card('Front desk').locator('[data-status]').getAttribute('data-status')).toBe('online');
    await expect.poll(() => card('Simulated phone 1').locator('[data-status]').getAttribute('data-status')).toBe('online');
    expect(await page.getByRole('heading', { name: 'Front desk' }).count()).toBe(1);
    await go('/', 'Overview');
    await expect.poll(() => page.locator('a[href="/phones"] .big').textContent()).toBe('2');
    // One phone leaves: its badge and the Overview's count follow within seconds, by the live feed.
    await phones.shift()!.stop();
    await expect.poll(() => page.locator('a[href="/phones"] .big').textContent(), { timeout: 10_000 }).toBe('1');
    await go('/phones', 'Phones');
    await expect.poll(() => card('Front desk').locator('[data-status]').getAttribute('data-status')).toBe('stale');
    expect(await card('Front desk').textContent()).toContain('not connected');
    await shot('phones');
  });

  it('sends each number once, shows the duplicates, and counts only valid recipients', async () => {
    await go('/send', 'Send messages');
    await page.getByLabel('Recipients').fill('034 12 345 67\n+261341234567\nnot a number');
    await expect.poll(() => page.getByTestId('recipients-ok').textContent()).toBe('1');
    expect(await page.getByTestId('duplicates').textContent()).toContain('+261341234567: 034 12 345 67, +261341234567');
    await page.getByLabel('Message', { exact: true }).fill('Salama');
    const button = page.locator('form button[type="submit"]');
    expect(await button.textContent()).toBe('Fix or leave out the 1 refused line first');
    expect(await button.isDisabled()).toBe(true);
    await page.getByLabel('Leave out the 1 refused line and send to the others').check();
    expect(await button.textContent()).toBe('Send to 1 recipient');
    await page.getByLabel(/Send to each line, duplicates included/).check();
    expect(await button.textContent()).toBe('Send to 2 recipients');
    await page.getByLabel(/Send to each line, duplicates included/).uncheck();
    await shot('send-duplicates');
    await button.click();
    await expect.poll(() => page.locator('.progress-list li').count()).toBe(1);
    const { rows } = await app.ctx.db.query(`SELECT count(*)::int AS n FROM messages WHERE org_id = $1 AND to_number = '+261341234567'`, [orgId]);
    expect(rows[0].n).toBe(1);
  });

  it('names what the audit log shows and filters it', async () => {
    await go('/audit', 'Audit log');
    await page.getByLabel('Action').selectOption({ label: 'Opt-outs' });
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody tr').textContent()).toContain('+261340000000');
    await page.getByLabel('Action').selectOption({ label: 'Sends' });
    await expect.poll(() => page.locator('tbody tr').first().textContent()).toMatch(/1 message \(batch/);
    await page.getByLabel('By').selectOption({ label: 'An API key' });
    // The API key's send above is its traffic, not a logged action.
    await expect.poll(() => page.getByText('No action recorded matches these filters').count()).toBe(1);
    await shot('audit');
  });

  it('keeps "The two passwords differ." under its field, and gone once the account is made', async () => {
    const email = `new-${width}@example.org`;
    const { token } = await createLink(app.ctx.db, { kind: 'invitation', orgId, email, role: 'viewer' });
    const fresh = await browser.newContext({ viewport: { width, height: 900 } });
    const p = await fresh.newPage();
    await p.goto(`${app.url}/link#${token}`);
    await p.getByLabel('New password').fill('a long password 1');
    await p.getByLabel('Repeat the password').fill('a long password 2');
    await p.getByRole('button', { name: 'Create my account' }).click();
    await expect.poll(() => p.locator('.field-error').textContent()).toBe('The two passwords differ.');
    await p.getByLabel('Repeat the password').fill('a long password 1');
    await p.getByRole('button', { name: 'Create my account' }).click();
    await expect.poll(() => p.getByRole('heading', { level: 1 }).textContent()).toBe('Overview');
    expect(await p.getByText('differ').count()).toBe(0);
    await fresh.close();
  });
});

describe('a send whose phone finishes before its answer is shown', () => {
  let orgId: string;
  let context: BrowserContext;
  let page: Page;
  let go: (path: string, title: string | RegExp) => Promise<void>;
  const teardown: (() => Promise<void>)[] = [];
  const onTeardown = (f: () => Promise<void>) => teardown.push(f);

  beforeAll(async () => {
    ({
      org: { id: orgId },
    } = await app.createOrg({ defaultCountry: 'MG' }));
    const owner = await signedInMember(app, orgId, 'owner');
    ({ context, page, go } = await signedInPage(browser, app.url, owner.cookie, { width: 1280 }));
  });
  afterAll(async () => {
    await Promise.all(teardown.map((f) => f()));
    await context?.close();
  });

  it("shows a send's final statuses when its phone finished before the send's answer reached the page", async () => {
    const paired = await DeviceClient.pair(app.url, { code: (await createPairingCode(app.ctx, orgId)).code, name: 'Quick phone' });
    const quick = new SimulatedPhone({ baseUrl: app.url, token: paired.token, latencyMs: 10, deliveryDelayMs: 10, failureRate: 0, deliveryRate: 1, heartbeatIntervalMs: 0 });
    await quick.start(10_000);
    onTeardown(() => quick.stop());
    // The live feed's frames, counted as the page receives them.
    let hello = false;
    let messageFrames = 0;
    page.on('websocket', (ws) =>
      ws.on('framereceived', (f) => {
        const type = (JSON.parse(String(f.payload)) as { type: string }).type;
        if (type === 'hello') hello = true;
        if (type === 'messages') messageFrames += 1;
      }),
    );
    // The send's answer is held until the phone has delivered every message and the live feed
    // has told the page so: every change it tells comes before the page knows the batch.
    const statuses = async (ids: string[]) => (await app.ctx.db.query<{ status: string }>('SELECT status FROM messages WHERE id = ANY($1::text[])', [ids])).rows.map((r) => r.status);
    await page.route('**/v1/messages', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const response = await route.fetch();
      const ids = ((await response.json()) as { messages: { id: string }[] }).messages.map((m) => m.id);
      await expect.poll(() => statuses(ids), { timeout: 15_000 }).toEqual(['delivered', 'delivered']);
      // The feed looks once a second: its frame for the last change comes within two looks,
      // unless it came already, between that change and this check.
      const framesAtDelivery = messageFrames;
      const deadline = Date.now() + 2_500;
      while (messageFrames === framesAtDelivery && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      await route.fulfill({ response });
    });
    try {
      // The page's live feed is up (its hello came) before the send, as on a page open for a while.
      await go('/send', 'Send messages');
      await expect.poll(() => hello).toBe(true);
      await page.getByLabel('Recipients').fill('034 55 555 51\n034 55 555 52');
      await page.getByLabel('Message', { exact: true }).fill('Quick');
      await page.getByLabel('Phone', { exact: true }).selectOption(paired.deviceId);
      await page.locator('form button[type="submit"]').click();
      await expect.poll(() => page.locator('.progress-list [data-status="delivered"]').count(), { timeout: 10_000 }).toBe(2);
    } finally {
      await page.unroute('**/v1/messages');
    }
  });
});
