import { afterAll, describe, expect, it } from 'vitest';
import { acquireWebhookSlots } from '../../src/redis/scripts/acquire-webhook-slots.js';
import { testRedis } from './redis.js';

const { redis, key } = testRedis();
afterAll(() => redis.quit());

const acquire = (suffix: string, now: number, limit: number, lanes: string[], expiresAt = now + 1000) =>
  acquireWebhookSlots(redis, { slots: key(`slots${suffix}`) }, { now, limit, expiresAt, setTtlMs: 60_000, lanes });

describe('lua/acquireWebhookSlots', () => {
  it('gives slots to the first lanes up to the limit', async () => {
    expect(await acquire('a', 100, 3, ['l1', 'l2'])).toBe(2);
    expect(await acquire('a', 100, 3, ['l3', 'l4', 'l5'])).toBe(1);
    expect(await redis.zrange(key('slotsa'), '0', '-1')).toEqual(['l1', 'l2', 'l3']);
    expect(await acquire('a', 100, 3, ['l6'])).toBe(0);
  });

  it('frees slots whose time has passed, and only those', async () => {
    await acquire('b', 100, 2, ['old'], 150);
    await acquire('b', 100, 2, ['young'], 500);
    expect(await acquire('b', 149, 2, ['x'])).toBe(0);
    expect(await acquire('b', 150, 2, ['x'])).toBe(1);
    expect(await redis.zrange(key('slotsb'), '0', '-1')).toEqual(['young', 'x']);
  });

  it('gives a slot back once its lane removed itself', async () => {
    await acquire('c', 100, 1, ['l1']);
    await redis.zrem(key('slotsc'), 'l1');
    expect(await acquire('c', 100, 1, ['l2'])).toBe(1);
  });

  it('sets a time to live on the set when it gives a slot, and creates nothing when it gives none', async () => {
    await acquire('d', 100, 1, ['l1']);
    expect(await redis.pttl(key('slotsd'))).toBeGreaterThan(50_000);
    expect(await acquire('e', 100, 0, ['l1'])).toBe(0);
    expect(await redis.exists(key('slotse'))).toBe(0);
  });
});
