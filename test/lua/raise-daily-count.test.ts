import { afterAll, describe, expect, it } from 'vitest';
import { raiseDailyCount } from '../../src/redis/scripts/raise-daily-count.js';
import { testRedis } from './redis.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

const raise = (counter: string, floor: number) => raiseDailyCount(redis, { dailyCount: counter }, { floor });

describe('raiseDailyCount', () => {
  it('raises a counter below the floor and keeps its expiry', async () => {
    const counter = key('daily-low');
    await redis.set(counter, 2, 'EX', 1000);
    expect(await raise(counter, 5)).toBe(5);
    expect(await redis.get(counter)).toBe('5');
    expect(await redis.ttl(counter)).toBeGreaterThan(900);
  });

  it('never lowers a counter above the floor (sends admitted since count there)', async () => {
    const counter = key('daily-high');
    await redis.set(counter, 9);
    expect(await raise(counter, 5)).toBe(9);
    expect(await redis.get(counter)).toBe('9');
  });

  it('answers null and creates no counter: a missing one is seeded by the next send', async () => {
    const counter = key('daily-missing');
    expect(await raise(counter, 5)).toBeNull();
    expect(await redis.exists(counter)).toBe(0);
  });
});
