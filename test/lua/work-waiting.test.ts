import { afterAll, describe, expect, it } from 'vitest';
import { workWaiting } from '../../src/redis/scripts/work-waiting.js';
import { testRedis } from './redis.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

const ask = (s: string, ...deviceIds: string[]) => workWaiting(redis, { orgQueue: key(`q${s}`), deviceQueuePrefix: key(`q${s}:dev:`) }, { deviceIds });

describe('workWaiting', () => {
  it('answers false for every phone when neither the organization nor any phone has anything queued', async () => {
    expect(await ask('empty', 'dev_a', 'dev_b')).toEqual([false, false]);
  });

  it("answers true only for the phones whose own queue holds a message while the organization's is empty", async () => {
    await redis.zadd(key('qpinned:dev:dev_b'), 1, 'msg_1');
    expect(await ask('pinned', 'dev_a', 'dev_b', 'dev_c')).toEqual([false, true, false]);
  });

  it("answers true for every phone when the organization's queue holds a message", async () => {
    await redis.zadd(key('qorg'), 1, 'msg_2');
    expect(await ask('org', 'dev_a', 'dev_b')).toEqual([true, true]);
  });

  it('answers nothing for no phones', async () => {
    expect(await ask('none')).toEqual([]);
  });
});
