import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { admitSend } from '../../src/redis/scripts/admit-send.js';
import { releaseSend } from '../../src/redis/scripts/release-send.js';
import { testRedis } from './redis.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

let n = 0;
let idem: string;
let daily: string;
let ledger: string;
beforeEach(async () => {
  n++;
  idem = key(`idem${n}`);
  daily = key(`daily${n}`);
  ledger = key(`reserved${n}`);
  await redis.set(daily, 0);
});

const TAKEOVER_MS = 5000;
let batches = 0;

const admit = (o: { useKey?: boolean; hash?: string; count: number; limit: number; now?: number; batchId?: string }) =>
  admitSend(
    redis,
    { idempotency: idem, dailyCount: daily, reservations: ledger },
    {
      ...(o.useKey ? { idempotencyKey: 'k' } : {}),
      requestHash: o.hash ?? 'h1',
      count: o.count,
      dailyLimit: o.limit,
      pendingTtlSeconds: 120,
      now: o.now ?? Date.now(),
      takeoverAfterMs: TAKEOVER_MS,
      batchId: o.batchId ?? `bat_${++batches}`,
    },
  );

/** Releases a keyed request's reservation. */
const release = (batchId: string, count: number, mode: 'refund' | 'drop' | 'keep' = 'refund') =>
  releaseSend(redis, { idempotency: idem, dailyCount: daily, reservations: ledger }, { reservation: `${batchId}:${count}:k`, count, batchId, mode });

const admitted = (countToday: number) => ({ kind: 'admitted', takeover: 'none', countToday });
const takenOver = (countToday: number, takeover: 'countedAnew' | 'inherited') => ({ kind: 'admitted', takeover, countToday });
const limitReached = (countToday: number) => ({ kind: 'dailyLimitReached', countToday });

