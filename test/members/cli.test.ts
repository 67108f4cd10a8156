import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/harness.js';
import { runCliInProcess } from '../support/cli.js';
import { testDatabaseUrl } from '../support/database.js';

const prefix = `mcli${randomBytes(4).toString('hex')}`;
const env = { DATABASE_URL: testDatabaseUrl(), REDIS_URL: inject('redisUrl'), HAFATRA_REDIS_PREFIX: prefix, LOG_LEVEL: 'silent', HAFATRA_PUBLIC_URL: 'https://sms.example.org' };
const hafatra = (...args: string[]) => runCliInProcess(args, env);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const browser = () => ({ origin: new URL(app.url).origin });

describe('hafatra member', () => {
  it('invite prints a one-time link that makes the person a member with the role; reset-password prints one that sets a new password', async () => {
    const { org } = await app.createOrg();
    const email = `cli${randomBytes(3).toString('hex')}@example.org`;
    const bad = await hafatra('member', 'invite', '--org', org.name, '--email', email, '--role', 'king');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--role takes owner, admin or viewer');

    const invited = await hafatra('member', 'invite', '--org', org.name, '--email', email, '--role', 'admin', '--json');
    expect(invited.code, invited.stderr).toBe(0);
    const { url } = JSON.parse(invited.stdout) as { url: string };
    expect(url).toMatch(/^https:\/\/sms\.example\.org\/link#[A-Za-z0-9_-]{43}$/);
    const joined = await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(), body: { token: url.split('#')[1], password: 'first password!' } });
    expect(joined.body).toMatchObject({ role: 'admin', organization: { id: org.id } });

    const listed = JSON.parse((await hafatra('member', 'list', '--org', org.name, '--json')).stdout) as { email: string; role: string }[];
    expect(listed).toEqual([expect.objectContaining({ email, role: 'admin' })]);

    const reset = JSON.parse((await hafatra('member', 'reset-password', '--email', email.toUpperCase(), '--json')).stdout) as { url: string };
    expect((await app.request('POST', '/dashboard/v1/links/accept', { headers: browser(), body: { token: reset.url.split('#')[1], password: 'second password!' } })).status).toBe(200);
    expect((await app.request('POST', '/dashboard/v1/session', { headers: browser(), body: { email, password: 'second password!' } })).status).toBe(200);
    expect((await hafatra('member', 'reset-password', '--email', 'nobody@example.org')).code).toBe(2);
  });
});
