import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { flushPrefix } from '../support/redis.js';
import { expectError } from '../api/expect-error.js';
import { moveDueBatches } from '../../src/sending/move-due.js';
import { rebuildScheduleIfLost, scheduleOverdue, OVERDUE_MS } from '../../src/scheduling/rebuild.js';
import { takeDueBatches } from '../../src/redis/scripts/take-due-batches.js';
import { admitAndCommit } from '../../src/sending/send-messages.js';
import { expireQueued } from '../../src/dispatch/sweeps.js';
import { newId } from '../../src/ids/ids.js';

/** The process's clock, moved by the tests: the mover queues what is due by it. */
let nowMs = Date.now();
const clock = { now: () => nowMs };
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ reconcileGraceMs: 0 }, undefined, clock);
});
afterAll(() => app.close());
beforeEach(() => {
  nowMs = Date.now();
});

const HOUR = 3_600_000;
const numbers = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `+2613420${String(from + i).padStart(5, '0')}`);

async function orgWithPhone(dailyLimit?: number) {
  const { org, key } = await app.createOrg(dailyLimit === undefined ? {} : { dailyLimit });
  const deviceId = await insertTestDevice(app.ctx, org.id);
  return { orgId: org.id, key, deviceId };
}

async function schedule(key: string, sendAt: number, extra: Record<string, unknown> = {}, to: string | string[] = '+261341234567') {
  const res = await app.request('POST', '/v1/messages', { key, body: { to, body: 'Meeting at 10', sendAt: new Date(sendAt).toISOString(), ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body as { batchId: string; messages: { id: string; status: string; sendAt: string | null; expiresAt: string }[] };
}

const statusOf = async (ids: string[]) => (await app.ctx.db.query('SELECT status FROM messages WHERE id = ANY($1) ORDER BY id', [ids])).rows.map((r) => r.status as string);
const queueScore = (orgId: string, id: string) => app.ctx.redis.zscore(app.ctx.keys.org(orgId).orgQueue(), id);
const events = async (id: string, key: string) =>
  (await app.request('GET', `/v1/messages/${id}`, { key })).body.events as { fromStatus: string | null; toStatus: string; source: string; code: string | null; at: string }[];

describe('a scheduled send', () => {
  it('is accepted, off the dispatch queues and without a webhook event until its sendAt, then queued at it, not before', async () => {
    const { orgId, key } = await orgWithPhone();
    await app.ctx.db.query(`INSERT INTO webhook_endpoints (id, org_id, url, event_types, secret) VALUES ($1, $2, 'https://example.com/h', $3, 'whsec_test')`, [
      newId('webhookEndpoint'),
      orgId,
      ['message.queued'],
    ]);
    const sendAt = nowMs + HOUR;
    const sent = await schedule(key, sendAt, {}, ['+261341234567', '+261341234568']);
    const ids = sent.messages.map((m) => m.id);
    expect(sent.messages.map((m) => [m.status, m.sendAt, m.expiresAt])).toEqual(ids.map(() => ['accepted', new Date(sendAt).toISOString(), new Date(sendAt + 24 * HOUR).toISOString()]));
    expect(await statusOf(ids)).toEqual(['accepted', 'accepted']);
    expect(await queueScore(orgId, ids[0]!)).toBeNull();
    const published = async () => (await app.ctx.db.query(`SELECT count(*)::int AS n FROM events WHERE org_id = $1 AND type = 'message.queued'`, [orgId])).rows[0].n;
    expect(await published()).toBe(0);
    const listed = await app.request('GET', '/v1/messages?status=accepted', { key });
    expect(listed.body.messages.map((m: { id: string }) => m.id).sort()).toEqual([...ids].sort());
    expect(await events(ids[0]!, key)).toEqual([{ fromStatus: null, toStatus: 'accepted', source: 'api', code: null, deviceId: null, at: expect.any(String) }]);

    nowMs = sendAt - 1_000;
    expect(await moveDueBatches(app.ctx)).toBe(0);
    expect(await statusOf(ids)).toEqual(['accepted', 'accepted']);

    nowMs = sendAt;
    expect(await moveDueBatches(app.ctx)).toBe(2);
    expect(await statusOf(ids)).toEqual(['queued', 'queued']);
    // Queued in the order of its sendAt, not of the day it was accepted.
    expect(Number(await queueScore(orgId, ids[0]!))).toBe(sendAt);
    expect(await published()).toBe(2);
    expect(await events(ids[0]!, key)).toEqual([
      { fromStatus: null, toStatus: 'accepted', source: 'api', code: null, deviceId: null, at: expect.any(String) },
      { fromStatus: 'accepted', toStatus: 'queued', source: 'system', code: 'scheduled', deviceId: null, at: new Date(sendAt).toISOString() },
    ]);
    expect(await moveDueBatches(app.ctx)).toBe(0);
  });

  it('is claimed by a phone once due, and can no longer be cancelled then', async () => {
    const { orgId, key, deviceId } = await orgWithPhone();
    const sendAt = nowMs + 10 * 60_000;
    const id = (await schedule(key, sendAt)).messages[0]!.id;
    expect((await app.ctx.dispatch.claim({ orgId, deviceId }, 10)).jobs).toEqual([]);
    nowMs = sendAt + 500;
    await moveDueBatches(app.ctx);
    expect((await app.ctx.dispatch.claim({ orgId, deviceId }, 10)).jobs.map((j) => j.messageId)).toEqual([id]);
    expectError(await app.request('POST', `/v1/messages/${id}/cancel`, { key }), 409, 'invalid_transition');
  });

  it('cancelled before its time is never queued', async () => {
    const { orgId, key } = await orgWithPhone();
    const sendAt = nowMs + HOUR;
    const [a, b] = (await schedule(key, sendAt, {}, ['+261341234567', '+261341234568'])).messages.map((m) => m.id);
    const cancelled = await app.request('POST', `/v1/messages/${a}/cancel`, { key });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    nowMs = sendAt;
    expect(await moveDueBatches(app.ctx)).toBe(1);
    expect(await statusOf([a!, b!])).toEqual(a! < b! ? ['cancelled', 'queued'] : ['queued', 'cancelled']);
    expect(await queueScore(orgId, a!)).toBeNull();
    expect((await events(a!, key)).map((e) => `${e.fromStatus}>${e.toStatus}`)).toEqual(['null>accepted', 'accepted>cancelled']);
  });

  it('due past its validity expires instead of being queued (the scheduler was down)', async () => {
    const { key } = await orgWithPhone();
    const sendAt = nowMs + HOUR;
    const id = (await schedule(key, sendAt, { validFor: 300 })).messages[0]!.id;
    nowMs = sendAt + 301_000;
    expect(await moveDueBatches(app.ctx)).toBe(1);
    expect(await statusOf([id])).toEqual(['expired']);
    expect((await events(id, key)).at(-1)).toMatchObject({ fromStatus: 'accepted', toStatus: 'expired', code: 'expired' });
  });
});

describe('durability', () => {
  it('survives a restart: another process queues it', async () => {
    const { key } = await orgWithPhone();
    const sendAt = nowMs + HOUR;
    const id = (await schedule(key, sendAt)).messages[0]!.id;
    const restarted = await startTestApp({ redisPrefix: app.ctx.config.redisPrefix }, undefined, clock);
    try {
      nowMs = sendAt;
      expect(await moveDueBatches(restarted.ctx)).toBeGreaterThanOrEqual(1);
      expect(await statusOf([id])).toEqual(['queued']);
    } finally {
      await restarted.close();
    }
  });

  it('survives a Redis flush: the schedule is rebuilt from Postgres, one member per batch', async () => {
    const { key } = await orgWithPhone();
    const sendAt = nowMs + 2 * HOUR;
    const sent = await schedule(key, sendAt, {}, numbers(3));
    await rebuildScheduleIfLost(app.ctx); // marks the schedule whole
    await flushPrefix(app.ctx);
    expect(await app.ctx.redis.zscore(app.ctx.keys.schedule().due, sent.batchId)).toBeNull();
    expect(await rebuildScheduleIfLost(app.ctx)).toBeGreaterThanOrEqual(1);
    expect(Number(await app.ctx.redis.zscore(app.ctx.keys.schedule().due, sent.batchId))).toBe(sendAt);
    expect(await rebuildScheduleIfLost(app.ctx)).toBe(0);
    nowMs = sendAt;
    await moveDueBatches(app.ctx);
    expect(await statusOf(sent.messages.map((m) => m.id))).toEqual(['queued', 'queued', 'queued']);
  });

  it('a batch the schedule lost without losing its marker is put back once overdue', async () => {
    const { key } = await orgWithPhone();
    const sendAt = nowMs + HOUR;
    const sent = await schedule(key, sendAt);
    await app.ctx.redis.zrem(app.ctx.keys.schedule().due, sent.batchId);
    nowMs = sendAt + OVERDUE_MS - 1_000;
    expect(await scheduleOverdue(app.ctx)).toBe(0);
    nowMs = sendAt + OVERDUE_MS + 1_000;
    expect(await scheduleOverdue(app.ctx)).toBeGreaterThanOrEqual(1);
    await moveDueBatches(app.ctx);
    expect(await statusOf([sent.messages[0]!.id])).toEqual(['queued']);
  });

  it('a batch committed by a process that died before scheduling it is scheduled by the reconciler', async () => {
    const { orgId } = await orgWithPhone();
    const sendAt = nowMs + HOUR;
    const step = await admitAndCommit(app.ctx, orgId, { to: '+261341234567', body: 'x', sendAt: new Date(sendAt).toISOString() });
    if (step.kind !== 'committed') throw new Error('expected a commit');
    const { batchId } = step.batch.fields;
    expect(await app.ctx.redis.zscore(app.ctx.keys.schedule().due, batchId)).toBeNull();
    await app.ctx.dispatch.reconcileBatches();
    expect(Number(await app.ctx.redis.zscore(app.ctx.keys.schedule().due, batchId))).toBe(sendAt);
    nowMs = sendAt;
    await moveDueBatches(app.ctx);
    expect(await statusOf([step.batch.recipients[0]!.id])).toEqual(['queued']);
  });

  it('a batch whose mover died mid-move is taken again when its lease ends, and what it had queued is dispatched', async () => {
    const { orgId, key } = await orgWithPhone();
    const sendAt = nowMs + HOUR;
    const sent = await schedule(key, sendAt, {}, numbers(2));
    const [a, b] = sent.messages.map((m) => m.id) as [string, string];
    nowMs = sendAt;
    // The dead mover took the batch and moved one message in Postgres, then nothing more.
    const taken = await takeDueBatches(app.ctx.redis, app.ctx.keys.schedule(), { now: nowMs, max: 100, leaseUntil: nowMs + 60_000 });
    expect(taken.map((t) => t.batchId)).toContain(sent.batchId);
    await app.ctx.db.query(`UPDATE messages SET status = 'queued' WHERE id = $1`, [a]);
    expect(await moveDueBatches(app.ctx)).toBe(0); // leased: nobody else moves it
    nowMs = sendAt + 60_000;
    expect(await moveDueBatches(app.ctx)).toBeGreaterThanOrEqual(1);
    expect(await statusOf([a, b])).toEqual(['queued', 'queued']);
    expect(await queueScore(orgId, a)).not.toBeNull();
    expect(await queueScore(orgId, b)).not.toBeNull();
  });

  it('two movers racing move each batch once', async () => {
    const { key } = await orgWithPhone(100_000);
    const sendAt = nowMs + HOUR;
    const sends = await Promise.all(Array.from({ length: 30 }, (_, i) => schedule(key, sendAt, {}, numbers(20, i * 20))));
    const ids = sends.flatMap((s) => s.messages.map((m) => m.id));
    const other = await startTestApp({ redisPrefix: app.ctx.config.redisPrefix }, undefined, clock);
    try {
      nowMs = sendAt;
      const [x, y] = await Promise.all([moveDueBatches(app.ctx), moveDueBatches(other.ctx)]);
      expect(x + y).toBe(600);
    } finally {
      await other.close();
    }
    const moves = await app.ctx.db.query(`SELECT message_id, count(*)::int AS n FROM message_events WHERE message_id = ANY($1) AND to_status = 'queued' GROUP BY 1`, [ids]);
    expect(moves.rows).toHaveLength(600);
    expect(moves.rows.every((r) => r.n === 1)).toBe(true);
  });
});

describe('validFor', () => {
  it('shortens the expiry of a message sent now: the expiry sweep expires it once past', async () => {
    const { key } = await orgWithPhone();
    // Sent 61 s ago by the process's clock, valid for 60 s: past its expiry by Postgres's clock.
    nowMs = Date.now() - 61_000;
    const res = await app.request('POST', '/v1/messages', { key, body: { to: '+261341234567', body: 'Your code: 4821', validFor: 60 } });
    expect(res.status).toBe(202);
    const m = res.body.messages[0];
    expect([m.status, m.sendAt]).toEqual(['queued', null]);
    expect(Date.parse(m.expiresAt) - Date.parse(m.createdAt)).toBe(60_000);
    expect(await expireQueued(app.ctx)).toBeGreaterThanOrEqual(1);
    expect(await statusOf([m.id])).toEqual(['expired']);
  });

  it('counts from the sendAt of a scheduled send', async () => {
    const { key } = await orgWithPhone();
    const sendAt = nowMs + HOUR;
    const m = (await schedule(key, sendAt, { validFor: 600 })).messages[0]!;
    expect(m.expiresAt).toBe(new Date(sendAt + 600_000).toISOString());
  });
});

describe('validation', () => {
  it('refuses a bad sendAt or validFor with a 400 naming the field, and writes nothing', async () => {
    const { orgId, key } = await orgWithPhone();
    const post = (extra: Record<string, unknown>) => app.request('POST', '/v1/messages', { key, body: { to: '+261341234567', body: 'x', ...extra } });
    expectError(await post({ sendAt: 'tomorrow' }), 400, 'invalid_request', /sendAt/);
    expectError(await post({ sendAt: '2031-01-01T08:00:00' }), 400, 'invalid_request', /sendAt/); // no time zone
    expectError(await post({ sendAt: new Date(nowMs + 31 * 86_400_000).toISOString() }), 400, 'invalid_request', /sendAt.*30 days/);
    expectError(await post({ validFor: 59 }), 400, 'invalid_request', /validFor/);
    expectError(await post({ validFor: 86_401 }), 400, 'invalid_request', /validFor/);
    expectError(await post({ validFor: 90.5 }), 400, 'invalid_request', /validFor/);
    expect((await app.ctx.db.query('SELECT count(*)::int AS n FROM messages WHERE org_id = $1', [orgId])).rows[0].n).toBe(0);
    expect(await post({ sendAt: new Date(nowMs + 29 * 86_400_000).toISOString() })).toMatchObject({ status: 202 });
  });

  it('takes a sendAt in the past or within two seconds as now', async () => {
    const { orgId, key } = await orgWithPhone();
    for (const sendAt of [nowMs - HOUR, nowMs + 1_500]) {
      const res = await app.request('POST', '/v1/messages', { key, body: { to: '+261341234567', body: 'x', sendAt: new Date(sendAt).toISOString() } });
      const m = res.body.messages[0];
      expect([m.status, m.sendAt]).toEqual(['queued', null]);
      expect(await queueScore(orgId, m.id)).not.toBeNull();
    }
  });
});

describe('idempotency and the daily limit', () => {
  it('replays a scheduled send as it was answered, and refuses the same key with another sendAt or validFor', async () => {
    const { key } = await orgWithPhone();
    const sendAt = new Date(nowMs + HOUR).toISOString();
    const post = (extra: Record<string, unknown>) => app.request('POST', '/v1/messages', { key, headers: { 'idempotency-key': 'plan-1' }, body: { to: '+261341234567', body: 'x', sendAt, ...extra } });
    const first = await post({});
    const again = await post({});
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.body.messages[0]).toMatchObject({ status: 'accepted', sendAt });
    expectError(await post({ sendAt: new Date(nowMs + 2 * HOUR).toISOString() }), 409, 'conflict');
    expectError(await post({ validFor: 600 }), 409, 'conflict');
  });

  it('counts against the daily limit of the day it is accepted, not of the day it is sent', async () => {
    const dayStart = Date.UTC(2031, 4, 10);
    nowMs = dayStart + 22 * HOUR;
    const { key } = await orgWithPhone(3);
    await schedule(key, dayStart + 34 * HOUR, {}, numbers(2)); // tomorrow 10:00
    expectError(await app.request('POST', '/v1/messages', { key, body: { to: numbers(2, 10), body: 'x' } }), 429, 'rate_limited');
    nowMs = dayStart + 34 * HOUR;
    await moveDueBatches(app.ctx);
    const tomorrow = await app.request('POST', '/v1/messages', { key, body: { to: numbers(3, 20), body: 'x' } });
    expect(tomorrow.status).toBe(202);
  });
});