describe('lua/admitSend', () => {
  it('admits up to the limit exactly, then refuses without counting', async () => {
    expect(await admit({ count: 60, limit: 100 })).toEqual(admitted(60));
    expect(await admit({ count: 40, limit: 100 })).toEqual(admitted(100));
    expect(await admit({ count: 1, limit: 100 })).toEqual(limitReached(100));
    expect(await redis.get(daily)).toBe('100');
  });

  it('refuses a request that would cross the limit even when part of it would fit', async () => {
    await admit({ count: 98, limit: 100 });
    expect(await admit({ count: 3, limit: 100 })).toEqual(limitReached(98));
    expect(await admit({ count: 2, limit: 100 })).toEqual(admitted(100));
  });

  it('asks for a seed when the counter is missing, and writes nothing', async () => {
    await redis.del(daily);
    expect(await admit({ useKey: true, count: 1, limit: 10 })).toEqual({ kind: 'counterMissing' });
    expect(await redis.exists(daily, idem)).toBe(0);
  });

  it('marks a new idempotency key pending with its request hash, admission time, batch and a TTL', async () => {
    expect(await admit({ useKey: true, hash: 'abc', count: 2, limit: 10, now: 1000, batchId: 'bat_a' })).toEqual(admitted(2));
    expect(await redis.hgetall(idem)).toEqual({ h: 'abc', s: 'pending', t: '1000', b: 'bat_a' });
    const ttl = await redis.ttl(idem);
    expect(ttl).toBeGreaterThan(100);
    expect(ttl).toBeLessThanOrEqual(120);
  });

  it('answers still in flight for the same key and hash while pending, without counting', async () => {
    await admit({ useKey: true, count: 2, limit: 10 });
    expect(await admit({ useKey: true, count: 2, limit: 10 })).toEqual({ kind: 'stillInFlight' });
    expect(await redis.get(daily)).toBe('2');
  });

  it('replays the stored response once done, without counting', async () => {
    await admit({ useKey: true, count: 2, limit: 10 });
    await redis.hset(idem, 's', 'done', 'r', '{"batchId":"bat_1"}');
    expect(await admit({ useKey: true, count: 2, limit: 10 })).toEqual({ kind: 'replay', responseJson: '{"batchId":"bat_1"}' });
    expect(await redis.get(daily)).toBe('2');
  });

  it('refuses the same key with another request hash, pending or done', async () => {
    await admit({ useKey: true, hash: 'h1', count: 1, limit: 10 });
    expect(await admit({ useKey: true, hash: 'h2', count: 1, limit: 10 })).toEqual({ kind: 'requestMismatch' });
    await redis.hset(idem, 's', 'done', 'r', '{}');
    expect(await admit({ useKey: true, hash: 'h2', count: 1, limit: 10 })).toEqual({ kind: 'requestMismatch' });
    expect(await redis.get(daily)).toBe('1');
  });

  it('replays a done key even when the day is full', async () => {
    await admit({ useKey: true, count: 10, limit: 10 });
    await redis.hset(idem, 's', 'done', 'r', 'stored');
    expect(await admit({ useKey: true, count: 10, limit: 10 })).toEqual({ kind: 'replay', responseJson: 'stored' });
  });

  it('does not reserve the key of a request refused by the limit', async () => {
    await redis.set(daily, 10);
    expect(await admit({ useKey: true, count: 1, limit: 10 })).toEqual(limitReached(10));
    expect(await redis.exists(idem)).toBe(0);
  });

  it('ignores the idempotency record when the request has no key', async () => {
    await redis.hset(idem, 'h', 'other', 's', 'done', 'r', 'x');
    expect(await admit({ useKey: false, hash: 'h1', count: 1, limit: 10 })).toEqual(admitted(1));
  });

  it('records each admission as a reservation scored by its admission time, keyed or not', async () => {
    await admit({ useKey: true, count: 2, limit: 10, now: 1000, batchId: 'bat_a' });
    await admit({ useKey: false, count: 3, limit: 10, now: 2000, batchId: 'bat_b' });
    expect(await redis.zrange(ledger, '0', '-1', 'WITHSCORES')).toEqual(['bat_a:2:k', '1000', 'bat_b:3', '2000']);
  });

  it('takes over a key pending for longer than the takeover bound, inheriting its reservation', async () => {
    const t0 = 1_000_000;
    await admit({ useKey: true, count: 2, limit: 10, now: t0, batchId: 'bat_dead' });
    expect(await admit({ useKey: true, count: 2, limit: 10, now: t0 + TAKEOVER_MS - 1, batchId: 'bat_early' })).toEqual({ kind: 'stillInFlight' });
    expect(await admit({ useKey: true, count: 2, limit: 10, now: t0 + TAKEOVER_MS, batchId: 'bat_retry' })).toEqual(takenOver(2, 'inherited'));
    expect(await redis.hgetall(idem)).toMatchObject({ s: 'pending', t: String(t0 + TAKEOVER_MS), b: 'bat_retry' });
    expect(await redis.zrange(ledger, '0', '-1', 'WITHSCORES')).toEqual(['bat_retry:2:k', String(t0 + TAKEOVER_MS)]);
    expect(await redis.get(daily)).toBe('2');
  });

  it('admits the takeover on a full day: the dead request held the room', async () => {
    const t0 = 1_000_000;
    await admit({ useKey: true, count: 4, limit: 10, now: t0, batchId: 'bat_dead' });
    await redis.incrby(daily, 6);
    expect(await admit({ useKey: true, count: 4, limit: 10, now: t0 + TAKEOVER_MS, batchId: 'bat_retry' })).toEqual(takenOver(10, 'inherited'));
  });

  it('counts the retry anew when the taken-over reservation was settled already', async () => {
    const t0 = 1_000_000;
    await admit({ useKey: true, count: 4, limit: 10, now: t0, batchId: 'bat_dead' });
    await redis.zrem(ledger, 'bat_dead:4:k'); // the worker found its batch committed: the 4 stand
    expect(await admit({ useKey: true, count: 4, limit: 10, now: t0 + TAKEOVER_MS, batchId: 'bat_retry' })).toEqual(takenOver(8, 'countedAnew'));
    await redis.zrem(ledger, 'bat_retry:4:k');
    await redis.hset(idem, 't', t0);
    expect(await admit({ useKey: true, count: 4, limit: 10, now: t0 + TAKEOVER_MS, batchId: 'bat_full' })).toEqual(limitReached(8));
  });

  it('lets one of many concurrent retries take a stale key over; the others are told it is in flight', async () => {
    const now = Date.now();
    await admit({ useKey: true, count: 1, limit: 100, now: now - 60_000 });
    const results = await Promise.all(Array.from({ length: 20 }, () => admit({ useKey: true, count: 1, limit: 100, now })));
    expect(results.filter((r) => r.kind === 'admitted' && r.takeover === 'inherited')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'stillInFlight')).toHaveLength(19);
  });

  it('takes over a pending record written without an admission time (before takeovers existed)', async () => {
    await redis.hset(idem, 'h', 'h1', 's', 'pending');
    expect(await admit({ useKey: true, count: 1, limit: 10 })).toEqual(takenOver(1, 'countedAnew'));
  });

  it('never passes the limit under 50 concurrent admissions', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => admit({ count: 3, limit: 100 })));
    expect(results.filter((r) => r.kind === 'admitted')).toHaveLength(33);
    expect(await redis.get(daily)).toBe('99');
  });
});

