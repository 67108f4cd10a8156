import { afterAll, describe, expect, it } from 'vitest';
import { revokedPhones } from '../../src/redis/scripts/revoked-phones.js';
import { testRedis } from './redis.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

const prefix = key('dev:');

describe('revokedPhones', () => {
  it("answers each phone's revoked field in order; a phone Redis has no state of is not revoked here", async () => {
    await redis.hset(`${prefix}dev_a`, 'revoked', '1');
    await redis.hset(`${prefix}dev_b`, 'revoked', '0');
    await redis.hset(`${prefix}dev_c`, 'pace', '30');
    expect(await revokedPhones(redis, { deviceStatePrefix: prefix }, { deviceIds: ['dev_b', 'dev_a', 'dev_c', 'dev_none', 'dev_a'] })).toEqual([false, true, false, false, true]);
  });

  it('answers nothing for no phones', async () => {
    expect(await revokedPhones(redis, { deviceStatePrefix: prefix }, { deviceIds: [] })).toEqual([]);
  });
});
