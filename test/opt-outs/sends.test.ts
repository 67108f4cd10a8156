import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { flushPrefix } from '../support/redis.js';
import { eventsOf, subscribeWebhook } from '../incoming/support.js';
import { syncDeviceState } from '../../src/dispatch-queue/device-state.js';
import { utcDay } from '../../src/redis/keys.js';
import { countDaysMessages } from '../../src/sending/daily-count.js';
import { signedInMember } from '../support/members.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const recipients = (n: number) => Array.from({ length: n }, (_, i) => `+2613450${String(i).padStart(5, '0')}`);

async function setup(dailyLimit = 100_000) {
  const { org, key } = await app.createOrg({ dailyLimit });
  const deviceId = await insertTestDevice(app.ctx, org.id);
  await app.ctx.db.query('UPDATE devices SET pacing_per_minute = 100000, sim_daily_cap = NULL WHERE id = $1', [deviceId]);
  await syncDeviceState(app.ctx, deviceId);
  const optOut = async (number: string) => expect((await app.request('POST', '/v1/opt-outs', { key, body: { number } })).status).toBe(201);
  /** Every message a phone of the organization can claim now. */
  const claimAll = async () => {
    const ids: string[] = [];
    for (;;) {
      const { jobs } = await app.ctx.dispatch.claim({ orgId: org.id, deviceId }, 500);
      if (jobs.length === 0) return ids;
      ids.push(...jobs.map((j) => j.messageId));
    }
  };
  const dailyCount = async () => Number(await app.ctx.redis.get(app.ctx.keys.org(org.id).dailyCount(utcDay())));
  return { org, key, optOut, claimAll, dailyCount };
}

describe('a send to an opted-out number', () => {
  it('creates that recipient failed (opted_out) with its timeline and message.failed, queues the 499 others and counts only them', async () => {
    const { org, key, optOut, claimAll, dailyCount } = await setup();
    await subscribeWebhook(app, org.id, ['message.queued', 'message.failed']);
    const to = recipients(500);
    await optOut('034 50 00 123'); // national format: stored as +261345000123, to[123]
    const before = await dailyCount();
    const res = await app.request('POST', '/v1/messages', { key, body: { to, body: 'Salama' } });
    expect(res.status).toBe(202);
    const messages = res.body.messages as { id: string; to: string; status: string; failureCode: string | null; failedAt: string | null }[];
    expect(messages).toHaveLength(500);
    const failed = messages[123]!;
    expect(failed).toMatchObject({ to: '+261345000123', status: 'failed', failureCode: 'opted_out', failedAt: expect.any(String) });
    expect(messages.filter((m) => m.status === 'queued')).toHaveLength(499);
    expect((await dailyCount()) - before).toBe(499);

    const detail = (await app.request('GET', `/v1/messages/${failed.id}`, { key })).body;
    expect(detail).toMatchObject({ status: 'failed', failureCode: 'opted_out' });
    expect(detail.events).toEqual([{ fromStatus: null, toStatus: 'failed', source: 'api', code: 'opted_out', deviceId: null, at: detail.createdAt }]);
    const failedEvents = await eventsOf(app, org.id, 'message.failed');
    expect(failedEvents.map((e) => e.payload.data)).toEqual([expect.objectContaining({ id: failed.id, status: 'failed', failureCode: 'opted_out' })]);
    expect(await eventsOf(app, org.id, 'message.queued')).toHaveLength(499);

    // Never reaches a phone.
    const claimed = await claimAll();
    expect(claimed).toHaveLength(499);
    expect(claimed).not.toContain(failed.id);
    // Postgres counts the day as the daily limit does: the opted-out message is not in it.
    expect(await countDaysMessages(app.ctx, org.id, utcDay())).toBe(499);
  });

  it('is admitted when only the recipients the daily limit leaves room for are not opted out', async () => {
    const { key, optOut, dailyCount } = await setup(3);
    await optOut('+261345000000');
    const res = await app.request('POST', '/v1/messages', { key, body: { to: recipients(4), body: 'Salama' } });
    expect(res.status).toBe(202);
    expect(await dailyCount()).toBe(3);
    const refused = await app.request('POST', '/v1/messages', { key, body: { to: recipients(2).slice(1), body: 'Salama' } });
    expect(refused.status).toBe(429);
  });

  it('answers a replay with the same messages, the opted-out one failed, and counts nothing again', async () => {
    const { key, optOut, dailyCount } = await setup();
    await optOut('+261345000001');
    const send = () => app.request('POST', '/v1/messages', { key, body: { to: recipients(3), body: 'Salama' }, headers: { 'idempotency-key': 'oo-replay' } });
    const first = await send();
    const again = await send();
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.body.messages.map((m: { status: string }) => m.status)).toEqual(['queued', 'failed', 'queued']);
    expect(await dailyCount()).toBe(2);
  });

  it('needs no phone when every recipient opted out', async () => {
    const { key } = await app.createOrg();
    await app.request('POST', '/v1/opt-outs', { key, body: { number: '+261345000002' } });
    const res = await app.request('POST', '/v1/messages', { key, body: { to: '+261345000002', body: 'Salama' } });
    expect(res.status).toBe(202);
    expect(res.body.messages[0]).toMatchObject({ status: 'failed', failureCode: 'opted_out' });
    const other = await app.request('POST', '/v1/messages', { key, body: { to: '+261345000003', body: 'Salama' } });
    expect(other.body.error.code).toBe('no_device');
  });

  it('is not queued again when Redis lost its queues and they are rebuilt from Postgres', async () => {
    const { key, optOut, claimAll } = await setup();
    await optOut('+261345000000');
    const res = await app.request('POST', '/v1/messages', { key, body: { to: recipients(2), body: 'Salama' } });
    await flushPrefix(app.ctx);
    await app.ctx.dispatch.rebuildIfLost();
    expect(await claimAll()).toEqual([res.body.messages[1].id]);
  });

  it("is refused for a dashboard member's send too, with the member as the timeline's source", async () => {
    const { org, optOut } = await setup();
    await optOut('+261345000003');
    const member = await signedInMember(app, org.id, 'admin');
    const res = await app.request('POST', '/v1/messages', { headers: member.headers, body: { to: ['+261345000003', '+261345000004'], body: 'Salama' } });
    expect(res.status).toBe(202);
    const [refused, sent] = res.body.messages;
    const events = async (id: string) => (await app.request('GET', `/v1/messages/${id}`, { headers: member.headers })).body.events;
    expect(await events(refused.id)).toEqual([expect.objectContaining({ fromStatus: null, toStatus: 'failed', source: 'member', code: 'opted_out' })]);
    expect(await events(sent.id)).toEqual([expect.objectContaining({ fromStatus: null, toStatus: 'queued', source: 'member', code: null })]);
  });
});
