import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, screenshot, signedInPage } from './harness.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { signedInMember } from '../support/members.js';
import { insertTestDevice } from '../support/devices.js';

/**
 * Both colour schemes (prefers-color-scheme), every page's text checked against its background
 * by the WCAG 2 contrast ratio: 4.5 for body text, 3 for large text (24 px, or 18.7 px bold).
 * Disabled controls are exempt, as WCAG exempts inactive parts of the interface.
 */
let app: TestApp;
let browser: Browser;
let cookie: string;

const PAGES: [string, string][] = [
  ['/', 'Overview'],
  ['/messages', 'Messages'],
  ['/send', 'Send messages'],
  ['/phones', 'Phones'],
  ['/received', 'Received SMS'],
  ['/mobile-money', 'Mobile money'],
  ['/opt-outs', 'Opt-outs'],
  ['/webhooks', 'Webhooks'],
  ['/keys', 'API keys'],
  ['/members', 'Members'],
  ['/settings', 'Settings'],
  ['/audit', 'Audit log'],
];

beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchChromium()]);
  const { org, key } = await app.createOrg({ defaultCountry: 'MG' });
  const deviceId = await insertTestDevice(app.ctx, org.id, { name: 'Till 1' });
  // Some of every badge tone on the pages: a message, a phone, an opt-out.
  await app.request('POST', '/v1/messages', { key, body: { to: ['+261341111301', '+261341111302'], body: 'Salama', deviceId } });
  await app.request('POST', '/v1/opt-outs', { key, body: { number: '+261341111303' } });
  cookie = (await signedInMember(app, org.id, 'owner')).cookie;
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** Every visible text node's element whose colours fall below its threshold, with the ratio found. */
function lowContrast(page: Page) {
  return page.evaluate(() => {
    const rgb = (c: string) => {
      const m = /rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)/.exec(c);
      return m ? { r: +m[1]!, g: +m[2]!, b: +m[3]!, a: m[4] === undefined ? 1 : +m[4] } : { r: 0, g: 0, b: 0, a: 0 };
    };
    const lum = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (el: Element | null): { r: number; g: number; b: number } => {
      for (let e = el; e; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c.a > 0.5) return c;
      }
      return rgb(getComputedStyle(document.documentElement).backgroundColor).a > 0 ? rgb(getComputedStyle(document.documentElement).backgroundColor) : { r: 255, g: 255, b: 255 };
    };
    const bad: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const seen = new Set<Element>();
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || seen.has(el) || !n.textContent?.trim()) continue;
      seen.add(el);
      if (el.closest('[disabled], .sr-only, .skip, option')) continue;
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
      const fg = lum(rgb(style.color));
      const bg = lum(background(el));
      const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5)) bad.push(`${el.tagName.toLowerCase()}.${el.className} "${n.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}`);
    }
    return bad;
  });
}

describe.each([
  ['light', 1280],
  ['dark', 1280],
  ['dark', 390],
] as const)('the %s scheme at %i px', (scheme, width) => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await signedInPage(browser, app.url, cookie, { width, colorScheme: scheme }));
  });
  afterAll(async () => {
    await context?.close();
  });

  it('follows the system setting and keeps every text readable on every page', async () => {
    const found: string[] = [];
    for (const [path, title] of PAGES) {
      await page.goto(`${app.url}${path}`);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(title);
      await page.waitForLoadState('networkidle');
      found.push(...(await lowContrast(page)).map((b) => `${path}: ${b}`));
      if (path === '/' || path === '/phones' || path === '/send') await screenshot(page, `scheme-${scheme}-${path.slice(1) || 'overview'}-${width}`);
    }
    const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    expect(bg).toBe(scheme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(255, 255, 255)');
    expect(found).toEqual([]);
  }, 120_000);
});
