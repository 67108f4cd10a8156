import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { startTestApp, uniqueName, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { runCliInProcess, type CliRun } from '../support/cli.js';
import { hashSecret } from '../../src/auth/api-key-secret.js';
import { testDatabaseUrl } from '../support/database.js';

const prefix = `cli${randomBytes(4).toString('hex')}`;
const env = () => ({ DATABASE_URL: testDatabaseUrl(), REDIS_URL: inject('redisUrl'), HAFATRA_REDIS_PREFIX: prefix, LOG_LEVEL: 'silent' });
type Run = CliRun;

/** `npx tsx src/cli/entry.ts …`: the real command in its own process (about a second each). */
function spawnHafatra(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli/entry.ts', ...args], { env: { ...process.env, ...env() }, timeout: 30_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** The same entry point in this process, its output captured: what most tests use, to stay fast. */
const hafatra = (...args: string[]): Promise<Run> => runCliInProcess(args, env());

async function json(...args: string[]): Promise<any> {
  const res = await hafatra(...args, '--json');
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout);
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ redisPrefix: prefix });
});
afterAll(() => app.close());

describe('the hafatra process', () => {
  it('prints JSON and exits 0', async () => {
    const res = await spawnHafatra('org', 'create', '--name', uniqueName('proc'), '--json');
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).id).toMatch(/^org_/);
  });

  it('exits 2 on a bad argument, with the message and the usage on stderr', async () => {
    const res = await spawnHafatra('org', 'create', '--daily-limit', 'lots', '--name', 'x');
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/--daily-limit must be an integer/);
    expect(res.stderr).toMatch(/usage: hafatra org create/);
    expect(res.stdout).toBe('');
  });
});

describe('hafatra org', () => {
  it('creates, lists and updates an organization (--json)', async () => {
    const name = uniqueName('cli');
    const created = await json('org', 'create', '--name', name, '--country', 'fr', '--daily-limit', '250', '--retention-days', '7');
    expect(created).toMatchObject({ name, defaultCountry: 'FR', dailyLimit: 250, retentionDays: 7, aiConsent: false });
    expect(created.id).toMatch(/^org_/);

    const listed = await json('org', 'list');
    expect(listed.find((o: any) => o.id === created.id)).toMatchObject({ name, dailyLimit: 250 });

    const updated = await json('org', 'update', name, '--daily-limit', '100000', '--country', 'MG');
    expect(updated).toMatchObject({ id: created.id, dailyLimit: 100000, defaultCountry: 'MG', retentionDays: 7, autoResendAttempts: 0, autoResendCodes: null });
    const resending = await json('org', 'update', name, '--auto-resend', '2', '--auto-resend-codes', 'no_service,radio_off');
    expect(resending).toMatchObject({ autoResendAttempts: 2, autoResendCodes: ['no_service', 'radio_off'], dailyLimit: 100000 });
    expect(await json('org', 'update', name, '--auto-resend-codes', 'default')).toMatchObject({ autoResendAttempts: 2, autoResendCodes: null });
  });

  it("sets an organization's carriers from JSON, and back to the default", async () => {
    const name = uniqueName('carriers');
    await json('org', 'create', '--name', name);
    const own = [{ name: 'orange', prefixes: ['+26132'], simNames: ['Orange'] }];
    expect((await json('org', 'update', name, '--carriers', JSON.stringify(own))).carriers).toEqual(own);
    expect((await json('org', 'update', name, '--carriers', 'default')).carriers).toBeNull();
  });

  it('prints a readable table without --json', async () => {
    const res = await hafatra('org', 'list');
    expect(res.code).toBe(0);
    expect(res.stdout.split('\n')[0]).toMatch(/^id\s+name\s+defaultCountry\s+dailyLimit/);
  });

  it.each([
    [['org', 'create'], /--name is required/],
    [['org', 'create', '--name', 'x', '--daily-limit', '0'], /--daily-limit must be an integer from 1 to 100000/],
    [['org', 'create', '--name', 'x', '--daily-limit', '100001'], /--daily-limit/],
    [['org', 'create', '--name', 'x', '--country', 'MDG'], /--country/],
    [['org', 'create', '--name', 'x', '--bogus'], /bogus/],
    [['org', 'create', '--name', 'x', '--auto-resend', '6'], /--auto-resend must be an integer from 0 to 5/],
    [['org', 'create', '--name', 'x', '--auto-resend-codes', 'No Service'], /--auto-resend-codes must be failure codes/],
    [['org', 'create', '--name', 'x', '--auto-resend-codes', 'no_service,opted_out'], /--auto-resend-codes: opted_out is never resent/],
    [['org', 'create', '--name', 'x', '--carriers', 'orange'], /--carriers must be JSON/],
    [['org', 'create', '--name', 'x', '--carriers', '[{"name":"orange","prefixes":["032"],"simNames":["orange"]}]'], /--carriers: carriers\[0\]\.prefixes\[0\]: must be an E\.164 prefix/],
    [['org', 'update'], /name the organization/],
    [['org', 'update', 'no-such-org-here'], /no organization/],
    [['key', 'create', '--scopes', 'messages:write'], /--scopes/],
    [['key', 'create', '--expires', 'tomorrow'], /--expires/],
    [['key', 'rotate'], /key id/],
    [['key', 'revoke', 'key_doesnotexist'], /no key/],
    [['frobnicate'], /Usage:/],
  ])('exits 2 with a clear message for %j', async (args, message) => {
    const res = await hafatra(...args);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
  });

  it('refuses a duplicate organization name', async () => {
    const name = uniqueName('dup');
    await json('org', 'create', '--name', name);
    const res = await hafatra('org', 'create', '--name', name);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/already exists/);
  });
});

