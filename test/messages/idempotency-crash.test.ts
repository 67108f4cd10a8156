import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { startTestApp, type TestApp, type TestResponse } from '../support/harness.js';
import { insertTestDevice } from '../support/devices.js';
import { eventually } from '../support/phones.js';
import { startApiProcess } from '../support/api-process.js';
import { countRows, expectError } from '../api/expect-error.js';
import { admitAndCommit } from '../../src/sending/send-messages.js';
import { recountSeededCounters, settleStaleReservations } from '../../src/sending/reservations.js';
import { admitSend, SEND_TIMING } from '../../src/sending/admission.js';
import { utcDay } from '../../src/redis/keys.js';
import { newId } from '../../src/ids/ids.js';
import { keysOfPrefix } from '../support/redis.js';

/**
 * A send request dies with its process between its admission and its end. A retry with its
 * idempotency key is answered within seconds: with the batch it committed, or accepted once when
 * nothing committed. The day's counter equals the messages once the worker settled the dead
 * request's reservation.
 */
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** A retry after a crash must be answered within this (the takeover bound is 5 s; generous for a busy machine). */
const WITHIN_MS = 20_000;

const newKey = () => `crash-${randomBytes(8).toString('hex')}`;
const sendBody = (n = 3) => ({ to: Array.from({ length: n }, (_, i) => `+2613411${String(i).padStart(5, '0')}`), body: 'Salama' });

async function orgWithPhone(dailyLimit = 1000) {
  const made = await app.createOrg({ dailyLimit });
  await insertTestDevice(app.ctx, made.org.id);
  return { orgId: made.org.id, key: made.key };
}

const send = (key: string, idem: string, body: unknown) => app.request('POST', '/v1/messages', { key, body, headers: { 'idempotency-key': idem } });

/** A client retrying every 250 ms, `parallel` requests at a time, until accepted; 409 `conflict` meanwhile. */
async function retryUntilAccepted(key: string, idem: string, body: unknown, parallel = 1): Promise<{ accepted: TestResponse[]; waitedMs: number }> {
  const t0 = Date.now();
  for (;;) {
    const round = await Promise.all(Array.from({ length: parallel }, () => send(key, idem, body)));
    const accepted = round.filter((r) => r.status === 202);
    for (const r of round.filter((x) => x.status !== 202)) expectError(r, 409, 'conflict', /still being processed/);
    if (accepted.length > 0) return { accepted, waitedMs: Date.now() - t0 };
    if (Date.now() - t0 > WITHIN_MS) throw new Error(`key ${idem} still refused after ${WITHIN_MS} ms`);
    await delay(250);
  }
}

const dailyCount = async (orgId: string) => Number(await app.ctx.redis.get(app.ctx.keys.org(orgId).dailyCount(utcDay())));

/** What the worker does once the dead requests' lease has passed (60 s), run now. */
const settleAfterLease = () => settleStaleReservations(app.ctx, Date.now() + SEND_TIMING.reservationLeaseMs + 1000);

async function batchesOfKey(orgId: string, idem: string): Promise<{ id: string; messages: number }[]> {
  const { rows } = await app.ctx.db.query(
    `SELECT b.id, count(m.id)::int AS messages FROM batches b LEFT JOIN messages m ON m.batch_id = b.id
     WHERE b.org_id = $1 AND b.idempotency_key = $2 GROUP BY b.id`,
    [orgId, idem],
  );
  return rows;
}

/**
 * Holds each key's entry in the batches' unique (org, key) index from an open transaction, so
 * that sends with these keys are admitted and then wait at their batch insert; rolled back after.
 */
async function holdingBatchInserts<T>(orgId: string, keys: string[], during: () => Promise<T>): Promise<T> {
  const blocker = await app.ctx.db.connect();
  try {
    await blocker.query('BEGIN');
    for (const k of keys) {
      await blocker.query(`INSERT INTO batches (id, org_id, idempotency_key, request_hash, message_count) VALUES ($1, $2, $3, 'blocker', 0)`, [newId('batch'), orgId, k]);
    }
    return await during();
  } finally {
    await blocker.query('ROLLBACK');
    blocker.release();
  }
}

const ids = (r: TestResponse) => (r.body.messages as { id: string }[]).map((m) => m.id);

