import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { runScript } from '../../src/redis/scripts.js';
import { testRedis } from './redis.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

let n = 0;
let idem: string;
let daily: string;
beforeEach(async () => {
  n++;
  idem = key(`idem${n}`);
  daily = key(`daily${n}`);
  await redis.set(daily, 0);
});

/** admitSend(KEYS idem, daily; ARGV useKey, hash, count, limit, pendingTtl) */
const admit = (o: { useKey?: boolean; hash?: string; count: number; limit: number }) =>
  runScript<[number, string]>(redis, 'admitSend', [idem, daily], [o.useKey ? 1 : 0, o.hash ?? 'h1', o.count, o.limit, 120]);

describe('lua/admitSend', () => {
  it('admits up to the limit exactly, then refuses without counting', async () => {
    expect(await admit({ count: 60, limit: 100 })).toEqual([1, '60']);
    expect(await admit({ count: 40, limit: 100 })).toEqual([1, '100']);
    expect(await admit({ count: 1, limit: 100 })).toEqual([-3, '100']);
    expect(await redis.get(daily)).toBe('100');
  });

  it('refuses a request that would cross the limit even when part of it would fit', async () => {
    await admit({ count: 98, limit: 100 });
    expect(await admit({ count: 3, limit: 100 })).toEqual([-3, '98']);
    expect(await admit({ count: 2, limit: 100 })).toEqual([1, '100']);
  });

  it('asks for a seed when the counter is missing, and writes nothing', async () => {
    await redis.del(daily);
    expect(await admit({ useKey: true, count: 1, limit: 10 })).toEqual([-4, '']);
    expect(await redis.exists(daily, idem)).toBe(0);
  });

  it('marks a new idempotency key pending with its request hash and a TTL', async () => {
    expect(await admit({ useKey: true, hash: 'abc', count: 2, limit: 10 })).toEqual([1, '2']);
    expect(await redis.hgetall(idem)).toEqual({ h: 'abc', s: 'pending' });
    const ttl = await redis.ttl(idem);
    expect(ttl).toBeGreaterThan(100);
    expect(ttl).toBeLessThanOrEqual(120);
  });

  it('answers in-flight (-2) for the same key and hash while pending, without counting', async () => {
    await admit({ useKey: true, count: 2, limit: 10 });
    expect(await admit({ useKey: true, count: 2, limit: 10 })).toEqual([-2, '']);
    expect(await redis.get(daily)).toBe('2');
  });

  it('replays the stored response once done, without counting', async () => {
    await admit({ useKey: true, count: 2, limit: 10 });
    await redis.hset(idem, 's', 'done', 'r', '{"batchId":"bat_1"}');
    expect(await admit({ useKey: true, count: 2, limit: 10 })).toEqual([2, '{"batchId":"bat_1"}']);
    expect(await redis.get(daily)).toBe('2');
  });

  it('refuses the same key with another request hash (-1), pending or done', async () => {
    await admit({ useKey: true, hash: 'h1', count: 1, limit: 10 });
    expect(await admit({ useKey: true, hash: 'h2', count: 1, limit: 10 })).toEqual([-1, '']);
    await redis.hset(idem, 's', 'done', 'r', '{}');
    expect(await admit({ useKey: true, hash: 'h2', count: 1, limit: 10 })).toEqual([-1, '']);
    expect(await redis.get(daily)).toBe('1');
  });

  it('replays a done key even when the day is full', async () => {
    await admit({ useKey: true, count: 10, limit: 10 });
    await redis.hset(idem, 's', 'done', 'r', 'stored');
    expect(await admit({ useKey: true, count: 10, limit: 10 })).toEqual([2, 'stored']);
  });

  it('does not reserve the key of a request refused by the limit', async () => {
    await redis.set(daily, 10);
    expect(await admit({ useKey: true, count: 1, limit: 10 })).toEqual([-3, '10']);
    expect(await redis.exists(idem)).toBe(0);
  });

  it('ignores the idempotency record when the request has no key', async () => {
    await redis.hset(idem, 'h', 'other', 's', 'done', 'r', 'x');
    expect(await admit({ useKey: false, hash: 'h1', count: 1, limit: 10 })).toEqual([1, '1']);
  });

  it('never passes the limit under 50 concurrent admissions', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => admit({ count: 3, limit: 100 })));
    expect(results.filter(([code]) => code === 1)).toHaveLength(33);
    expect(await redis.get(daily)).toBe('99');
  });
});
