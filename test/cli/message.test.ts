import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { cliRunner } from '../support/cli.js';
import { testDatabaseUrl } from '../support/database.js';

const prefix = `mcli${randomBytes(4).toString('hex')}`;
const { hafatra, json } = cliRunner({ DATABASE_URL: testDatabaseUrl(), REDIS_URL: inject('redisUrl'), HAFATRA_REDIS_PREFIX: prefix, LOG_LEVEL: 'silent' });

let app: TestApp;
beforeAll(async () => {
  // The same Redis prefix as the CLI's: a message it queues is on the queues the API's phones read.
  app = await startTestApp({ redisPrefix: prefix });
});
afterAll(() => app.close());

/** An organization with one phone that can send. */
async function sendingOrg() {
  const { org, key } = await app.createOrg();
  const deviceId = await insertTestDevice(app.ctx, org.id, { sims: [1, 2] });
  return { org, key, deviceId };
}

const countMessages = async (orgId: string) => (await app.ctx.db.query('SELECT count(*)::int AS n FROM messages WHERE org_id = $1', [orgId])).rows[0].n;

describe('hafatra message send', () => {
  it('queues one message per recipient, given as repeated --to and a comma list, the API seeing them', async () => {
    const { org, key } = await sendingOrg();
    const res = await hafatra('message', 'send', '--org', org.name, '--to', '+261341122201', '--to', '034 11 222 02, +261331122203', '--body', 'Salama');
    expect(res.code, res.stderr).toBe(0);
    const [batchLine, header, ...rows] = res.stdout.trim().split('\n');
    expect(batchLine).toMatch(/^batch: bat_/);
    expect(header).toMatch(/^id\s+to\s+status\s+failureCode\s+sendAt/);
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r.split(/\s+/).slice(1, 3))).toEqual([
      ['+261341122201', 'queued'],
      ['+261341122202', 'queued'],
      ['+261331122203', 'queued'],
    ]);

    const listed = await app.request('GET', '/v1/messages', { key });
    expect(listed.body.messages.map((m: any) => m.to).sort()).toEqual(['+261331122203', '+261341122201', '+261341122202']);
    expect(new Set(listed.body.messages.map((m: any) => m.batchId))).toEqual(new Set([batchLine!.slice('batch: '.length)]));
    const audit = await app.ctx.db.query('SELECT action, target, detail FROM audit_log WHERE org_id = $1', [org.id]);
    expect(audit.rows).toEqual([{ action: 'messages.sent', target: batchLine!.slice('batch: '.length), detail: { messages: 3, by: 'cli' } }]);
  });

  it('prints the SendResult with --json, with the device, SIM, priority, validity and send-window override asked for; a repeated idempotency key answers the same batch', async () => {
    const { org, deviceId } = await sendingOrg();
    const args = ['message', 'send', '--org', org.name, '--to', '+261341122210', '--body', 'Code 1234', '--device', deviceId, '--sim', '2', '--priority', 'high', '--ignore-send-windows'];
    const sent = await json(...args, '--valid-for', '300', '--idempotency-key', 'order-77');
    expect(sent.batchId).toMatch(/^bat_/);
    expect(sent.messages).toHaveLength(1);
    const [m] = sent.messages;
    expect(m).toMatchObject({ to: '+261341122210', status: 'queued', requestedDeviceId: deviceId, simSubscriptionId: 2, sendAt: null });
    expect(Date.parse(m.expiresAt) - Date.parse(m.createdAt)).toBeGreaterThan(295_000);
    expect(Date.parse(m.expiresAt) - Date.parse(m.createdAt)).toBeLessThanOrEqual(300_000);
    const stored = await app.ctx.db.query('SELECT priority, ignore_send_windows FROM messages WHERE id = $1', [m.id]);
    expect(stored.rows[0]).toEqual({ priority: 1, ignore_send_windows: true });

    expect(await json(...args, '--valid-for', '300', '--idempotency-key', 'order-77')).toEqual(sent);
    expect(await countMessages(org.id)).toBe(1);
  });

  it('schedules with --send-at: the messages answered accepted with their sendAt', async () => {
    const { org } = await sendingOrg();
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const sent = await json('message', 'send', '--org', org.name, '--to', '+261341122220,+261341122221', '--body', 'Tomorrow', '--send-at', at);
    expect(sent.messages.map((m: any) => [m.status, m.sendAt])).toEqual([
      ['accepted', at],
      ['accepted', at],
    ]);
    const scheduled = await app.ctx.db.query(`SELECT count(*)::int AS n FROM messages WHERE org_id = $1 AND status = 'accepted' AND send_at = $2`, [org.id, at]);
    expect(scheduled.rows[0].n).toBe(2);
  });

  it.each([
    [['--valid-for', '30'], '--valid-for: validFor: must be an integer number of seconds from 60 to 86400'],
    [['--valid-for', 'soon'], '--valid-for: validFor: must be an integer number of seconds from 60 to 86400'],
    [['--priority', 'urgent'], '--priority: priority: must be "normal" or "high"'],
    [['--send-at', 'tomorrow'], '--send-at: sendAt: must be an RFC 3339 date-time'],
    [['--auto-resend', '6'], '--auto-resend: autoResend: must be an integer from 0 to 5'],
    [['--device', 'dev/1'], '--device: deviceId: must match'],
    [['--sim', '1'], '--sim requires --device'],
    [['--idempotency-key', 'two words'], '--idempotency-key: must be 1 to 128 printable ASCII characters'],
  ])('refuses %j as usage (exit 2) naming the field as the API does, and sends nothing', async (extra, message) => {
    const { org } = await sendingOrg();
    const res = await hafatra('message', 'send', '--org', org.name, '--to', '+261341122230', '--body', 'Salama', ...extra);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(message);
    expect(res.stderr).toContain('usage: hafatra message send');
    expect(await countMessages(org.id)).toBe(0);
  });

  it.each([
    [[], /--to is required/],
    [['--to', ' , '], /--to is required/],
    [['--to', '+261341122240'], /--body is required/],
    [['--to', '+261341122240', '--body', ''], /--body: body: must be a string of 1 to 1600 characters/],
  ])('exits 2 on %j', async (extra, message) => {
    const { org } = await sendingOrg();
    const res = await hafatra('message', 'send', '--org', org.name, ...extra);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
  });

  it("prints the API's code and message and exits 1 when the send is refused, writing nothing", async () => {
    const { org } = await app.createOrg(); // no phone
    const none = await hafatra('message', 'send', '--org', org.name, '--to', '+261341122250', '--body', 'Salama');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('error: no_device: no phone in the organization can send');
    expect(none.stdout).toBe('');

    const { org: sending } = await sendingOrg();
    const bad = await hafatra('message', 'send', '--org', sending.name, '--to', '+261341122251,MVola', '--body', 'Salama');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('error: invalid_request: to[1]: "MVola" is not a phone number');

    const { org: limited } = await app.createOrg({ dailyLimit: 1 });
    await insertTestDevice(app.ctx, limited.id);
    const over = await hafatra('message', 'send', '--org', limited.name, '--to', '+261341122252,+261341122253', '--body', 'Salama');
    expect(over.code).toBe(1);
    expect(over.stderr).toContain('error: rate_limited:');
    for (const id of [org.id, sending.id, limited.id]) expect(await countMessages(id)).toBe(0);
    expect((await app.ctx.db.query('SELECT count(*)::int AS n FROM audit_log WHERE org_id = ANY($1)', [[org.id, sending.id, limited.id]])).rows[0].n).toBe(0);
  });

  it('refuses an unknown organization', async () => {
    const res = await hafatra('message', 'send', '--org', `nope-${prefix}`, '--to', '+261341122260', '--body', 'Salama');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`no organization nope-${prefix}`);
  });
});

