import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/harness.js';
import { runCliInProcess } from '../support/cli.js';
import { testDatabaseUrl } from '../support/database.js';

const prefix = `ocli${randomBytes(4).toString('hex')}`;
const env = { DATABASE_URL: testDatabaseUrl(), REDIS_URL: inject('redisUrl'), HAFATRA_REDIS_PREFIX: prefix, LOG_LEVEL: 'silent' };
const hafatra = (...args: string[]) => runCliInProcess(args, env);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('hafatra opt-out', () => {
  it('adds a national number as E.164, lists it, keeps it out of sends, and removes it', async () => {
    const { org, key } = await app.createOrg();
    const added = await hafatra('opt-out', 'add', '034 11 222 40', '--org', org.name, '--reason', 'called us', '--json');
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ number: '+261341122240', source: 'member', reason: 'called us' });
    const again = await hafatra('opt-out', 'add', '+261341122240', '--org', org.name);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('+261341122240 was already opted out');

    const listed = JSON.parse((await hafatra('opt-out', 'list', '--org', org.name, '--json')).stdout) as { number: string }[];
    expect(listed.map((o) => o.number)).toEqual(['+261341122240']);
    const send = await app.request('POST', '/v1/messages', { key, body: { to: '+261341122240', body: 'Salama' } });
    expect(send.body.messages[0]).toMatchObject({ status: 'failed', failureCode: 'opted_out' });

    const removed = await hafatra('opt-out', 'remove', '0341122240', '--org', org.name);
    expect(removed.code, removed.stderr).toBe(0);
    expect((await hafatra('opt-out', 'list', '--org', org.name)).stdout.trim()).toBe('(none)');
    const twice = await hafatra('opt-out', 'remove', '0341122240', '--org', org.name);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('+261341122240 is not opted out');
    const audit = await app.ctx.db.query('SELECT action FROM audit_log WHERE org_id = $1 ORDER BY id', [org.id]);
    expect(audit.rows.map((r) => r.action)).toEqual(['opt_out.added', 'opt_out.removed']);
  });

  it('refuses what is not a phone number, and an unknown organization', async () => {
    const { org } = await app.createOrg();
    const bad = await hafatra('opt-out', 'add', 'MVola', '--org', org.name);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('MVola is not a phone number');
    expect((await hafatra('opt-out', 'list', '--org', `nope-${prefix}`)).stderr).toContain('no organization');
    expect((await app.ctx.db.query('SELECT count(*)::int AS n FROM opt_outs WHERE org_id = $1', [org.id])).rows[0].n).toBe(0);
  });

  it('settings shows the shipped words and changes words and replies', async () => {
    const { org } = await app.createOrg();
    const shown = JSON.parse((await hafatra('opt-out', 'settings', '--org', org.name, '--json')).stdout);
    expect(shown).toMatchObject({ stopWords: ['STOP', 'ARRET', 'ARRÊT', 'DESABONNER', 'UNSUBSCRIBE'], startWords: ['START'], stopReply: null });
    const set = await hafatra('opt-out', 'settings', '--org', org.name, '--stop-words', 'Tsia, STOP', '--stop-reply', 'Voaray.', '--json');
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ stopWords: ['Tsia', 'STOP'], wordsAreDefault: false, stopReply: 'Voaray.' });
    const clash = await hafatra('opt-out', 'settings', '--org', org.name, '--start-words', 'tsia');
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain('TSIA cannot be both a stop word and a start word');
    const back = JSON.parse((await hafatra('opt-out', 'settings', '--org', org.name, '--stop-words', 'default', '--stop-reply', 'none', '--json')).stdout);
    expect(back).toMatchObject({ wordsAreDefault: true, stopReply: null });
  });
});
