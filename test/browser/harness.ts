import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, inject } from 'vitest';
import { SESSION_COOKIE } from '../../src/auth/session-token.js';
import { databaseUrlFor, runOnServer, testDatabaseUrl } from '../support/database.js';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Where each page's screenshot goes: an artifact of the run, never committed. */
export const SCREENSHOTS = join(process.cwd(), 'artifacts', 'screenshots');

/** Debian's Chromium; playwright-core never downloads a browser of its own. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    // Without the background-networking flags Chromium calls Google's hosts at every start,
    // which this network refuses (docs: /work/.library/env). --no-sandbox: CI runs as root.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

export interface FreshServer {
  url: string;
  /** Waits for a line of `hafatra start`'s output matching `re`. */
  line(re: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Every line `hafatra start` printed on stdout. */
  stdout: string[];
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * `hafatra start` exactly as a new user runs it, on a database of its own (created on the test
 * run's Postgres server) and a Redis prefix of its own: the first start prints the first API key
 * and the setup link. `env` adds settings (webhook test hosts, a CA to trust).
 */
export async function startFreshServer(env: Record<string, string> = {}): Promise<FreshServer> {
  const base = testDatabaseUrl();
  const name = `journey_${randomBytes(4).toString('hex')}`;
  await runOnServer(base, `CREATE DATABASE ${name}`);
  const databaseUrl = databaseUrlFor(base, name);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/cli/entry.ts', 'start'], {
    env: {
      ...process.env,
      ...env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: inject('redisUrl'),
      HAFATRA_REDIS_PREFIX: name,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      HAFATRA_SWEEP_INTERVAL_MS: '500',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stdout: string[] = [];
  const waiting: (() => void)[] = [];
  let exited: string | null = null;
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    stdout.push(...lines);
    waiting.splice(0).forEach((w) => w());
  });
  child.once('exit', (code) => {
    exited = `hafatra start exited (${code})`;
    waiting.splice(0).forEach((w) => w());
  });
  const line = (re: RegExp, timeoutMs = 90_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`hafatra start printed no line like ${re}: ${stdout.join('\n')}`)), timeoutMs);
      const check = () => {
        for (const l of stdout) {
          const m = re.exec(l);
          if (m) {
            clearTimeout(timer);
            return resolve(m);
          }
        }
        if (exited) {
          clearTimeout(timer);
          return reject(new Error(`${exited}: ${stdout.join('\n')}`));
        }
        waiting.push(check);
      };
      check();
    });
  const url = (await line(/^Dashboard: (http:\/\/\S+)\/$/))[1]!;
  return {
    url,
    line,
    stdout,
    databaseUrl,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      child.kill('SIGKILL');
    },
  };
}

/** A temporary PEM file for NODE_EXTRA_CA_CERTS (the webhook receiver's certificate). */
export async function caFile(pem: string): Promise<{ path: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'hafatra-ca-'));
  const path = join(dir, 'ca.pem');
  await writeFile(path, pem);
  return { path, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * A browser tab signed in as a member of an in-process test app (its session cookie set), at a
 * width and colour scheme, with `go` (open a path, wait for its title) and `heading`.
 */
export async function signedInPage(browser: Browser, url: string, sessionCookie: string, opts: { width: number; colorScheme?: 'light' | 'dark' }) {
  const context = await browser.newContext({ viewport: { width: opts.width, height: 900 }, colorScheme: opts.colorScheme ?? 'light' });
  await context.addCookies([{ name: SESSION_COOKIE, value: sessionCookie.split('=')[1]!, url }]);
  const page = await context.newPage();
  const heading = () => page.getByRole('heading', { level: 1 });
  const go = async (path: string, title: string | RegExp) => {
    await page.goto(`${url}${path}`);
    await expect.poll(() => heading().textContent()).toMatch(title);
  };
  return { context, page, heading, go };
}