describe('hafatra key', () => {
  it('creates a scoped key that works on the API, rotates it and revokes it, each effective at once', async () => {
    const name = uniqueName('keys');
    const org = await json('org', 'create', '--name', name);
    await insertTestDevice(app.ctx, org.id);

    const created = await json('key', 'create', '--org', name, '--scopes', 'messages:read,messages:send', '--expires', '30d');
    expect(created.key).toMatch(/^hfk_/);
    expect(created.scopes).toEqual(['messages:read', 'messages:send']);
    expect(Date.parse(created.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect((await app.request('GET', '/v1/messages', { key: created.key })).status).toBe(200);
    expect((await app.request('GET', '/v1/devices', { key: created.key })).status).toBe(403);

    const listed = await json('key', 'list', '--org', name);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: created.id, revokedAt: null });
    expect(JSON.stringify(listed)).not.toContain(created.key); // only a hint is kept

    const rotated = await json('key', 'rotate', created.id);
    expect(rotated).toMatchObject({ replaces: created.id, scopes: created.scopes });
    expect((await app.request('GET', '/v1/messages', { key: created.key })).status).toBe(401);
    expect((await app.request('GET', '/v1/messages', { key: rotated.key })).status).toBe(200);

    const revoked = await json('key', 'revoke', rotated.id);
    expect(revoked.revokedAt).not.toBeNull();
    expect((await app.request('GET', '/v1/messages', { key: rotated.key })).status).toBe(401);
    expect((await hafatra('key', 'rotate', rotated.id)).code).toBe(2);
  });

  it('prints the documented fields of a key and never its stored hash; the secret only at create and rotate', async () => {
    const name = uniqueName('keyout');
    await json('org', 'create', '--name', name);
    const fields = ['createdAt', 'expiresAt', 'hint', 'id', 'name', 'orgId', 'rateBurst', 'ratePerSecond', 'replacedBy', 'revokedAt', 'scopes'];
    const created = await json('key', 'create', '--org', name);
    const rotated = await json('key', 'rotate', created.id);
    const listed = await json('key', 'list', '--org', name);
    const revoked = await json('key', 'revoke', rotated.id);
    expect(Object.keys(created).sort()).toEqual([...fields, 'key'].sort());
    expect(Object.keys(rotated).sort()).toEqual([...fields, 'key', 'replaces'].sort());
    for (const k of [...listed, revoked]) expect(Object.keys(k).sort()).toEqual(fields);
    const hashes = [created.key, rotated.key].map((secret: string) => hashSecret(secret).toString('hex'));
    for (const out of [created, rotated, listed, revoked].map((o) => JSON.stringify(o))) {
      for (const hash of hashes) expect(out).not.toContain(hash);
    }
    for (const secret of [created.key, rotated.key]) expect(JSON.stringify([listed, revoked])).not.toContain(secret);
  });
});

describe('hafatra config', () => {
  it('lists every setting with its default', async () => {
    const rows = await json('config');
    expect(rows.map((r: any) => r.name)).toContain('DATABASE_URL');
    expect(rows.find((r: any) => r.name === 'PORT')).toMatchObject({ default: '3000' });
    expect(rows.find((r: any) => r.name === 'DATABASE_URL').current).toBe('(set)'); // never printed
  });
});