describe('hafatra --help', () => {
  it('lists the message commands, and each prints its options', async () => {
    const help = await hafatra('--help');
    for (const verb of ['send', 'get', 'cancel']) expect(help.stdout).toMatch(new RegExp(`hafatra message ${verb}\\s+\\S`));
    expect((await hafatra('message', 'send', '--help')).stdout).toContain('--send-at ISO-DATE-TIME] [--valid-for SECONDS] [--ignore-send-windows]');
  });
});

describe('hafatra message get and cancel', () => {
  it('cancels a scheduled message, and get shows its timeline', async () => {
    const { org } = await sendingOrg();
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const [m] = (await json('message', 'send', '--org', org.name, '--to', '+261341122270', '--body', 'Later', '--send-at', at)).messages;

    const cancelled = await hafatra('message', 'cancel', m.id, '--org', org.name);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout.trim()).toBe(`${m.id} cancelled`);

    const detail = await json('message', 'get', m.id, '--org', org.name);
    expect(detail).toMatchObject({ id: m.id, to: '+261341122270', status: 'cancelled', sendAt: at });
    expect(detail.events.map((e: any) => [e.fromStatus, e.toStatus, e.source])).toEqual([
      [null, 'accepted', 'member'],
      ['accepted', 'cancelled', 'member'],
    ]);
    // What the API answers for the same message.
    const { key } = await app.createKey(org.id, ['messages:read']).then((k) => ({ key: k.key }));
    expect((await app.request('GET', `/v1/messages/${m.id}`, { key })).body).toEqual(detail);

    const table = await hafatra('message', 'get', m.id, '--org', org.name);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(`id: ${m.id}`);
    expect(table.stdout).toContain('status: cancelled');
    expect(table.stdout).toMatch(/^at\s+fromStatus\s+toStatus\s+source\s+code\s+deviceId$/m);
    expect(table.stdout).toMatch(/accepted\s+cancelled\s+member/);

    const again = await hafatra('message', 'cancel', m.id, '--org', org.name);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('error: invalid_transition: message is cancelled');
    const audit = await app.ctx.db.query('SELECT action, target FROM audit_log WHERE org_id = $1 ORDER BY at, id', [org.id]);
    expect(audit.rows.map((r) => r.action)).toEqual(['messages.sent', 'message.cancelled']);
    expect(audit.rows[1].target).toBe(m.id);
  });

  it('cancels a queued message and prints it with --json', async () => {
    const { org } = await sendingOrg();
    const [m] = (await json('message', 'send', '--org', org.name, '--to', '+261341122280', '--body', 'Now')).messages;
    expect(await json('message', 'cancel', m.id, '--org', org.name)).toMatchObject({ id: m.id, status: 'cancelled' });
  });

  it("does not find another organization's message, nor change it", async () => {
    const { org } = await sendingOrg();
    const { org: other } = await app.createOrg();
    const [m] = (await json('message', 'send', '--org', org.name, '--to', '+261341122290', '--body', 'Mine')).messages;
    for (const verb of ['get', 'cancel']) {
      const res = await hafatra('message', verb, m.id, '--org', other.name);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`error: not_found: `);
      expect(res.stdout).toBe('');
    }
    expect((await hafatra('message', 'get', m.id, '--org', other.name)).stderr).toContain(`no message ${m.id} in organization ${other.name}`);
    expect((await json('message', 'get', m.id, '--org', org.name)).status).toBe('queued');
    expect((await hafatra('message', 'get', '--org', org.name)).stderr).toContain('name the message id');
  });
});