describe('idempotency keys of requests that died', () => {
  it('answers a retry with the batch a dead request committed, within seconds, counting it once', async () => {
    const { orgId, key } = await orgWithPhone();
    const idem = newKey();
    const body = sendBody(3);
    // The process dies right after the commit: its key is never recorded as done.
    const step = await admitAndCommit(app.ctx, orgId, body, idem);
    if (step.kind !== 'committed') throw new Error('expected a commit');

    const {
      accepted: [res],
      waitedMs,
    } = await retryUntilAccepted(key, idem, body);
    expect(waitedMs).toBeLessThan(WITHIN_MS);
    expect(res!.body.batchId).toBe(step.batch.fields.batchId);
    expect(ids(res!)).toEqual(step.batch.messages.map((m) => m.id));
    expect(await batchesOfKey(orgId, idem)).toEqual([{ id: step.batch.fields.batchId, messages: 3 }]);
    expect(await dailyCount(orgId)).toBe(3);
    await settleAfterLease();
    expect(await dailyCount(orgId)).toBe(await countRows(app, 'messages', orgId));
    expect(await dailyCount(orgId)).toBe(3);
    expect((await send(key, idem, body)).body.batchId).toBe(step.batch.fields.batchId);
  }, 60_000);

  it('accepts once the retries of requests killed (kill -9) before their batch committed, and refunds their count', async () => {
    // Their 12 messages fill the day: the dead requests' count must not refuse their own retries.
    const { orgId, key } = await orgWithPhone(12);
    const keys = Array.from({ length: 4 }, newKey);
    const body = sendBody(3);
    const other = await startApiProcess(app);
    const outcomes = await holdingBatchInserts(orgId, keys, async () => {
      const inFlight = keys.map((k) =>
        fetch(`${other.url}/v1/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': k },
          body: JSON.stringify(body),
        }).then(
          (r) => r.status,
          () => 'no answer',
        ),
      );
      const markers = keys.map((k) => app.ctx.keys.org(orgId).idempotency(k));
      await eventually(async () => (await Promise.all(markers.map((m) => app.ctx.redis.hget(m, 's')))).every((s) => s === 'pending'), 20_000, 'every send admitted');
      await other.crash();
      return Promise.all(inFlight);
    }).finally(() => other.stop());
    expect(outcomes).toEqual(keys.map(() => 'no answer'));
    expect(await countRows(app, 'messages', orgId)).toBe(0);
    expect(await dailyCount(orgId)).toBe(12); // counted by the dead process, sent nothing

    // Each key retried by four clients at once: one takes the key over, the others wait.
    const results = await Promise.all(keys.map((k) => retryUntilAccepted(key, k, body, 4)));
    for (const [i, { accepted, waitedMs }] of results.entries()) {
      expect(waitedMs).toBeLessThan(WITHIN_MS);
      expect(new Set(accepted.map((r) => r.body.batchId)).size).toBe(1);
      expect(await batchesOfKey(orgId, keys[i]!)).toEqual([{ id: accepted[0]!.body.batchId, messages: 3 }]);
      expect((await send(key, keys[i]!, body)).body.batchId).toBe(accepted[0]!.body.batchId);
    }
    expect(await countRows(app, 'messages', orgId)).toBe(12);
    await settleAfterLease();
    expect(await dailyCount(orgId)).toBe(12);
  }, 90_000);

  it('does not double a request that is slow but alive when a retry takes its key over', async () => {
    const { orgId, key } = await orgWithPhone();
    const idem = newKey();
    const body = sendBody(3);
    const marker = app.ctx.keys.org(orgId).idempotency(idem);
    const [first, retry] = await holdingBatchInserts(orgId, [idem], async () => {
      const slow = send(key, idem, body);
      const held = await eventually(async () => (await app.ctx.redis.hget(marker, 'b')) ?? undefined, 10_000, 'the first request admitted');
      const admittedAt = Number(await app.ctx.redis.hget(marker, 't'));
      // Alive, but past the takeover bound without committing.
      await delay(admittedAt + SEND_TIMING.takeoverAfterMs + 100 - Date.now());
      const late = send(key, idem, body);
      await eventually(async () => (await app.ctx.redis.hget(marker, 'b')) !== held, 10_000, 'the retry took the key over');
      return [slow, late] as const;
    });
    const [a, b] = await Promise.all([first, retry]);
    expect([a.status, b.status], JSON.stringify([a.body, b.body]).slice(0, 400)).toEqual([202, 202]);
    expect(b.body.batchId).toBe(a.body.batchId);
    expect(ids(b)).toEqual(ids(a));
    expect(await batchesOfKey(orgId, idem)).toEqual([{ id: a.body.batchId, messages: 3 }]);
    // Both requests lived to release or complete: right without the worker.
    expect(await dailyCount(orgId)).toBe(3);
    expect(await app.ctx.redis.zcard(app.ctx.keys.org(orgId).sendReservations())).toBe(0);
  }, 60_000);

  it('answers the retry of a committed request with its batch even when the day is full', async () => {
    const { orgId, key } = await orgWithPhone(3);
    const idem = newKey();
    const body = sendBody(3);
    const step = await admitAndCommit(app.ctx, orgId, body, idem);
    if (step.kind !== 'committed') throw new Error('expected a commit');
    const {
      accepted: [res],
    } = await retryUntilAccepted(key, idem, body);
    expect(res!.body.batchId).toBe(step.batch.fields.batchId);
    expect(await dailyCount(orgId)).toBe(3);
  }, 60_000);

  it('after Redis lost everything, replays committed keys at once and recounts the day from Postgres', async () => {
    const { orgId, key } = await orgWithPhone();
    const [done, dead] = [newKey(), newKey()];
    const first = await send(key, done, sendBody(2));
    expect(first.status).toBe(202);
    const step = await admitAndCommit(app.ctx, orgId, sendBody(3), dead);
    if (step.kind !== 'committed') throw new Error('expected a commit');
    // FLUSHALL, limited to this app's keys (the test files share one Redis).
    const lost = await keysOfPrefix(app.ctx.redis, app.ctx.config.redisPrefix);
    await app.ctx.redis.del(...lost);

    const [a, b] = await Promise.all([send(key, done, sendBody(2)), send(key, dead, sendBody(3))]);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(ids(a)).toEqual(ids(first));
    expect(ids(b)).toEqual(step.batch.messages.map((m) => m.id));
    expect(await dailyCount(orgId)).toBe(5);
    await settleAfterLease();
    expect(await dailyCount(orgId)).toBe(5);
  }, 60_000);
  it('counts again a send that was in flight when Redis lost its data and committed after the counter was seeded', async () => {
    const { orgId, key } = await orgWithPhone();
    const idem = newKey();
    const marker = app.ctx.keys.org(orgId).idempotency(idem);
    const [inFlight] = await holdingBatchInserts(orgId, [idem], async () => {
      const pending = send(key, idem, sendBody(3));
      await eventually(async () => (await app.ctx.redis.hget(marker, 's')) === 'pending', 10_000, 'the send admitted');
      // FLUSHALL, limited to this app's keys (the test files share one Redis).
      const lost = await keysOfPrefix(app.ctx.redis, app.ctx.config.redisPrefix);
      await app.ctx.redis.del(...lost);
      // The next send seeds the counter from Postgres, where the send in flight is not yet.
      expect((await send(key, newKey(), sendBody(2))).status).toBe(202);
      return [pending] as const;
    });
    expect((await inFlight).status).toBe(202);
    expect(await dailyCount(orgId)).toBe(2);
    expect(await recountSeededCounters(app.ctx)).toBe(0); // not due: sends admitted before the loss may still commit
    expect(await recountSeededCounters(app.ctx, Date.now() + SEND_TIMING.recountAfterSeedMs + 1000)).toBeGreaterThanOrEqual(1);
    expect(await dailyCount(orgId)).toBe(5);
    // Counted once: a second pass finds nothing due.
    expect(await recountSeededCounters(app.ctx, Date.now() + SEND_TIMING.recountAfterSeedMs + 1000)).toBe(0);
  }, 60_000);
});

describe('settling the counts of requests that died', () => {
  const reserve = async (orgId: string, count: number) => {
    const batchId = newId('batch');
    const admission = await admitSend(app.ctx, { orgId, dailyLimit: 1000, requestHash: 'h', count, batchId });
    if (admission.kind !== 'admitted') throw new Error('expected an admission');
    return { batchId, admission };
  };

  it('refunds only reservations past the lease whose batch did not commit, once across workers', async () => {
    const { orgId, key } = await orgWithPhone();
    await reserve(orgId, 2); // died before committing
    const committed = await admitAndCommit(app.ctx, orgId, sendBody(3)); // died after committing
    expect(committed.kind).toBe('committed');
    expect(await dailyCount(orgId)).toBe(5);

    // A request alive now is not a dead one: nothing is settled before the lease.
    await settleStaleReservations(app.ctx);
    expect(await dailyCount(orgId)).toBe(5);

    const refunded = await Promise.all([settleAfterLease(), settleAfterLease()]);
    expect(refunded.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await dailyCount(orgId)).toBe(3);
    expect(await dailyCount(orgId)).toBe(await countRows(app, 'messages', orgId));
    expect(await app.ctx.redis.zcard(app.ctx.keys.org(orgId).sendReservations())).toBe(0);
    expect((await app.request('POST', '/v1/messages', { key, body: sendBody(1) })).status).toBe(202);
    expect(await dailyCount(orgId)).toBe(4);
  });

  it('rolls back a send that reaches its commit past the deadline, so a settled reservation never gets a late batch', async () => {
    const { orgId } = await orgWithPhone();
    const idem = newKey();
    const marker = app.ctx.keys.org(orgId).idempotency(idem);
    const realNow = Date.now.bind(Date);
    try {
      const [late] = await holdingBatchInserts(orgId, [idem], async () => {
        const pending = admitAndCommit(app.ctx, orgId, sendBody(2), idem).then(
          () => 'committed',
          (err: Error) => err.message,
        );
        await eventually(async () => (await app.ctx.redis.hget(marker, 's')) === 'pending', 10_000, 'the send admitted');
        // The send is stuck at its batch insert; its clock moves past the deadline meanwhile.
        vi.spyOn(Date, 'now').mockImplementation(() => realNow() + SEND_TIMING.commitDeadlineMs + 1000);
        return [pending] as const; // not awaited here: it ends only once the insert is let go
      });
      expect(await late).toMatch(/after admission; rolled back/);
    } finally {
      vi.restoreAllMocks();
    }
    expect(await batchesOfKey(orgId, idem)).toEqual([]);
    expect(await dailyCount(orgId)).toBe(0); // released by the request itself
    expect(await app.ctx.redis.exists(marker)).toBe(0);
  });
});
