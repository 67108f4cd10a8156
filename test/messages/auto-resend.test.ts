import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { expectError } from '../api/expect-error.js';
import { writeReports } from '../../src/dispatch/status-reports.js';
import { applyTransitionsLean } from '../../src/messages/transitions.js';
import { resendFailed } from '../../src/sending/auto-resend/resend-failures.js';
import { resendMissedFailures, SWEEP_GRACE_MS } from '../../src/sending/auto-resend/sweep.js';
import { AVOID_FAILED_PHONE_MS } from '../../src/sending/auto-resend/policy.js';
import { utcDay } from '../../src/redis/keys.js';
import type { OrganizationSettings } from '../../src/orgs/org-store.js';

const clock = { t: Date.now(), now: () => clock.t };
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({}, undefined, clock);
});
afterAll(() => app.close());

interface Org {
  orgId: string;
  key: string;
  phones: string[];
}

async function setup(settings: OrganizationSettings = {}, phones = 2): Promise<Org> {
  const { org, key } = await app.createOrg(settings);
  const ids: string[] = [];
  for (let i = 0; i < phones; i++) ids.push(await insertTestDevice(app.ctx, org.id));
  return { orgId: org.id, key, phones: ids };
}

async function send(o: Org, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await app.request('POST', '/v1/messages', { key: o.key, body: { to: '+261341234567', body: 'Your code: 1234', ...extra } });
  expect(res.status).toBe(202);
  return res.body.messages[0].id;
}

const claimed = async (o: Org, phone: string) => (await app.ctx.dispatch.claim({ orgId: o.orgId, deviceId: phone }, 10)).jobs.map((j) => j.messageId);

/** The phone takes the message (it must be the one it is handed) and reports it failed with `code`; the resends it causes are made. */
async function failOn(o: Org, phone: string, id: string, code: string): Promise<void> {
  expect(await claimed(o, phone)).toEqual([id]);
  await writeReports(app.ctx, [{ deviceId: phone, report: { messageId: id, status: 'sending' } }]);
  const [outcome] = await writeReports(app.ctx, [{ deviceId: phone, report: { messageId: id, status: 'failed', failureCode: code } }]);
  expect(outcome).toMatchObject({ status: 'failed' });
  await app.ctx.resends.drained();
}

const resendsOf = async (id: string): Promise<string[]> => (await app.ctx.db.query('SELECT id FROM messages WHERE resend_of_id = $1 ORDER BY id', [id])).rows.map((r) => r.id as string);

const get = async (o: Org, id: string) => (await app.request('GET', `/v1/messages/${id}`, { key: o.key })).body;

