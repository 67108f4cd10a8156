import { afterAll, describe, expect, it } from 'vitest';
import { takeDueBatches } from '../../src/redis/scripts/take-due-batches.js';
import { testRedis } from './redis.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

const keysOf = (suffix: string) => ({ due: key(`due${suffix}`), moving: key(`moving${suffix}`) });

describe('lua/takeDueBatches', () => {
  it('hands out only batches due by now, oldest first, at most max, each under a lease', async () => {
    const k = keysOf('a');
    await redis.zadd(k.due, 1_000, 'b1', 2_000, 'b2', 3_000, 'b3', 9_000, 'later');
    const taken = await takeDueBatches(redis, k, { now: 3_000, max: 2, leaseUntil: 63_000 });
    expect(taken).toEqual([
      { batchId: 'b1', sendAtMs: 1_000, member: 'b1:1000', recovered: false },
      { batchId: 'b2', sendAtMs: 2_000, member: 'b2:2000', recovered: false },
    ]);
    expect(await redis.zrange(k.due, '0', '-1')).toEqual(['b3', 'later']);
    expect(await redis.zrange(k.moving, '0', '-1', 'WITHSCORES')).toEqual(['b1:1000', '63000', 'b2:2000', '63000']);
    expect((await takeDueBatches(redis, k, { now: 3_000, max: 5, leaseUntil: 63_000 })).map((t) => t.batchId)).toEqual(['b3']);
    expect(await takeDueBatches(redis, k, { now: 3_000, max: 5, leaseUntil: 63_000 })).toEqual([]);
  });

  it('never hands one batch to two movers', async () => {
    const k = keysOf('b');
    for (let i = 0; i < 100; i++) await redis.zadd(k.due, i, `b${i}`);
    const takes = await Promise.all(Array.from({ length: 10 }, () => takeDueBatches(redis, k, { now: 1_000, max: 15, leaseUntil: 61_000 })));
    const ids = takes.flat().map((t) => t.batchId);
    expect(ids).toHaveLength(100);
    expect(new Set(ids).size).toBe(100);
  });

  it('hands out again, first and flagged, a batch whose lease ran out; not one whose lease runs', async () => {
    const k = keysOf('c');
    await redis.zadd(k.due, 1_000, 'b1', 1_500, 'b2');
    await takeDueBatches(redis, k, { now: 2_000, max: 1, leaseUntil: 10_000 });
    expect(await takeDueBatches(redis, k, { now: 9_999, max: 5, leaseUntil: 20_000 })).toEqual([{ batchId: 'b2', sendAtMs: 1_500, member: 'b2:1500', recovered: false }]);
    const again = await takeDueBatches(redis, k, { now: 10_000, max: 5, leaseUntil: 70_000 });
    expect(again).toEqual([{ batchId: 'b1', sendAtMs: 1_000, member: 'b1:1000', recovered: true }]);
    expect(await redis.zscore(k.moving, 'b1:1000')).toBe('70000');
  });

  it('keeps a real sendAt in ms exactly', async () => {
    const k = keysOf('d');
    const sendAt = Date.UTC(2031, 0, 1, 8, 0, 0, 123);
    await redis.zadd(k.due, sendAt, 'batch_x');
    expect((await takeDueBatches(redis, k, { now: sendAt, max: 1, leaseUntil: sendAt + 60_000 }))[0]!.sendAtMs).toBe(sendAt);
  });
});
