import { afterAll, describe, expect, it } from 'vitest';
import { swapResting } from '../../src/redis/scripts/swap-resting.js';
import { testRedis } from './redis.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

const prefix = key('dev:');

/** Sets each listed phone's resting field, in order, through the script. */
const swap = (...writes: [deviceId: string, resting: boolean][]) => swapResting(redis, { deviceStatePrefix: prefix }, { writes: writes.map(([deviceId, resting]) => ({ deviceId, resting })) });

describe('swapResting', () => {
  it("sets each phone's resting field and answers what it was: null for a phone Redis has no state of", async () => {
    await redis.hset(`${prefix}dev_a`, 'resting', '1', 'pace', '30');
    expect(await swap(['dev_a', false], ['dev_b', true])).toEqual(['1', null]);
    expect(await redis.hgetall(`${prefix}dev_a`)).toEqual({ resting: '0', pace: '30' });
    expect(await redis.hget(`${prefix}dev_b`, 'resting')).toBe('1');
  });

  it('applies a phone listed twice in order: the second sees the first', async () => {
    expect(await swap(['dev_c', true], ['dev_c', false])).toEqual([null, '1']);
    expect(await redis.hget(`${prefix}dev_c`, 'resting')).toBe('0');
  });

  it('answers nothing for no phones', async () => {
    expect(await swap()).toEqual([]);
  });
});