describe('automatic resend', () => {
  it('resends a retryable failure from another phone, up to the attempts, and each failed message stays failed', async () => {
    const o = await setup({ autoResend: { attempts: 2 } });
    const [a, b] = o.phones as [string, string];
    await app.ctx.db.query(`INSERT INTO webhook_endpoints (id, org_id, url, event_types, secret) VALUES ($1, $2, 'https://example.com/hook', $3, 'whsec_test')`, [
      `whe_ar${Date.now()}`,
      o.orgId,
      ['message.queued', 'message.failed'],
    ]);
    const first = await send(o, { priority: 'high' });
    await failOn(o, a, first, 'no_service');

    const [second] = await resendsOf(first);
    expect(second).toBeDefined();
    // The phone it failed on is passed over; the other phone gets it.
    expect(await claimed(o, a)).toEqual([]);
    await failOn(o, b, second!, 'radio_off');
    const [third] = await resendsOf(second!);
    expect(await claimed(o, b)).toEqual([]);
    await failOn(o, a, third!, 'generic_failure');
    // Two attempts were asked for: the third failure is the last word.
    expect(await resendsOf(third!)).toEqual([]);
    expect(await resendMissedFailures(app.ctx)).toBe(0);

    for (const id of [first, second!, third!]) expect((await get(o, id)).status).toBe('failed');
    const resent = await get(o, second!);
    expect(resent).toMatchObject({ resendOfId: first, to: '+261341234567', body: 'Your code: 1234', status: 'failed', failureCode: 'radio_off' });
    expect(resent.expiresAt).toBe((await get(o, first)).expiresAt);
    expect(resent.events[0]).toMatchObject({ fromStatus: null, toStatus: 'queued', source: 'system', code: 'auto_resend' });
    expect((await get(o, third!)).resendOfId).toBe(second);

    // Webhooks: each attempt's message.queued names the message it resends.
    const { rows } = await app.ctx.db.query(`SELECT type, payload FROM events WHERE org_id = $1 ORDER BY created_at, id`, [o.orgId]);
    const queued = rows.filter((r) => r.type === 'message.queued').map((r) => [r.payload.data.id, r.payload.data.resendOfId]);
    expect(queued).toEqual([
      [first, null],
      [second, first],
      [third, second],
    ]);
    expect(rows.filter((r) => r.type === 'message.failed')).toHaveLength(3);
  });

  it('does not resend a failure whose code is not worth another try, nor one of an organization that did not ask', async () => {
    const on = await setup({ autoResend: { attempts: 3 } });
    const refused = await send(on);
    await failOn(on, on.phones[0]!, refused, 'short_code_not_allowed');
    const off = await setup();
    const unasked = await send(off);
    await failOn(off, off.phones[0]!, unasked, 'no_service');

    clock.t += SWEEP_GRACE_MS;
    expect(await resendMissedFailures(app.ctx)).toBe(0);
    expect(await resendsOf(refused)).toEqual([]);
    expect(await resendsOf(unasked)).toEqual([]);
    expect(await claimed(on, on.phones[1]!)).toEqual([]);
  });

  it("follows each organization's own list of codes", async () => {
    const narrow = await setup({ autoResend: { attempts: 1, failureCodes: ['no_service'] } });
    const wide = await setup({ autoResend: { attempts: 1 } });
    const n = await send(narrow);
    const w = await send(wide);
    await failOn(narrow, narrow.phones[0]!, n, 'radio_off');
    await failOn(wide, wide.phones[0]!, w, 'radio_off');
    expect(await resendsOf(n)).toEqual([]);
    const [resent] = await resendsOf(w);
    // The resend is the organization's own: another organization's phone never sees it.
    expect(await claimed(narrow, narrow.phones[1]!)).toEqual([]);
    expect(await claimed(wide, wide.phones[1]!)).toEqual([resent]);
  });

  it('lets a send ask for its own attempts, either way, and refuses a count out of bounds naming the field', async () => {
    const off = await setup();
    const asked = await send(off, { autoResend: 1 });
    await failOn(off, off.phones[0]!, asked, 'no_service');
    expect(await resendsOf(asked)).toHaveLength(1);

    const on = await setup({ autoResend: { attempts: 5 } });
    const declined = await send(on, { autoResend: 0 });
    await failOn(on, on.phones[0]!, declined, 'no_service');
    expect(await resendsOf(declined)).toEqual([]);

    const bad = await app.request('POST', '/v1/messages', { key: on.key, body: { to: '+261341234567', body: 'x', autoResend: 6 } });
    expectError(bad, 400, 'invalid_request', /autoResend/);
  });

  it('makes one resend of a failure however often it is reported or handled at once', async () => {
    const o = await setup({ autoResend: { attempts: 1 } });
    const id = await send(o);
    await failOn(o, o.phones[0]!, id, 'no_service');
    const [again] = await writeReports(app.ctx, [{ deviceId: o.phones[0]!, report: { messageId: id, status: 'failed', failureCode: 'no_service' } }]);
    expect(again).toMatchObject({ duplicate: true });
    await app.ctx.resends.drained();
    expect(await resendsOf(id)).toHaveLength(1);

    // Two processes handling the same failure at the same moment (the report's path and the
    // sweep, or two workers): one resend, counted once against the daily limit.
    const racing = await send(o);
    await app.ctx.db.query(`UPDATE messages SET status = 'failed', previous_status = status, failure_code = 'no_service', failed_at = now() WHERE id = $1`, [racing]);
    const made = await Promise.all([resendFailed(app.ctx, [racing]), resendFailed(app.ctx, [racing]), resendFailed(app.ctx, [racing])]);
    expect(made.flat()).toHaveLength(1);
    expect(await resendsOf(racing)).toEqual(made.flat());
    const counted = await app.ctx.redis.get(app.ctx.keys.org(o.orgId).dailyCount(utcDay(new Date(clock.t))));
    expect(Number(counted)).toBe(4); // two sends, two resends
  });

  it('makes, in the sweep, the resend of a failure whose process died before making it', async () => {
    const o = await setup({ autoResend: { attempts: 1 } });
    const id = await send(o);
    expect(await claimed(o, o.phones[0]!)).toEqual([id]);
    // The failure commits, and nothing after it runs (as if the process died there).
    const phone = o.phones[0]!;
    await applyTransitionsLean(app.ctx.hotDb, app.ctx.changes, [{ id, to: 'sending', at: new Date(clock.t), source: 'device', deviceId: phone, heldBy: phone }]);
    await applyTransitionsLean(app.ctx.hotDb, app.ctx.changes, [{ id, to: 'failed', at: new Date(clock.t), source: 'device', code: 'no_service', deviceId: phone, heldBy: phone }]);
    expect(await resendsOf(id)).toEqual([]);

    expect(await resendMissedFailures(app.ctx)).toBe(0); // too recent: the report's path may still be at it
    clock.t += SWEEP_GRACE_MS;
    expect(await resendMissedFailures(app.ctx)).toBe(1);
    const [resent] = await resendsOf(id);
    expect(await claimed(o, o.phones[1]!)).toEqual([resent]);
    expect(await resendMissedFailures(app.ctx)).toBe(0);
    expect(await resendsOf(id)).toHaveLength(1);

    // Died after the resend committed but before the failure was marked dealt with: the sweep
    // finds the resend made and makes no other.
    await app.ctx.db.query('UPDATE messages SET auto_resends_left = 1 WHERE id = $1', [id]);
    expect(await resendMissedFailures(app.ctx)).toBe(0);
    expect(await resendsOf(id)).toHaveLength(1);
    expect((await app.ctx.db.query('SELECT auto_resends_left AS n FROM messages WHERE id = $1', [id])).rows[0].n).toBe(0);
  });

  it('sends the resend from the same phone once the others had their chance, when the organization has one phone', async () => {
    const o = await setup({ autoResend: { attempts: 1 } }, 1);
    const id = await send(o);
    await failOn(o, o.phones[0]!, id, 'radio_off');
    const [resent] = await resendsOf(id);
    expect(await claimed(o, o.phones[0]!)).toEqual([]);
    clock.t += AVOID_FAILED_PHONE_MS;
    expect(await claimed(o, o.phones[0]!)).toEqual([resent]);
  });

  it('keeps a pinned message on its phone and SIM', async () => {
    const o = await setup({ autoResend: { attempts: 1 } });
    await app.ctx.db.query('INSERT INTO device_sims (device_id, subscription_id) VALUES ($1, 7)', [o.phones[0]]);
    const id = await send(o, { deviceId: o.phones[0], simSubscriptionId: 7 });
    await failOn(o, o.phones[0]!, id, 'no_service');
    const [resent] = await resendsOf(id);
    expect(await get(o, resent!)).toMatchObject({ requestedDeviceId: o.phones[0], simSubscriptionId: 7 });
    expect(await claimed(o, o.phones[1]!)).toEqual([]);
    clock.t += AVOID_FAILED_PHONE_MS;
    expect(await claimed(o, o.phones[0]!)).toEqual([resent]);
  });

  it('does not resend when the daily limit is reached, nor try again later; nor a message past its expiry', async () => {
    const full = await setup({ dailyLimit: 1, autoResend: { attempts: 2 } });
    const id = await send(full);
    await failOn(full, full.phones[0]!, id, 'no_service');
    expect(await resendsOf(id)).toEqual([]);
    expect((await get(full, id)).status).toBe('failed');
    // Refused once is refused for good: room made later goes to the organization's own sends.
    await app.ctx.db.query('UPDATE organizations SET daily_limit = 10 WHERE id = $1', [full.orgId]);
    clock.t += SWEEP_GRACE_MS;
    expect(await resendMissedFailures(app.ctx)).toBe(0);
    expect(await resendsOf(id)).toEqual([]);

    const late = await setup({ autoResend: { attempts: 2 } });
    const old = await send(late);
    expect(await claimed(late, late.phones[0]!)).toEqual([old]);
    clock.t += app.ctx.config.messageTtlSeconds * 1000;
    await writeReports(app.ctx, [{ deviceId: late.phones[0]!, report: { messageId: old, status: 'sending' } }]);
    await writeReports(app.ctx, [{ deviceId: late.phones[0]!, report: { messageId: old, status: 'failed', failureCode: 'no_service' } }]);
    await app.ctx.resends.drained();
    expect(await resendsOf(old)).toEqual([]);
  });
});
