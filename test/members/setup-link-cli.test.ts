import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/harness.js';
import { runCliInProcess } from '../support/cli.js';
import { testDatabaseUrl } from '../support/database.js';
import { signedInMember } from '../support/members.js';

const prefix = `slcli${randomBytes(4).toString('hex')}`;
const env = { DATABASE_URL: testDatabaseUrl(), REDIS_URL: inject('redisUrl'), HAFATRA_REDIS_PREFIX: prefix, LOG_LEVEL: 'silent', HAFATRA_PUBLIC_URL: 'https://sms.example.org' };
const hafatra = (...args: string[]) => runCliInProcess(args, env);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const browser = () => ({ origin: new URL(app.url).origin });
const tokenOf = (run: { stdout: string }) => (JSON.parse(run.stdout) as { url: string }).url.split('#')[1]!;
const inspect = (token: string) => app.request('POST', '/dashboard/v1/links/inspect', { headers: browser(), body: { token } });

it('member setup-link prints a fresh first-owner link each time (the earlier one stops working), and refuses once an owner exists', async () => {
  const { org } = await app.createOrg();
  const first = await hafatra('member', 'setup-link', '--org', org.name, '--json');
  expect(first.code, first.stderr).toBe(0);
  expect(JSON.parse(first.stdout)).toMatchObject({ organization: org.name, url: expect.stringMatching(/^https:\/\/sms\.example\.org\/link#[A-Za-z0-9_-]{43}$/) });
  expect((await inspect(tokenOf(first))).body).toMatchObject({ kind: 'setup', role: 'owner', organization: { id: org.id } });

  const second = await hafatra('member', 'setup-link', '--org', org.name, '--json');
  expect((await inspect(tokenOf(first))).status).toBe(404);
  const email = `owner${randomBytes(3).toString('hex')}@example.org`;
  const made = await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(), body: { token: tokenOf(second), email, password: 'first owner pass!' } });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  expect(made.body).toMatchObject({ role: 'owner', organization: { id: org.id } });

  const refused = await hafatra('member', 'setup-link', '--org', org.name);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain(`${org.name} already has an owner`);
  const readable = await hafatra('member', 'setup-link', '--org', (await app.createOrg()).org.name);
  expect(readable.code).toBe(0);
  expect(readable.stdout).toMatch(/^url: https:\/\/sms\.example\.org\/link#/m);
});

it('an organization whose only members are admins still gets a setup link', async () => {
  const { org } = await app.createOrg();
  await signedInMember(app, org.id, 'admin');
  expect((await hafatra('member', 'setup-link', '--org', org.id)).code).toBe(0);
});