describe('lua/releaseSend', () => {
  it('refunds a reservation once and frees the key it holds', async () => {
    await admit({ useKey: true, count: 3, limit: 10, batchId: 'bat_a' });
    expect(await release('bat_a', 3)).toBe(true);
    expect(await release('bat_a', 3)).toBe(false); // the request and the reconciler may both try
    expect(await redis.get(daily)).toBe('0');
    expect(await redis.exists(idem)).toBe(0);
    expect(await redis.zcard(ledger)).toBe(0);
  });

  it('refunds nothing and leaves the key alone for a request whose key a retry took over', async () => {
    const t0 = 1_000_000;
    await admit({ useKey: true, count: 2, limit: 10, now: t0, batchId: 'bat_slow' });
    await admit({ useKey: true, count: 2, limit: 10, now: t0 + TAKEOVER_MS, batchId: 'bat_retry' });
    expect(await release('bat_slow', 2)).toBe(false); // the retry holds the key's count now
    expect(await redis.get(daily)).toBe('2');
    expect(await redis.hget(idem, 'b')).toBe('bat_retry');
  });

  it('drops an inherited reservation without refund when the key has a batch, keeps it when the request failed', async () => {
    await admit({ useKey: true, count: 2, limit: 10, batchId: 'bat_a' });
    expect(await release('bat_a', 2, 'keep')).toBe(false);
    expect(await redis.zrange(ledger, '0', '-1')).toEqual(['bat_a:2:k']); // for the reconciler
    expect(await redis.exists(idem)).toBe(0); // the key is free for a retry
    expect(await release('bat_a', 2, 'drop')).toBe(false);
    expect(await redis.zcard(ledger)).toBe(0);
    expect(await redis.get(daily)).toBe('2');
  });

  it('leaves a done key alone', async () => {
    await admit({ useKey: true, count: 2, limit: 10, batchId: 'bat_a' });
    await redis.hset(idem, 's', 'done', 'r', 'stored');
    await release('bat_a', 2);
    expect(await redis.hget(idem, 'r')).toBe('stored');
  });

  it('refunds nothing after Redis lost the reservation (its counter was recounted without it)', async () => {
    await admit({ useKey: true, count: 2, limit: 10, batchId: 'bat_a' });
    await redis.del(ledger);
    await redis.set(daily, 7);
    expect(await release('bat_a', 2)).toBe(false);
    expect(await redis.get(daily)).toBe('7');
  });

  it('never creates a counter Redis lost (a counter of -2 would never be recounted)', async () => {
    await admit({ useKey: true, count: 2, limit: 10, batchId: 'bat_a' });
    await redis.del(daily);
    expect(await release('bat_a', 2)).toBe(false);
    expect(await redis.exists(daily)).toBe(0);
    expect(await redis.zcard(ledger)).toBe(0);
  });
});
