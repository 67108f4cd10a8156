import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot, startFreshServer, type FreshServer } from './harness.js';

/** The owner opens the loopback to the organization's webhooks on Settings, and a key's endpoint creation follows at once. */
let server: FreshServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startFreshServer(), launchChromium()]);
  page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const heading = () => page.getByRole('heading', { level: 1 });

it('an owner allows a private webhook target on Settings, at run time, and takes it back', async () => {
  const key = (await server.line(/^ {2}(hfk_\S+)$/))[1]!;
  await page.goto((await server.line(/^ {2}(http:\/\/\S+\/link#\S+)$/))[1]!);
  await expect.poll(() => heading().textContent()).toBe('Create the first owner');
  await page.getByLabel('Your email').fill('owner@example.org');
  await page.getByLabel('New password').fill('a long owner password');
  await page.getByLabel('Repeat the password').fill('a long owner password');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect.poll(() => heading().textContent()).toBe('Overview');
  await page.goto(`${server.url}/settings`);
  await expect.poll(() => heading().textContent()).toBe('Settings');

  const create = () =>
    fetch(`${server.url}/v1/webhooks`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 'http://localhost:4999/', eventTypes: ['message.sent'] }),
    }).then((r) => r.status);
  expect(await create()).toBe(400);

  const targets = page.getByLabel('Allowed private targets');
  await targets.fill('localhost, 192.168.1.0/24');
  await page.getByRole('button', { name: 'Save private targets' }).click();
  await expect.poll(() => page.getByText('Private webhook targets saved.').count()).toBe(1);
  await screenshot(page, 'settings-webhook-targets-390');
  expect(await create()).toBe(201);
  // As the server keeps it, after a reload.
  await page.reload();
  await expect.poll(() => page.getByLabel('Allowed private targets').inputValue()).toBe('localhost, 192.168.1.0/24');

  await page.getByLabel('Allowed private targets').fill('');
  await page.getByRole('button', { name: 'Save private targets' }).click();
  await expect.poll(() => page.getByText('Webhooks now reach public addresses only.').count()).toBe(1);
  expect(await create()).toBe(400);
}, 120_000);
